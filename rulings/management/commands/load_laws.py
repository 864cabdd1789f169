from django.core.management.base import BaseCommand

from rulings.catalogue import sync_law_catalogue


class Command(BaseCommand):
    help = "Create or update the law catalogue (1997, 2007, 2017 editions) from the data shipped with the code."

    def handle(self, *args, **options):
        created, updated = sync_law_catalogue()
        self.stdout.write(self.style.SUCCESS(f"Law catalogue: {created} entries created, {updated} updated."))
