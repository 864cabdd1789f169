"""Permissions-Policy on every response: the browser features no page of the site uses are
turned off for it and anything it embeds (settings.PERMISSIONS_POLICY). The
Content-Security-Policy is django-csp's (settings.CONTENT_SECURITY_POLICY)."""

from django.conf import settings


def permissions_policy(features):
    """``{"camera": [], "fullscreen": ["self"]}`` -> ``camera=(), fullscreen=(self)``."""
    return ", ".join(f"{feature}=({' '.join(allowed)})" for feature, allowed in features.items())


class PermissionsPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.header = permissions_policy(getattr(settings, "PERMISSIONS_POLICY", {}))

    def __call__(self, request):
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault("Permissions-Policy", self.header)
        return response
