from django.core.management.base import BaseCommand

from national import precedents


class Command(BaseCommand):
    help = "Rebuild the precedent index from every published and final casebook."

    def handle(self, *args, **options):
        books, cases = precedents.rebuild()
        self.stdout.write(self.style.SUCCESS(f"Indexed {cases} cases of {books} published casebooks."))
