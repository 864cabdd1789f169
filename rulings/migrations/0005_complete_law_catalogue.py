from django.db import migrations


def load(apps, schema_editor):
    from rulings.catalogue import sync_law_catalogue

    sync_law_catalogue(apps.get_model("rulings", "LawEntry"))


class Migration(migrations.Migration):
    """The completed catalogue: every section and numbered item of the 2017 Laws (13A, 24B, 6D1 and
    231 entries more), the 1997 sections outside chapter VI (118 entries) and 2007 9A3's corrected
    title. Only adds and updates entries: none is removed."""

    dependencies = [("rulings", "0004_law_titles_in_six_languages")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
