from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_appeals(apps, schema_editor):
    """Each indexed case takes the appeal of the casebook case it indexes."""
    PrecedentCase = apps.get_model("national", "PrecedentCase")
    CasebookCase = apps.get_model("national", "CasebookCase")
    PrecedentCase.objects.update(
        appeal_id=Subquery(CasebookCase.objects.filter(pk=OuterRef("case_id")).values("appeal_id")[:1])
    )


# The appeal a case reports, so that one appeal printed in casebooks of several languages is
# listed once; the scoring index carries it (and the language) so SQLite still reads the index alone.
class Migration(migrations.Migration):
    dependencies = [
        ("appeals", "0001_initial"),
        ("national", "0006_precedent_likeness_with_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="precedentcase",
            name="appeal",
            field=models.ForeignKey(
                null=True, on_delete=models.deletion.CASCADE, related_name="+", to="appeals.appeal"
            ),
        ),
        migrations.RunPython(fill_appeals, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="precedentcase",
            name="appeal",
            field=models.ForeignKey(on_delete=models.deletion.CASCADE, related_name="+", to="appeals.appeal"),
        ),
        migrations.RemoveIndex(model_name="precedentcase", name="precedent_likeness_order"),
        migrations.AddIndex(
            model_name="precedentcase",
            index=models.Index(
                fields=[
                    "authority",
                    "kind",
                    "ruling",
                    "contract",
                    "laws",
                    "auction",
                    "year",
                    "casebook",
                    "position",
                    "appeal",
                    "language",
                ],
                name="precedent_likeness_appeal",
            ),
        ),
    ]
