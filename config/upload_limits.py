"""Upload limits enforced while the body is read (issue #30), per kind of file.

Two checks, both before the body is kept anywhere:

- A multipart body whose Content-Length is over what any form takes (every file field's limit
  together, and ``DATA_UPLOAD_MAX_MEMORY_SIZE`` for the other fields) is refused at once, 413,
  nothing read.
- Otherwise ``LimitedUploadHandler`` (first of ``FILE_UPLOAD_HANDLERS``) counts each file's bytes
  as they arrive and stops the upload at its field's limit: the rest of the body is read and
  thrown away, never stored, and the request is answered 413 naming the field and its limit
  before the view runs (JSON in the API's error shape under /api/, a page elsewhere).

The services' own checks (``scoring.importers.session_import.check_size``, the attachment's)
stay for what does not come over HTTP (``manage.py import_pbn``).
"""

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import JsonResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The ruling form reads at most this much of a PBN or LIN file (rulings/forms.py).
DEAL_FILE_MAX_BYTES = 200_000
LABELS = {
    "file": gettext_lazy("Results file"),
    "attachment": gettext_lazy("Attachment"),
    "deal_file": gettext_lazy("PBN or LIN file"),
    "carried": gettext_lazy("Carried push file"),
}
WRITES = ("POST", "PUT", "PATCH")


def limits():
    """Each file field's limit in bytes: results files (the import page and the API), a ruling's
    attachment, a ruling's deal file, a push carried to the national body. Any other file field
    takes at most the largest of the first three."""
    from rulings.services.attachments import ATTACHMENT_MAX_BYTES

    return {
        "file": settings.INTERCHANGE_MAX_FILE_BYTES,
        "attachment": ATTACHMENT_MAX_BYTES,
        "deal_file": DEAL_FILE_MAX_BYTES,
        # A push carried on a file (national/federation/carried.py): as large as a bundle.
        "carried": settings.FEDERATION_MAX_BUNDLE_BYTES,
    }


def limit_of(field):
    known = limits()
    return known.get(field, max(limit for name, limit in known.items() if name != "carried"))


# The one page that takes a push carried on a file (national/federation/carried_views.py): only
# there may a body be as large as a bundle; everywhere else it is refused unread far sooner.
CARRIED_PATH = "/national/federation/receive/"


def limits_at(path):
    """The file fields' limits a body sent to ``path`` may carry."""
    return {name: limit for name, limit in limits().items() if name != "carried" or path == CARRIED_PATH}


def body_limit(path=""):
    """The largest multipart body a form at ``path`` takes."""
    return sum(limits_at(path).values()) + settings.DATA_UPLOAD_MAX_MEMORY_SIZE


class LimitedUploadHandler(FileUploadHandler):
    """Counts each uploaded file's bytes and stops the upload when one passes its field's limit;
    what was refused is left on the request for UploadLimitMiddleware."""

    def new_file(self, field_name, *args, **kwargs):
        super().new_file(field_name, *args, **kwargs)
        self.limit = limit_of(field_name)

    def receive_data_chunk(self, raw_data, start):
        if start + len(raw_data) > self.limit:
            if self.request is not None:
                self.request.upload_refused = (self.field_name, self.limit)  # type: ignore[attr-defined]  # read by the middleware
            # The rest of the body (at most body_limit(path)) is read and discarded, so the client
            # gets the answer instead of a reset connection.
            raise StopUpload(connection_reset=False)
        return raw_data

    def file_complete(self, file_size):
        return None


def too_large(request, field, message):
    if request.path_info.startswith("/api/"):
        return JsonResponse({field: [message]}, status=413)
    return render(request, "upload_refused.html", {"message": message}, status=413)


def is_upload(request):
    return request.method in WRITES and request.content_type == "multipart/form-data"


class UploadLimitMiddleware:
    """The two checks above. After CsrfViewMiddleware (whose check reads a page's form first),
    before IdempotencyKeyMiddleware (which reads an API write's body)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if is_upload(request):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            most = body_limit(request.path_info)
            if length > most:
                each = "; ".join(
                    _("%(field)s: at most %(limit)s") % {"field": LABELS[name], "limit": filesizeformat(limit)}
                    for name, limit in limits_at(request.path_info).items()
                )
                message = _("The upload is %(size)s, more than any form here takes (%(most)s). %(each)s.") % {
                    "size": filesizeformat(length),
                    "most": filesizeformat(most),
                    "each": each,
                }
                return too_large(request, "detail", message)  # the body is never read
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if not is_upload(request):
            return None
        request.POST  # noqa: B018 - parsed now, through LimitedUploadHandler, before the view runs
        refused = getattr(request, "upload_refused", None)
        if refused is None:
            return None
        field, limit = refused
        message = _("%(field)s: the file is larger than %(limit)s, the most this field takes. Nothing was kept.") % {
            "field": LABELS.get(field, field),
            "limit": filesizeformat(limit),
        }
        return too_large(request, field, message)
