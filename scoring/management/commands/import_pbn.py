from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.importers.session_import import ImportRefused, import_pbn
from scoring.models import Event


class Command(BaseCommand):
    help = ("Import a scoring program's PBN 2.1 export (deals and a ScoreTable per board) into an event. "
            "A malformed file is refused whole, with the line and the reason.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="the PBN file")
        parser.add_argument("--event", required=True, type=int, help="id of the event to import into")
        parser.add_argument("--session", type=int, help="session number (default: a new session after the last)")

    def handle(self, *args, file, event, session=None, **options):
        try:
            target = Event.objects.select_related("tournament").get(pk=event)
        except Event.DoesNotExist:
            raise CommandError(f"--event {event}: there is no event with that id.") from None
        path = Path(file)
        try:
            raw = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}.") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")  # older scoring programs write Latin-1
        try:
            summary = import_pbn(event=target, text=text, session_number=session)
        except ImportRefused as refusal:
            raise CommandError(f"{file}: {refusal}. Nothing was imported.") from None
        self.stdout.write(self.style.SUCCESS(
            f"Imported {summary.boards} boards and {summary.results} results into {target}, {summary.session}."))
        if summary.contestants_created:
            self.stdout.write(f"New contestants: {', '.join(map(str, summary.contestants_created))}.")
        for line in summary.artificial:
            self.stdout.write(f"Artificial score kept as an adjusted score: {line}.")
