import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.importers.export import pbn_bytes, session_pbn, session_usebio
from scoring.models import Event


class Command(BaseCommand):
    help = (
        "Write a scored session as a results file: PBN 2.1 in export format (hand records, table results, "
        "matchpoints or IMPs, totals) or USEBIO 1.2 XML."
    )

    def add_arguments(self, parser):
        parser.add_argument("--event", required=True, type=int, help="id of the event")
        parser.add_argument("--session", required=True, type=int, help="session number")
        parser.add_argument("--format", choices=["pbn", "usebio"], default="pbn")
        parser.add_argument("--output", help="the file to write (default: standard output)")

    def handle(self, *args, event, session, format, output=None, **options):
        try:
            target = Event.objects.select_related("tournament").get(pk=event)
        except Event.DoesNotExist:
            raise CommandError(f"--event {event}: there is no event with that id.") from None
        chosen = target.sessions.filter(number=session).first()
        if chosen is None:
            raise CommandError(f"--session {session}: {target} has no session {session}.")
        data = pbn_bytes(session_pbn(chosen))[0] if format == "pbn" else session_usebio(chosen)
        if output:
            try:
                with open(output, "wb") as handle:
                    handle.write(data)
            except OSError as error:
                raise CommandError(f"{output}: {error.strerror}.") from None
            self.stdout.write(self.style.SUCCESS(f"Wrote {target}, {chosen} as {format.upper()} to {output}."))
        else:
            sys.stdout.buffer.write(data)
