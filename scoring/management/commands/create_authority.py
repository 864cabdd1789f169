from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

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
            help="apply the preset to the existing authority with --code instead of creating one",
        )

    def handle(
        self, *args, preset, name=None, code=None, country=None, language="en", time_zone="UTC", update=False, **options
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
                written = services.apply_preset(authority=authority, preset=preset)
                self.stdout.write(
                    self.style.SUCCESS(
                        f"{authority} (id {authority.pk}): {len(written)} new dated values from preset {preset}."
                    )
                )
                return
            authority = services.create_authority_with_preset(
                name=name or chosen.name,
                code=code,
                preset=preset,
                country=chosen.country if country is None else country,
                language=language,
                time_zone=time_zone,
            )
        except ValidationError as error:
            problems = "; ".join(
                f"--{field.replace('_', '-')}: {' '.join(messages)}" for field, messages in error.message_dict.items()
            )
            raise CommandError(problems) from None
        assumed = sum(1 for entry in chosen.entries if entry.status == "assumed")
        default = sum(1 for entry in chosen.entries if entry.status == "default")
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {authority} (id {authority.pk}, code {authority.code}) with preset {preset}: "
                f"{authority.settings.count()} dated values, {assumed} of them assumed and {default} the default "
                f"kept on purpose (see its settings page; sources checked {chosen.checked.isoformat()})."
            )
        )
