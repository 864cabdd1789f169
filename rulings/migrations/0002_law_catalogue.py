from django.db import migrations


def load(apps, schema_editor):
    from rulings.catalogue import sync_law_catalogue

    sync_law_catalogue(apps.get_model("rulings", "LawEntry"))


class Migration(migrations.Migration):
    dependencies = [("rulings", "0001_initial")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
