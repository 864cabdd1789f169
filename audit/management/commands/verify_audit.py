from django.core.management.base import BaseCommand, CommandError

from audit.services import verify_chain


class Command(BaseCommand):
    help = (
        "Check the audit trail from the first entry: each entry chained to the one before, and its Merkle tree "
        "equal to every signed tree head (database and heads file); report the first entry that is broken or "
        "was rewritten after it was signed, and sign a new head if all is intact. --since-checkpoint checks only "
        "the entries written since the last signed head."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--since-checkpoint",
            action="store_true",
            help="start after the last signed tree head (its last entry checked against the signed hash), as the auditor's desk does",
        )
        parser.add_argument("--no-sign", action="store_true", help="verify only: sign no new tree head")

    def handle(self, *args, **options):
        check = verify_chain(since_checkpoint=options["since_checkpoint"], sign=not options["no_sign"])
        checked, broken, reason = check
        if broken is not None or reason:
            where = f"entry {broken.sequence} ({broken})" if broken is not None else "the end of the trail"
            raise CommandError(
                f"The audit trail is broken at {where}: {reason}. {checked} entries before it are intact."
            )
        since = (
            f" (entries {check.since + 1} to {checked}; those before are in the last signed tree head)"
            if check.since
            else ""
        )
        self.stdout.write(self.style.SUCCESS(f"The audit trail is intact: {checked} entries verified{since}."))
        if check.head is not None:
            self.stdout.write(f"Verified against {check.head} (key {check.head.key_id}).")
        if check.signed is not None:
            self.stdout.write(f"Signed a new {check.signed} (key {check.signed.key_id}).")
        elif checked and not options["since_checkpoint"] and not options["no_sign"]:
            self.stderr.write(
                "No tree head signed: no signing key (manage.py audit_signing_key --generate, docs/operations.md)."
            )
