from django.core.management.base import BaseCommand, CommandError

from core import policy
from national.federation import push
from scoring.models import Tournament


class Command(BaseCommand):
    help = (
        "Publish a tournament's record (rulings, appeals, their steps and decisions, its audit entries with a "
        "signed tree head) to the national body (issue #32): a Celery task pushes it, or this command with --now."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament", type=int, help="the tournament's id")
        parser.add_argument("--now", action="store_true", help="push here and now instead of through a worker")

    def handle(self, *args, tournament, now=False, **options):
        found = Tournament.objects.filter(pk=tournament).first()
        if found is None:
            raise CommandError(f"There is no tournament {tournament}.")
        try:
            if now:
                from national.federation.models import Push

                created = Push.objects.create(target=push.target(), tournament=found)
                state = push.run(created.pk, by=policy.SYSTEM)
                created.refresh_from_db()
                self.stdout.write(f"Push {created.pk}: {state}. {created.last_error}".strip())
                return
            created = push.publish(found, by=policy.SYSTEM)
        except (push.TargetMissing, push.Interrupted) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Push {created.pk} of {found} queued.")
