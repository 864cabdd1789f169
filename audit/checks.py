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


def _open_to_others(path: Path) -> int | None:
    """The mode of ``path`` if group or others may write to it, else None (None if it is absent)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    return stat.S_IMODE(mode) if mode & (stat.S_IWGRP | stat.S_IWOTH) else None


@register(Tags.security, deploy=True)
def audit_folders_kept_private(app_configs, **kwargs):
    """The folders the trail's evidence lives in (issue #41): whoever may write in the key's folder
    can put another key in its place, whoever may write in the public keys' folder can make their
    own key trusted, and the witness's folder must exist and take the heads."""
    import os

    from audit import signing

    errors = []
    places = {
        "audit.E004": ("the signing key's folder", signing.key_file().resolve().parent),
        "audit.E005": ("the public keys' folder (AUDIT_PUBLIC_KEYS_DIR)", signing.public_keys_dir().resolve()),
    }
    for code, (what, folder) in places.items():
        mode = _open_to_others(folder)
        if mode is not None:
            errors.append(
                Error(
                    f"Others than its owner may write in {what} {folder} (mode {mode:o}): they could "
                    + (
                        "replace the key."
                        if code == "audit.E004"
                        else "add a key of their own, which would be trusted."
                    ),
                    hint=f"chmod go-w {folder} (docs/operations.md, Audit).",
                    id=code,
                )
            )
    folder = signing.public_keys_dir().resolve()
    if folder.is_dir():
        for path in sorted(folder.glob("*.pub")):
            mode = _open_to_others(path)
            if mode is not None:
                errors.append(
                    Error(
                        f"Others than its owner may write the public key {path} (mode {mode:o}).",
                        hint=f"chmod go-w {path} (docs/operations.md, Audit).",
                        id="audit.E005",
                    )
                )
    witness = signing.witness_file()
    if witness is not None:
        where = witness.resolve().parent
        if not where.is_dir() or not os.access(where, os.W_OK | os.X_OK):
            errors.append(
                Error(
                    f"The witness file's folder {where} does not exist or cannot be written by this process: no head "
                    "would reach the witness.",
                    hint="Mount the witness's share there and let the service's user append to it (docs/operations.md, "
                    "Audit).",
                    id="audit.E006",
                )
            )
    return errors
