from django.core.management.base import BaseCommand, CommandError

from audit import signing


class Command(BaseCommand):
    help = (
        "The Ed25519 key that signs the audit trail's tree heads (AUDIT_SIGNING_KEY_FILE): --generate makes "
        "one, --rotate replaces it (the old public key stays in AUDIT_PUBLIC_KEYS_DIR so old heads still "
        "verify), and without either the key's id and the public keys trusted are shown."
    )

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group()
        action.add_argument("--generate", action="store_true", help="make the key; refuses if one exists")
        action.add_argument("--rotate", action="store_true", help="replace the key; the old private key is destroyed")

    def handle(self, *args, **options):
        if options["generate"] or options["rotate"]:
            try:
                new, retired = signing.generate(rotate=options["rotate"])
            except FileExistsError as exists:
                raise CommandError(str(exists)) from None
            self.stdout.write(self.style.SUCCESS(f"Audit signing key {new} written to {signing.key_file()}."))
            if retired:
                self.stdout.write(
                    f"Key {retired} retired: its private key is overwritten, its public key kept in "
                    f"{signing.public_keys_dir()} to verify the heads it signed."
                )
            self.stdout.write(f"Public key: {signing.public_keys_dir() / (new + '.pub')} (copy it to the auditors).")
            return
        try:
            current = signing.key_id(signing.private_key().public_key())
        except signing.SigningKeyMissing as missing:
            raise CommandError(str(missing)) from None
        self.stdout.write(f"Signing with key {current} ({signing.key_file()}).")
        for key in sorted(signing.public_keys()):
            self.stdout.write(f"Trusted public key {key}{' (current)' if key == current else ''}.")
