"""A received bundle read as a stream (issue #41): its parts read from the database one at a
time, the SHA-256 of the whole taken as they are read, and the JSON parsed as it arrives
(``ijson``), so committing holds the parsed bundle and one part, never the joined bytes beside
it (a 63 MiB bundle had raised the committing worker's memory by 244 MB)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

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


def read(upload: Upload, indexes: list[int]) -> tuple[str, Any]:
    """(the SHA-256 of the upload's parts joined, the bundle they hold or None if they hold no
    single JSON value). Numbers as ``json.loads`` gives them (integers, floats)."""
    parts = Parts(upload, indexes)
    try:
        values = list(ijson.items(parts, "", use_float=True))
    except (ijson.JSONError, ValueError, UnicodeDecodeError):
        values = []
    return parts.drain(), values[0] if len(values) == 1 else None
