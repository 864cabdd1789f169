from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core import policy
from national.federation import receive
from national.federation.models import OrganiserToken, Origin
from scoring.models import RegulatingAuthority


class Command(BaseCommand):
    help = (
        "The national body's end of publishing (issue #32): register an organiser's instance with the public "
        "key of its audit trail and issue it a token (printed once; only its SHA-256 is kept), list the "
        "instances and tokens, or revoke a token."
    )

    def add_arguments(self, parser):
        parser.add_argument("--origin", help="the instance's short name (a slug), e.g. spring-congress")
        parser.add_argument("--name", help="the organiser's name, as the desk shows it")
        parser.add_argument("--authority", help="the code of the national body its tournaments come under")
        parser.add_argument("--public-key", help="the instance's audit public key (PEM file), to register or replace")
        parser.add_argument("--revoke", metavar="PREFIX", help="revoke the token starting with PREFIX")
        parser.add_argument("--list", action="store_true", help="list the instances and their tokens")

    def handle(self, *args, **options):
        if options["list"]:
            return self._list()
        if options["revoke"]:
            return self._revoke(options["revoke"])
        slug = options["origin"]
        if not slug:
            raise CommandError("Name the instance: --origin <short name>.")
        origin = Origin.objects.filter(slug=slug).first()
        if options["public_key"]:
            authority = RegulatingAuthority.objects.filter(code=options["authority"] or "").first()
            if authority is None:
                raise CommandError("Name the national body by its code: --authority <code>.")
            try:
                origin = receive.register_origin(
                    name=options["name"] or slug,
                    slug=slug,
                    authority=authority,
                    public_key=Path(options["public_key"]).read_text(),
                    by=policy.SYSTEM,
                )
            except (OSError, ValueError) as error:
                raise CommandError(str(error)) from None
        if origin is None:
            raise CommandError(f"No instance {slug}: register it with --name, --authority and --public-key.")
        token = receive.issue_token(origin, by=policy.SYSTEM)
        self.stdout.write(f"Instance {origin.name} ({origin.slug}), key {origin.key_id}, under {origin.authority}.")
        self.stdout.write("Its token (shown this once; give it to the organiser):")
        self.stdout.write(token)

    def _list(self):
        for origin in Origin.objects.prefetch_related("tokens"):
            self.stdout.write(f"{origin.slug}: {origin.name}, key {origin.key_id}, under {origin.authority}")
            for token in origin.tokens.all():
                state = f"revoked {token.revoked_at:%Y-%m-%d %H:%M}" if token.revoked_at else "valid"
                self.stdout.write(f"  {token.prefix}...  issued {token.created_at:%Y-%m-%d %H:%M}  {state}")

    def _revoke(self, prefix):
        tokens = list(OrganiserToken.objects.filter(prefix__startswith=prefix[:8], revoked_at=None))
        if len(tokens) != 1:
            raise CommandError(f"{len(tokens)} valid tokens start with {prefix}: give one that names exactly one.")
        receive.revoke_token(tokens[0], by=policy.SYSTEM)
        self.stdout.write(f"Token {tokens[0].prefix}... of {tokens[0].origin.name} revoked.")
