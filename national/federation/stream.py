"""A received bundle read as a stream (issue #41): its parts read from the database one at a
time, the SHA-256 of the whole taken as they are read, and the JSON parsed as it arrives
(``ijson``), so committing holds the parsed bundle and one part, never the joined bytes beside
it (a 63 MiB bundle had raised the committing worker's memory by 244 MB).

Each attachment's content (base64 text) is decoded as it is parsed into a temporary file on disk
(``Spooled``, its size and SHA-256 taken as it is written) and the parsed bundle holds that file in
its place: memory holds the records and entries and one attachment's text at a time, never every
attachment. The signature is checked over the same bytes (``canonical_into`` writes the text again
from the file), and the desk's storage reads the file in chunks when the bundle is stored."""

from __future__ import annotations

import base64
import binascii
import hashlib
import tempfile
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import ijson

from national.federation.models import Upload, UploadPart


class Parts:
    """The parts of ``upload``, in order, as a file the parser reads; ``sha256`` is the digest
    of what was read."""

    def __init__(self, upload: Upload, indexes: list[int]):
        self.sha256 = hashlib.sha256()
        self._chunks = self._read(upload, indexes)
        self._left = b""

    @staticmethod
    def _read(upload: Upload, indexes: list[int]) -> Iterator[bytes]:
        for index in indexes:
            data = UploadPart.objects.filter(upload=upload, index=index).values_list("data", flat=True).get()
            yield bytes(data)

    def read(self, size: int = -1) -> bytes:
        if not self._left:
            self._left = next(self._chunks, b"")
            self.sha256.update(self._left)
        if size < 0 or size >= len(self._left):
            out, self._left = self._left, b""
        else:
            out, self._left = self._left[:size], self._left[size:]
        return out

    def drain(self) -> str:
        """The rest read (after a parse that stopped early): the digest of the whole."""
        while self.read():
            pass
        return self.sha256.hexdigest()


# Base64 text decoded this many characters at a time (a multiple of 4: whole groups).
TEXT_STEP = 1 << 18


class Spooled:
    """An attachment's content decoded to a temporary file as it was parsed: ``size`` and
    ``sha256`` (hex) of the bytes, ``file`` (read from its start with ``open``). Stands in the
    parsed bundle for the base64 text it was, which ``canonical_into`` gives again."""

    def __init__(self, file: BinaryIO, size: int, sha256: str):
        self.file, self.size, self.sha256 = file, size, sha256

    def open(self) -> BinaryIO:
        self.file.seek(0)
        return self.file

    def canonical_into(self, update: Callable[[bytes], Any]) -> None:
        """The canonical JSON of the text it was (a string of base64: no character escaped)."""
        file = self.open()
        update(b'"')
        while chunk := file.read(TEXT_STEP // 4 * 3):  # whole groups of 3 bytes: no padding between
            update(base64.b64encode(chunk))
        update(b'"')

    def close(self) -> None:
        self.file.close()

    def __str__(self) -> str:
        return f"<{self.size} bytes, sha256 {self.sha256}>"


def spool(text: str) -> Spooled | str:
    """``text`` decoded to a temporary file, or ``text`` itself when it is not base64 in the
    canonical form ``base64.b64encode`` writes (then verify decodes it, or refuses it, as sent)."""
    if len(text) % 4:
        return text
    file = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close() once the commit is done
    sha256, size = hashlib.sha256(), 0
    for start in range(0, len(text), TEXT_STEP):
        chunk = text[start : start + TEXT_STEP]
        last = start + TEXT_STEP >= len(text)
        try:
            data = base64.b64decode(chunk, validate=True)
        except (binascii.Error, ValueError):
            data = None
        if data is None or base64.b64encode(data).decode("ascii") != chunk or (not last and "=" in chunk):
            file.close()
            return text
        file.write(data)
        sha256.update(data)
        size += len(data)
    return Spooled(file, size, sha256.hexdigest())


def _content(prefix: str) -> bool:
    """Whether ``prefix`` is an attachment's content: ``attachments.<pk>.content``."""
    parts = prefix.split(".")
    return len(parts) == 3 and parts[0] == "attachments" and parts[2] == "content"


def _parse(parts: Parts) -> Any:
    """The single JSON value ``parts`` hold, its attachments' content spooled (``spool``)."""
    builder = ijson.ObjectBuilder()
    values = 0
    try:
        for prefix, event, value in ijson.parse(parts, use_float=True):
            if event == "string" and _content(prefix):
                value = spool(value)
            builder.event(event, value)
            if prefix == "" and event in ("end_map", "end_array", "string", "number", "boolean", "null"):
                values += 1
    except (ijson.JSONError, ValueError, UnicodeDecodeError):
        close(getattr(builder, "value", None))
        return None
    if values != 1:
        close(getattr(builder, "value", None))
        return None
    return builder.value


def close(bundle: Any) -> None:
    """Delete the temporary files of a parsed bundle's attachments."""
    attachments = bundle.get("attachments") if isinstance(bundle, dict) else None
    for sent in attachments.values() if isinstance(attachments, dict) else ():
        if isinstance(sent, dict) and isinstance(sent.get("content"), Spooled):
            sent["content"].close()


def read(upload: Upload, indexes: list[int]) -> tuple[str, Any]:
    """(the SHA-256 of the upload's parts joined, the bundle they hold or None if they hold no
    single JSON value). Numbers as ``json.loads`` gives them (integers, floats); each attachment's
    content a ``Spooled`` file (or its text, if not canonical base64): ``close`` it when done."""
    parts = Parts(upload, indexes)
    bundle = _parse(parts)
    return parts.drain(), bundle
