from django.core.management.base import BaseCommand, CommandError

from audit.services import verify_chain


class Command(BaseCommand):
    help = "Check the audit trail's hash chain and report the first entry whose chain is broken."

    def handle(self, *args, **options):
        checked, broken, reason = verify_chain()
        if broken is not None or reason:
            where = f"entry {broken.sequence} ({broken})" if broken is not None else "the end of the trail"
            raise CommandError(
                f"The audit trail is broken at {where}: {reason}. {checked} entries before it are intact."
            )
        self.stdout.write(self.style.SUCCESS(f"The audit trail is intact: {checked} entries verified."))
