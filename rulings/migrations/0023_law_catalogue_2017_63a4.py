from django.db import migrations


def load(apps, schema_editor):
    from rulings.catalogue import sync_law_catalogue

    sync_law_catalogue(apps.get_model("rulings", "LawEntry"))


class Migration(migrations.Migration):
    """The 2017 Law 63A4 (issue #39): a revoke becomes established "when agreement is established (as
    per Law 69A) to an opponent's claim or concession", a paragraph the 2017 text adds to 63A1-63A3
    (pzbs.pl/sedziowie/mpb/2017/en/l63.html). Only adds the entry."""

    dependencies = [("rulings", "0022_second_director_check")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
