from django.db import migrations


def load(apps, schema_editor):
    from rulings.catalogue import sync_law_catalogue

    sync_law_catalogue(apps.get_model("rulings", "LawEntry"))


class Migration(migrations.Migration):
    """The 1997 paragraphs the rectifications name (issue #39): 26A1 and 26A2 (the suit the
    withdrawn call specified, named later by the offender or not) and 27B1(a) and 27B1(b) (the
    lowest sufficient bid in the same denomination; the adjusted score for damaging information),
    so a 1997 ruling cites the paragraph itself instead of 26A or 27B1. Only adds entries."""

    dependencies = [("rulings", "0020_ruling_further_ruling")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
