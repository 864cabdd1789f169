from django.db import migrations


def load(apps, schema_editor):
    from rulings.catalogue import remove_stale_entries, sync_law_catalogue

    LawEntry = apps.get_model("rulings", "LawEntry")
    sync_law_catalogue(LawEntry)
    remove_stale_entries(LawEntry)


class Migration(migrations.Migration):
    """The 2017 Laws 26, 30, 31 and 32 as the 2017 text letters them (issue #39): 26A and 26B
    titled (a comparable call, or not); 30A at RHO's turn, 30B at partner's or LHO's turn with
    30B1(a), 30B1(b) and 30B2; 31A2(a) a comparable call, 31A2(b) partner passes at his next turn,
    31B1, 31B2 and 31C (later bids at LHO's turn); 32A at RHO's turn (32A1, 32A2, 32A2a, 32A2b) and
    32B at partner's turn (32B1, 32B2). The 2007 lettering's 30B2a, 30B2b and 30B3 are removed from
    the 2017 catalogue where no citation points at them."""

    dependencies = [("rulings", "0018_irregularity_texts_as_keys")]
    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
