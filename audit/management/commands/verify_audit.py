from django.core.management.base import BaseCommand, CommandError

from audit.services import verify_chain


class Command(BaseCommand):
    help = (
        "Check the audit trail from the first entry: each entry chained to the one before, its Merkle tree equal "
        "to every signed tree head (database and heads file), and every entry in a signed head; report the first "
        "entry that is broken, was rewritten after it was signed or is in no signed head. It signs nothing (every "
        "write signs its own head). --since-checkpoint checks from the last signed head only."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--since-checkpoint",
            action="store_true",
            help="start at the last signed tree head (its last entry checked against the signed hash), as the auditor's desk does",
        )
        parser.add_argument(
            "--sign-unsigned",
            action="store_true",
            help=(
                "once, for a trail written before every write signed its entries: let the entries after the last "
                "signed head pass if they are chained to it, and sign a head over them (you vouch for them)"
            ),
        )

    def handle(self, *args, **options):
        check = verify_chain(since_checkpoint=options["since_checkpoint"], sign_unsigned=options["sign_unsigned"])
        checked, broken, reason = check.checked, check.broken, check.reason
        if broken is not None or reason:
            where = f"entry {broken.sequence} ({broken})" if broken is not None else "the end of the trail"
            raise CommandError(
                f"The audit trail is broken at {where}: {reason}. {checked} entries before it are intact."
            )
        since = (
            f" (entries {check.since + 1} to {checked}; those before are in the last signed tree head)"
            if check.since < checked and check.since
            else ""
        )
        self.stdout.write(self.style.SUCCESS(f"The audit trail is intact: {checked} entries verified{since}."))
        if check.head is not None:
            self.stdout.write(f"Verified against {check.head} (key {check.head.key_id}).")
        if check.signed is not None:
            self.stdout.write(f"Signed a new {check.signed} (key {check.signed.key_id}) over the unsigned entries.")
