"""The key that signs the audit trail's tree heads (Ed25519), and the file the heads are
exported to. Both live outside the database: whoever can write to the database can rewrite
entries and recompute every hash, but cannot sign a head, and cannot take back a head already
written to the file.

- ``AUDIT_SIGNING_KEY_FILE``: the private key (PEM, PKCS#8), made by
  ``manage.py audit_signing_key --generate``; readable by the service's user only.
- ``AUDIT_PUBLIC_KEYS_DIR``: the public keys heads are verified with, one ``<key id>.pub`` (PEM)
  each. Rotation writes a new private key and keeps every old public key here, so heads signed
  before still verify.
- ``AUDIT_HEADS_FILE``: one JSON line per signed head, appended, never rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

# What a signature covers, after this tag: the tree's size and the time of signing (milliseconds
# since 1970, UTC), 8 bytes each, big-endian, then the 32 bytes of the root (as RFC 9162's
# TreeHeadSignature does, without its TLS framing).
TAG = b"bridgecases audit tree head v1\x00"


class SigningKeyMissing(Exception):
    pass


def tree_head_message(tree_size: int, timestamp: int, root_hash: bytes) -> bytes:
    return TAG + struct.pack(">QQ", tree_size, timestamp) + root_hash


def _serialization():
    _installed()
    from cryptography.hazmat.primitives import serialization

    return serialization


def _installed() -> None:
    """The ``cryptography`` package (requirements/base.in) signs and verifies; an installation that
    lacks it can neither, and says so instead of failing on an import."""
    try:
        import cryptography  # noqa: F401
    except ImportError:
        raise SigningKeyMissing(
            "The cryptography package is not installed (requirements.txt): tree heads can be neither signed nor "
            "verified."
        ) from None


def key_id(public_key: Ed25519PublicKey) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key."""
    s = _serialization()
    raw = public_key.public_bytes(encoding=s.Encoding.Raw, format=s.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def key_file() -> Path:
    return Path(settings.AUDIT_SIGNING_KEY_FILE)


def public_keys_dir() -> Path:
    return Path(settings.AUDIT_PUBLIC_KEYS_DIR)


def heads_file() -> Path:
    return Path(settings.AUDIT_HEADS_FILE)


def witness_file() -> Path | None:
    """A second copy of every head on another disk or host (``AUDIT_WITNESS_FILE``, issue #41):
    whoever deletes the heads file beside the database still leaves this one."""
    return Path(settings.AUDIT_WITNESS_FILE) if settings.AUDIT_WITNESS_FILE else None


# The key as last loaded, by its file's path, inode and time of change: every write signs a head
# (issue #41), and parsing the PEM each time would cost more than the signature.
_loaded: dict[str, tuple[tuple[int, int], Ed25519PrivateKey]] = {}


def private_key() -> Ed25519PrivateKey:
    _installed()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = key_file()
    try:
        status = path.stat()
        stamp = (status.st_ino, status.st_mtime_ns)
        cached = _loaded.get(str(path))
        if cached is not None and cached[0] == stamp:
            return cached[1]
        data = path.read_bytes()
    except FileNotFoundError:
        raise SigningKeyMissing(
            f"No audit signing key at {path}: run `manage.py audit_signing_key --generate` (docs/operations.md, Audit)."
        ) from None
    key = _serialization().load_pem_private_key(data, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyMissing(f"The key at {path} is not an Ed25519 key.")
    _loaded[str(path)] = (stamp, key)
    return key


def public_keys() -> dict[str, Ed25519PublicKey]:
    """Every key a head may be signed with: the public half of the current key, and every public
    key kept in the directory (the retired ones)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys: dict[str, Ed25519PublicKey] = {}
    folder = public_keys_dir()
    if folder.is_dir():
        for path in sorted(folder.glob("*.pub")):
            key = _serialization().load_pem_public_key(path.read_bytes())
            if isinstance(key, Ed25519PublicKey):
                keys[key_id(key)] = key
    try:
        current = private_key().public_key()
    except SigningKeyMissing:
        return keys
    keys[key_id(current)] = current
    return keys


def sign(tree_size: int, timestamp: int, root_hash: bytes) -> tuple[str, str]:
    """(key id, signature in hex) with the current key. Nothing makes a key but ``manage.py
    audit_signing_key --generate`` (issue #41): a key made on the fly would be trusted by the
    very process that made it."""
    key = private_key()
    return key_id(key.public_key()), key.sign(tree_head_message(tree_size, timestamp, root_hash)).hex()


def signature_valid(head: dict[str, Any], keys: dict[str, Ed25519PublicKey] | None = None) -> bool:
    """Whether ``head`` (tree_size, timestamp, root_hash, key_id, signature) is signed by a key
    this installation trusts."""
    _installed()
    from cryptography.exceptions import InvalidSignature

    key = (public_keys() if keys is None else keys).get(head.get("key_id", ""))
    if key is None:
        return False
    try:
        message = tree_head_message(int(head["tree_size"]), int(head["timestamp"]), bytes.fromhex(head["root_hash"]))
        key.verify(bytes.fromhex(head["signature"]), message)
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return False
    return True


def generate(*, rotate: bool = False) -> tuple[str, str | None]:
    """Write a new private key to ``AUDIT_SIGNING_KEY_FILE`` (mode 0600) and its public key to
    the public keys' directory; (new key id, retired key id or None). Without ``rotate`` an
    existing key is kept and this refuses. With it the old private key is overwritten, and its
    public key stays in the directory, so heads it signed still verify."""
    _installed()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = key_file()
    retired = None
    if path.exists():
        if not rotate:
            raise FileExistsError(f"An audit signing key is already at {path}; --rotate replaces it.")
        old = private_key().public_key()
        _write_public(old)
        retired = key_id(old)
    s = _serialization()
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption())
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(pem)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)  # the old private key is gone: nothing can sign as it again
    _write_public(key.public_key())
    return key_id(key.public_key()), retired


def _write_public(public_key: Ed25519PublicKey) -> Path:
    s = _serialization()
    folder = public_keys_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{key_id(public_key)}.pub"
    if not path.exists():
        path.write_bytes(public_key.public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))
    return path


def export(head: dict[str, Any]) -> None:
    """Append one head to the heads file and the witness file, as one line each, flushed to disk."""
    line = (json.dumps(head, sort_keys=True, separators=(",", ":")) + "\n").encode()
    for path in (heads_file(), witness_file()):
        if path is None:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, line)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def exported(path: Path | None = None) -> list[tuple[int, dict[str, Any] | None]]:
    """Every line of the heads file (or of ``path``): (line number, the head, or None for a line
    that is not one)."""
    path = heads_file() if path is None else path
    if not path.exists():
        return []
    lines = []
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                head = json.loads(line)
            except ValueError:
                head = None
            lines.append((number, head if isinstance(head, dict) else None))
    return lines


def last_exported() -> dict[str, Any] | None:
    """The last head of the heads file (read from the end: the file holds every leaf)."""
    path = heads_file()
    if not path.exists():
        return None
    with path.open("rb") as handle:
        handle.seek(0, os.SEEK_END)
        end = handle.tell()
        position, tail = end, b""
        while position > 0:
            step = min(65536, position)
            position -= step
            handle.seek(position)
            tail = handle.read(step) + tail
            if tail.rstrip(b"\n").count(b"\n"):
                break
    lines = tail.rstrip(b"\n").split(b"\n")
    try:
        head = json.loads(lines[-1]) if lines and lines[-1] else None
    except ValueError:
        return None
    return head if isinstance(head, dict) else None
