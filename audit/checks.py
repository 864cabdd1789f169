"""System checks for the audit trail's signing key (``manage.py check --deploy``)."""

import stat

from django.core.checks import Error, Tags, Warning, register


@register(Tags.security, deploy=True)
def signing_key_kept_private(app_configs, **kwargs):
    """The private key, where it exists, must be readable by its owner alone: anyone who can read
    it can sign a tree head for a rewritten trail."""
    from audit import signing

    path = signing.key_file()
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        # Every audited write signs its head (issue #41): without the key nothing can be written.
        return [
            Error(
                f"There is no audit signing key at {path}: no audited write can be signed, so none is made.",
                hint="manage.py audit_signing_key --generate, as the service's user (docs/operations.md, Audit).",
                id="audit.E001",
            )
        ]
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        return [
            Warning(
                f"The audit signing key {path} can be read or written by others than its owner "
                f"(mode {stat.S_IMODE(mode):o}).",
                hint=f"chmod 600 {path} (docs/operations.md, Audit).",
                id="audit.W001",
            )
        ]
    return []
