"""System checks for the audit trail's signing key (``manage.py check --deploy``)."""

import stat
from pathlib import Path

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


@register(Tags.security, deploy=True)
def heads_witnessed_elsewhere(app_configs, **kwargs):
    """The heads are the trail's only evidence outside the database (issue #41): a second copy
    must be set, and neither it, the heads file nor the key may sit in the database's folder,
    where whoever takes the one takes the others."""
    from django.conf import settings
    from django.db import connection

    from audit import signing

    errors = []
    witness = signing.witness_file()
    if witness is None:
        errors.append(
            Error(
                "No witness of the audit trail's signed heads is set (AUDIT_WITNESS_FILE): whoever deletes the heads "
                "file and the database's heads cuts the trail unseen.",
                hint="AUDIT_WITNESS_FILE on another disk or a mounted host, append-only (docs/operations.md, Audit).",
                id="audit.E002",
            )
        )
    folders = {
        "the signing key": signing.key_file().resolve().parent,
        "the heads file": signing.heads_file().resolve().parent,
    }
    if witness is not None:
        folders["the witness file"] = witness.resolve().parent
    if connection.vendor == "sqlite":
        folders["the database"] = Path(str(settings.DATABASES["default"]["NAME"])).resolve().parent
    seen: dict[Path, str] = {}
    for what, folder in folders.items():
        if folder in seen:
            errors.append(
                Error(
                    f"{seen[folder].capitalize()} and {what} share the folder {folder}: one copy or theft takes both.",
                    hint="Keep the key, the heads file, the witness and the database apart (docs/operations.md, Audit).",
                    id="audit.E003",
                )
            )
        else:
            seen[folder] = what
    return errors
