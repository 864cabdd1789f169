"""Builders shared by the publishing tests (issue #32)."""

import hashlib

from core import policy
from national.federation import bundle as bundles
from national.federation import receive


def register_self(authority, slug="congress"):
    """This instance registered as an organiser's instance of ``authority`` (its own key)."""
    return receive.register_origin(
        name="Spring Congress", slug=slug, authority=authority, public_key=bundles.public_key_pem(), by=policy.SYSTEM
    )


def deliver(origin, bundle, part=4096):
    """Send ``bundle`` in parts and commit it, as the push does: (status, answer)."""
    data = bundles.canonical(bundle)
    digest = hashlib.sha256(data).hexdigest()
    parts = max(1, -(-len(data) // part))
    for index in range(parts):
        receive.receive_part(origin, digest, index, parts, data[index * part : (index + 1) * part], by=policy.SYSTEM)
    return receive.commit(origin, digest, by=policy.SYSTEM)
