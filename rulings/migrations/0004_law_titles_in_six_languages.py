from django.db import migrations


def load(apps, schema_editor):
    from rulings.catalogue import sync_law_catalogue

    sync_law_catalogue(apps.get_model("rulings", "LawEntry"))


class Migration(migrations.Migration):
    """The catalogue's titles in Hebrew, Ukrainian, Icelandic, Greek and Dutch (2007, 2017) and in
    Dutch for the whole 1997 edition."""

    dependencies = [("rulings", "0003_ruling_seating")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
