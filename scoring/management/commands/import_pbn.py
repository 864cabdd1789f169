from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.importers.session_import import ImportRefused, check_size, import_file
from scoring.models import Event


class Command(BaseCommand):
    help = (
        "Import a scoring program's results file (PBN 2.1 or USEBIO 1.2 XML: deals and table results) into "
        "an event. A file with any fault is refused whole, with each line (or element) and reason."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the PBN or USEBIO file")
        parser.add_argument("--event", required=True, type=int, help="id of the event to import into")
        parser.add_argument("--session", type=int, help="session number (default: a new session after the last)")
        parser.add_argument(
            "--dry-run", action="store_true", help="check the file and say what would be imported, writing nothing"
        )
        parser.add_argument(
            "--skip-faulty",
            action="store_true",
            help="import the file without its faulty result rows (a --dry-run lists them); otherwise refused with them",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="swap the boards and results of session --session for the file's (refused while rulings refer to them)",
        )

    def handle(self, *args, file, event, session=None, dry_run=False, replace=False, skip_faulty=False, **options):
        try:
            target = Event.objects.select_related("tournament").get(pk=event)
        except Event.DoesNotExist:
            raise CommandError(f"--event {event}: there is no event with that id.") from None
        path = Path(file)
        try:
            check_size(path.stat().st_size)
            raw = path.read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}.") from None
        except ImportRefused as refusal:
            raise CommandError(f"{file}: {refusal}") from None
        try:
            summary = import_file(
                event=target,
                data=raw,
                session_number=session,
                dry_run=dry_run,
                replace=replace,
                skip_faulty=skip_faulty,
            )
        except ImportRefused as refusal:
            for warning in refusal.warnings:
                self.stderr.write(f"Warning: {warning}")
            raise CommandError(f"{file}: {str(refusal).rstrip('.')}. Nothing was imported.") from None
        verb = "Would import" if dry_run else "Imported"
        if summary.replaced:
            self.stdout.write(
                f"{'Would replace' if dry_run else 'Replaced'} {summary.replaced['boards']} boards and "
                f"{summary.replaced['results']} results of {summary.session}."
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"{verb} {summary.boards} boards and {summary.results} results into {target}, {summary.session} "
                f"(from a {summary.format} file)."
            )
        )
        if summary.left_out:
            self.stdout.write(
                self.style.WARNING(f"{summary.left_out} table results of the file are left out: the warnings say why.")
            )
        if summary.contestants_created:
            self.stdout.write(f"New contestants: {', '.join(map(str, summary.contestants_created))}.")
        for line in summary.artificial:
            self.stdout.write(f"Artificial score kept as an adjusted score: {line}.")
        for warning in summary.warnings:
            self.stdout.write(f"Warning: {warning}")
        if dry_run:
            self.stdout.write("Nothing was written (--dry-run).")
