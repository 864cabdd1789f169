"""A ruling's irregularities keep their texts as keys (issue #39): each rectification's English
template with its values, shown in the reader's language (rulings/irregularity_words.py). The
texts stored before, in the language of the director who recorded them, are read back to their
English msgid; a draft ruling cites the laws its irregularities' rectifications use."""

from django.db import migrations


def _cite(ruling, RulingCitation, LawEntry, items):
    from rulings.irregularity_words import irregularity_laws, law_paragraphs

    cited = set(RulingCitation.objects.filter(ruling=ruling, law__isnull=False).values_list("law__number", flat=True))
    for item in items:
        edition = item.get("edition") or ""
        for law in irregularity_laws([item]):
            entry = next(
                (e for n in law_paragraphs(law) for e in LawEntry.objects.filter(edition=edition, number=n)[:1]),
                None,
            )
            if entry is not None and entry.number not in cited:
                RulingCitation.objects.create(ruling=ruling, law=entry)
                cited.add(entry.number)


def forwards(apps, schema_editor):
    from rulings.irregularity_words import as_keys, english_translations

    Ruling = apps.get_model("rulings", "Ruling")
    RulingCitation = apps.get_model("rulings", "RulingCitation")
    LawEntry = apps.get_model("rulings", "LawEntry")
    rulings = Ruling.objects.exclude(irregularity__isnull=True)
    if not rulings.exists():
        return
    back = english_translations()
    for ruling in rulings.iterator():
        ruling.irregularity = as_keys(ruling.irregularity, back)
        ruling.irregularities = [as_keys(item, back) for item in ruling.irregularities or []]
        ruling.save(update_fields=["irregularity", "irregularities"])
        if ruling.state == "draft":
            _cite(ruling, RulingCitation, LawEntry, ruling.irregularities or [ruling.irregularity])


class Migration(migrations.Migration):
    dependencies = [("rulings", "0017_ruling_irregularities")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
