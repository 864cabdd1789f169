"""Compile every locale/<lang>/LC_MESSAGES/*.po into the .mo file Django reads.

Pure Python (polib): no GNU gettext needed, so ``make run`` and ``make test`` work on a fresh
machine. A .mo file is rewritten only when its content changes. ``--check`` writes nothing and
fails if a .mo file is missing or out of date. See docs/translations.md.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def catalogues(locale_paths=None):
    """Every .po file under the locale paths, sorted."""
    paths = locale_paths if locale_paths is not None else settings.LOCALE_PATHS
    return sorted(po for base in paths for po in Path(base).glob("*/LC_MESSAGES/*.po"))


def compiled(po_path):
    """The .mo bytes of one .po file: translated entries only (untranslated, fuzzy and obsolete
    ones are left out, so Django shows the English text for them)."""
    return polib.pofile(str(po_path)).to_binary()


def compile_all(locale_paths=None, check=False):
    """Write (or with ``check``, only compare) each .mo file. Returns (written, stale): the .mo
    paths written and, with ``check``, those missing or out of date."""
    written, stale = [], []
    for po_path in catalogues(locale_paths):
        mo_path = po_path.with_suffix(".mo")
        data = compiled(po_path)
        if mo_path.exists() and mo_path.read_bytes() == data:
            continue
        if check:
            stale.append(mo_path)
        else:
            mo_path.write_bytes(data)
            written.append(mo_path)
    return written, stale


class Command(BaseCommand):
    help = "Compile the translation catalogues (.po) into .mo files, without GNU gettext."

    def add_arguments(self, parser):
        parser.add_argument(
            "--check", action="store_true", help="Write nothing; fail if a .mo file is missing or out of date."
        )

    def handle(self, *args, check=False, **options):
        pos = catalogues()
        if not pos:
            raise CommandError(f"No .po files under {', '.join(str(p) for p in settings.LOCALE_PATHS)}.")
        written, stale = compile_all(check=check)
        if stale:
            raise CommandError(
                "Out of date: " + ", ".join(str(p) for p in stale) + ". Run `python manage.py compile_translations`."
            )
        for path in written:
            self.stdout.write(f"compiled {path}")
        if options["verbosity"] > 1 or not written:
            self.stdout.write(f"{len(pos)} catalogues, {len(written)} .mo files written.")
