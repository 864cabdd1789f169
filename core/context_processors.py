from core.roles import ROLES, roles_of


def roles(request):
    user = getattr(request, "user", None)
    if user is None:
        return {}
    names = roles_of(user)
    return {"user_roles": [ROLES[name] for name in ROLES if name in names]}
