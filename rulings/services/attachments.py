"""A ruling's attachments: photos, system cards, screenshots (their type read from their first
bytes, at most 5 MB), kept through Django's storage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from core.retry import atomic_with_retry
from rulings.models import Ruling, RulingAttachment
from rulings.services.common import ruling_name

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import UploadedFile


ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024


# The first bytes of each accepted type: the browser's content type is not trusted.
ATTACHMENT_SIGNATURES = (
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"GIF87a", "image/gif", ".gif"),
    (b"GIF89a", "image/gif", ".gif"),
    (b"%PDF-", "application/pdf", ".pdf"),
)


def _sniff(head: bytes) -> tuple[str | None, str | None]:
    for signature, content_type, extension in ATTACHMENT_SIGNATURES:
        if head.startswith(signature):
            return content_type, extension
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", ".webp"
    return None, None


@atomic_with_retry
def add_attachment(*, ruling: Ruling, by: User, upload: UploadedFile, description: str = "") -> RulingAttachment:
    """A photo of the table, a system card or a screenshot (JPEG, PNG, GIF, WebP or PDF, at most
    5 MB), stored through Django's storage API."""
    policy.require(by, "ruling", ruling)
    from pathlib import PurePath

    from django.utils.text import get_valid_filename

    name = upload.name or "attachment"  # a file posted without a name
    size = upload.size or 0
    if size > ATTACHMENT_MAX_BYTES:
        raise ValidationError(
            {
                "attachment": _("%(name)s is %(size).1f MB: an attachment is at most %(limit)s MB.")
                % {"name": name, "size": size / 1024 / 1024, "limit": ATTACHMENT_MAX_BYTES // 1024 // 1024}
            }
        )
    if size == 0:
        raise ValidationError({"attachment": _("%(name)s is empty.") % {"name": name}})
    upload.seek(0)
    head = upload.read(16)
    upload.seek(0)
    content_type, extension = _sniff(head)
    if content_type is None:
        raise ValidationError(
            {
                "attachment": _("%(name)s is not a photo or a PDF: attach a JPEG, PNG, GIF or WebP image or a PDF.")
                % {"name": name}
            }
        )
    stem = get_valid_filename(PurePath(name).stem)[:80] or "attachment"
    attachment = RulingAttachment(
        ruling=ruling,
        name=name[:200],
        content_type=content_type,
        size=size,
        description=(description or "")[:200],
        uploaded_by=by,
    )
    attachment.file.save(f"{stem}{extension}", upload, save=False)
    try:
        attachment.save()
        audit.record(
            action="ruling.attachment_added",
            obj=ruling,
            actor=by,
            tournament=ruling.tournament.pk,
            after={"name": attachment.name, "type": content_type, "size": size, "file": attachment.file.name},
            summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=attachment.name),
        )
    except Exception:
        # Rolled back (a conflict is retried from the start, storing the file again): no orphan file.
        attachment.file.delete(save=False)
        raise
    return attachment
