from django.core.management.base import BaseCommand, CommandError

from audit.signing import SigningKeyMissing
from core import policy
from national.federation import bundle, push


class Command(BaseCommand):
    help = (
        "The organiser's end of publishing (issue #32): set the national body's receiving address and the token "
        "it issued, or print this instance's audit public key for the national body to register."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--url", help="the national body's receiving address, e.g. https://nbo.example/api/federation/"
        )
        parser.add_argument("--token", help="the token the national body issued")
        parser.add_argument("--public-key", action="store_true", help="print this instance's audit public key (PEM)")

    def handle(self, *args, url=None, token=None, public_key=False, **options):
        if public_key:
            try:
                self.stdout.write(bundle.public_key_pem(), ending="")
            except SigningKeyMissing as missing:
                raise CommandError(str(missing)) from None
            return
        if not url or not token:
            raise CommandError("Give both --url and --token.")
        if not url.startswith("https://") and not url.startswith(("http://127.0.0.1", "http://localhost")):
            raise CommandError("The national body's address must be https:// (plain http only on this machine).")
        try:
            target = push.set_target(url, token, by=policy.SYSTEM)
        except push.TargetBusy as busy:
            raise CommandError(str(busy)) from None
        self.stdout.write(f"Publishing to {target.url}.")
