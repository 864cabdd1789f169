"""Print the appeal's states and steps (appeals/lifecycle.py) as docs/appeals.md shows them, or
with ``--write`` rewrite that section of docs/appeals.md."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from appeals import lifecycle


class Command(BaseCommand):
    help = "The appeal's transition table as a Mermaid diagram and a table (docs/appeals.md)."

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="rewrite the section of docs/appeals.md")

    def handle(self, *args, write=False, **options):
        if not write:
            self.stdout.write(lifecycle.document())
            return
        path = Path(settings.BASE_DIR) / "docs" / "appeals.md"
        path.write_text(lifecycle.rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
        self.stdout.write(f"wrote {path}")
