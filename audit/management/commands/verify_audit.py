from django.core.management.base import BaseCommand, CommandError

from audit.services import verify_chain


class Command(BaseCommand):
    help = (
        "Check the audit trail's hash chain from the first entry and report the first entry whose "
        "chain is broken; --since-checkpoint checks only the entries written since the last one verified."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--since-checkpoint",
            action="store_true",
            help="start after the last entry verified (itself checked against its stored hash), as the auditor's desk does",
        )

    def handle(self, *args, **options):
        check = verify_chain(since_checkpoint=options["since_checkpoint"])
        checked, broken, reason = check
        if broken is not None or reason:
            where = f"entry {broken.sequence} ({broken})" if broken is not None else "the end of the trail"
            raise CommandError(
                f"The audit trail is broken at {where}: {reason}. {checked} entries before it are intact."
            )
        since = f" (entries {check.since + 1} to {checked}; those before were verified earlier)" if check.since else ""
        self.stdout.write(self.style.SUCCESS(f"The audit trail is intact: {checked} entries verified{since}."))
