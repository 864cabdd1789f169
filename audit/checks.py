"""System checks for the audit trail's signing key (``manage.py check --deploy``)."""

import stat

from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def signing_key_kept_private(app_configs, **kwargs):
    """The private key, where it exists, must be readable by its owner alone: anyone who can read
    it can sign a tree head for a rewritten trail."""
    from audit import signing

    path = signing.key_file()
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return []  # none yet: verify_audit and beat's task say so
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
