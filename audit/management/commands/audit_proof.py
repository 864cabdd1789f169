import json

from django.core.management.base import BaseCommand, CommandError

from audit import merkle
from audit.models import AuditEntry
from audit.services import inclusion_proofs


class Command(BaseCommand):
    help = (
        "The RFC 9162 inclusion proof of one audit entry in the last signed tree head, as JSON: the entry's "
        "sequence, its leaf hash, the head (size, root, time, key id, signature) and the path, so that anyone "
        "holding the heads file and the public key can check it without the database."
    )

    def add_arguments(self, parser):
        parser.add_argument("sequence", type=int, help="the entry's number in the trail")

    def handle(self, *args, sequence, **options):
        entry = AuditEntry.objects.filter(sequence=sequence).first()
        if entry is None:
            raise CommandError(f"There is no audit entry {sequence}.")
        proof = inclusion_proofs([entry]).get(sequence)
        if proof is None:
            raise CommandError(f"Entry {sequence} is not in a signed tree head yet: the next one will hold it.")
        if not proof.verified:
            raise CommandError(
                f"Entry {sequence}'s inclusion proof does not verify against the {proof.head}: run verify_audit."
            )
        head = proof.head
        self.stdout.write(
            json.dumps(
                {
                    "sequence": sequence,
                    "leaf_index": sequence - 1,
                    "entry_hash": entry.hash,
                    "leaf_hash": merkle.leaf_hash(bytes.fromhex(entry.hash)).hex(),
                    "tree_size": head.tree_size,
                    "root_hash": head.root_hash,
                    "timestamp": head.timestamp,
                    "key_id": head.key_id,
                    "signature": head.signature,
                    "inclusion_proof": proof.proof,
                },
                indent=2,
            )
        )
