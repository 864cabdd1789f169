from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from core import policy
from scoring import presets, services
from scoring.models import RegulatingAuthority


class Command(BaseCommand):
    help = (
        "Create a regulating authority that starts with a preset's dated regulations "
        "(scoring/presets/<preset>.yaml), e.g. `create_authority --preset ebu`; with --update, add a "
        "later edition's new dated values to an existing authority without rewriting its history."
    )

    def add_arguments(self, parser):
        parser.add_argument("--preset", required=True, help=f"the preset: one of {', '.join(presets.available())}")
        parser.add_argument("--name", help="the authority's name (default: the preset's)")
        parser.add_argument("--code", help="the authority's short code (default: the preset's)")
        parser.add_argument("--country", help="default: the preset's")
        parser.add_argument("--language", default="en", help="the language of its casebooks and pages (default: en)")
        parser.add_argument("--time-zone", default="UTC", help="e.g. Europe/London (default: UTC)")
        parser.add_argument(
            "--update",
            action="store_true",
            help="show what the preset now gives otherwise to the existing authority with --code (added, "
            "corrected, withdrawn, with the source) instead of creating one",
        )
        parser.add_argument(
            "--confirm",
            action="store_true",
            help="with --update: apply those corrections (audited; tournaments already held keep what they used)",
        )

    def handle(
        self,
        *args,
        preset,
        name=None,
        code=None,
        country=None,
        language="en",
        time_zone="UTC",
        update=False,
        confirm=False,
        **options,
    ):
        if preset not in presets.available():
            raise CommandError(f"--preset: '{preset}' is not a preset: one of {', '.join(presets.available())}.")
        chosen = presets.load(preset)
        code = code or chosen.code
        try:
            if update:
                authority = RegulatingAuthority.objects.filter(code=code).first()
                if authority is None:
                    raise CommandError(f"--code: there is no regulating authority with the code '{code}'.")
                self._update(authority, preset, confirm)
                return
            authority = services.create_authority_with_preset(
                name=name or chosen.name,
                code=code,
                preset=preset,
                country=chosen.country if country is None else country,
                language=language,
                time_zone=time_zone,
                by=policy.SYSTEM,
            )
        except ValidationError as error:
            problems = "; ".join(
                f"--{field.replace('_', '-')}: {' '.join(messages)}" for field, messages in error.message_dict.items()
            )
            raise CommandError(problems) from None
        self._created(authority, chosen, preset)

    def _update(self, authority, preset, confirm):
        current = services.authority_preset_code(authority)
        if current != preset:
            if current:
                raise CommandError(f"--preset: {authority} started from preset {current}, not {preset}.")
            written = services.apply_preset(authority=authority, preset=preset, by=policy.SYSTEM)
            self.stdout.write(self.style.SUCCESS(f"{authority}: preset {preset} applied, {len(written)} dated values."))
            return
        corrections = services.preset_corrections(authority=authority)
        if not corrections:
            self.stdout.write(
                self.style.SUCCESS(f"{authority} (id {authority.pk}): no corrections from preset {preset}.")
            )
            return
        for c in corrections:
            change = (
                f"{_shown(c.before)} -> {_shown(c.after)}"
                if c.kind == "corrected"
                else _shown(c.after if c.entry else c.before)
            )
            source = f" ({c.entry.confidence}: {c.entry.citation})" if c.entry else ""
            self.stdout.write(f"{c.kind} {c.key} from {c.effective_from}: {change}{source}")
        if not confirm:
            self.stdout.write(
                f"{len(corrections)} corrections from preset {preset}: run again with --confirm to apply them."
            )
            return
        applied = services.apply_preset_corrections(
            authority=authority, chosen=[c.ident for c in corrections], by=policy.SYSTEM
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"{authority} (id {authority.pk}): {len(applied)} corrections from preset {preset} applied (audited); "
                f"tournaments already held keep what they used."
            )
        )

    def _created(self, authority, chosen, preset):
        assumed = sum(1 for entry in chosen.entries if entry.status == "assumed")
        default = sum(1 for entry in chosen.entries if entry.status == "default")
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {authority} (id {authority.pk}, code {authority.code}) with preset {preset}: "
                f"{authority.settings.count()} dated values, {assumed} of them assumed and {default} the default "
                f"kept on purpose (see its settings page; sources checked {chosen.checked.isoformat()})."
            )
        )


def _shown(value):
    """A value as the command prints it, a mapping's keys sorted: PostgreSQL's jsonb gives them back
    in its own order, SQLite in the order written, and the same correction must read the same."""
    return repr(dict(sorted(value.items())) if isinstance(value, dict) else value)
