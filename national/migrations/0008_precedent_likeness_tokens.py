from django.db import migrations, models


# The tokens a director compares (national.likeness): filled when a casebook is indexed; run
# ``manage.py rebuild_precedents`` once after this migration to fill the rows indexed before it.
class Migration(migrations.Migration):
    dependencies = [("national", "0007_precedent_appeal")]

    operations = [
        migrations.AddField(
            model_name="precedentcase",
            name="likeness",
            field=models.CharField(blank=True, default=" ", max_length=500, verbose_name="likeness"),
        ),
    ]
