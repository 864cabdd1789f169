"""What a file is when it is not results text a reader here takes: a ZIP archive (a .bws or .pbn
zipped, or renamed), UTF-16 text, or binary data. Told from its first bytes, at once, whatever
its size; the reason never quotes the file's bytes."""

from __future__ import annotations

from django.utils.translation import gettext as _


def not_results_text(data: bytes) -> str:
    """Why ``data`` cannot be read as a PBN, USEBIO or LIN text, or "" when it may be."""
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _(
            "The file is a ZIP archive, not a results file: unzip it and upload the PBN, USEBIO, LIN or "
            "Bridgemate (.bws) file inside."
        )
    head = data[:4096]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(head) > 8 and head.count(0) * 3 > len(head)):
        return _("The file is UTF-16 text: save or export it as UTF-8 (or Windows-1252) text and upload it again.")
    nul = data.find(0)
    if nul >= 0:
        return _(
            "The file holds binary data (a NUL byte at byte %(offset)s): it is not a PBN, USEBIO or LIN text "
            "file, nor a Bridgemate database."
        ) % {"offset": nul + 1}
    return ""
