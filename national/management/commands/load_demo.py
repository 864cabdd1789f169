import json
import time

from django.core.management.base import BaseCommand

from appeals import demo as appeals_demo
from bridge import deals
from national import precedents
from national.demo import load_demo_casebook, load_past_casebook
from rulings.demo import load_demo_rulings
from scoring import demo


class Command(BaseCommand):
    help = (
        "Build the demo tournament (pairs and teams events with results), its rulings and appeals, the national body's casebook, and a login "
        "for each role."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing (but print the logins) if the demo is already loaded."
        )
        parser.add_argument(
            "--past-seasons",
            action="store_true",
            help="Add two earlier tournaments of the demo federation and their casebook, so "
            "that rulings show precedents (make demo does).",
        )
        parser.add_argument(
            "--write-tables",
            action="store_true",
            help=f"Solve every deal of the demo again and write their double-dummy tables to {demo.TABLES.name} "
            "(after a change to the demo's deals; with --past-seasons, as make demo builds it).",
        )

    def handle(self, *args, if_empty=False, past_seasons=False, write_tables=False, **options):
        self.started = time.monotonic()
        if write_tables:
            deals.record_solved()
        if demo.demo_exists():
            if not if_empty:
                self.stderr.write("The demo tournament is already loaded.")
        else:
            self.stdout.write(
                "Building the demo tournament (dealing, solving and scoring the boards takes a few minutes)..."
            )
            tournament = demo.load_demo(progress=self._progress, shipped_tables=not write_tables)
            rulings = load_demo_rulings(tournament)
            self._progress(f"{len(rulings)} rulings given")
            appeals = appeals_demo.load_demo_appeals(tournament)
            self._progress(f"{len(appeals)} appeals lodged and taken through their stages")
            load_demo_casebook(tournament)
            if past_seasons:
                load_past_casebook(tournament.authority)
                self._progress("The past seasons' tournaments and casebook added")
            precedents.rebuild()  # at once, whether or not a worker is running
            if write_tables:
                tables = dict(sorted(deals.solved_tables().items()))
                lines = ",\n".join(f"{json.dumps(pbn)}: {json.dumps(rows)}" for pbn, rows in tables.items())
                demo.TABLES.write_text("{\n" + lines + "\n}\n", encoding="utf-8")  # a deal a line
                self.stdout.write(f"Wrote the double-dummy tables of {len(tables)} deals to {demo.TABLES}.")
            self._sign_the_trail()
            self.stdout.write(
                self.style.SUCCESS(
                    f"Loaded the demo tournament '{tournament}' with {len(rulings)} rulings and {len(appeals)} appeals."
                )
            )
        self.stdout.write("Demo logins (username / password / role):")
        for username, password, role in [*demo.demo_logins(), *appeals_demo.demo_logins()]:
            self.stdout.write(f"  {username:10} {password:16} {role}")

    def _progress(self, text):
        """A step of the build, with the minutes and seconds since it began: the build is slow
        and was silent for minutes (issue #42)."""
        elapsed = int(time.monotonic() - self.started)
        self.stdout.write(f"  [{elapsed // 60}:{elapsed % 60:02d}] {text}")
        self.stdout.flush()

    def _sign_the_trail(self):
        """A signed tree head over the demo's trail at once (beat signs the next ones), so the
        casebook shows each decision's inclusion proof from the start (issue #30)."""
        from audit import services as audit
        from audit.signing import SigningKeyMissing

        try:
            head = audit.sign_tree_head()
        except SigningKeyMissing as missing:
            self.stderr.write(f"The audit trail was not signed: {missing}")
            return
        if isinstance(head, audit.ChainCheck):
            if not head.intact:
                self.stderr.write(f"The audit trail was not signed: {head.reason}")
            return
        self.stdout.write(f"Signed the audit trail's {head}.")
