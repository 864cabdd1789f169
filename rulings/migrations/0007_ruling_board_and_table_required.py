import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Every ruling now has its board and table (0006 filled them from the results); the poll's
    Law 16B form."""

    dependencies = [("rulings", "0006_ruling_on_a_board_and_table_corrections_attachments")]

    operations = [
        migrations.AlterField(
            model_name="ruling", name="board",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="rulings",
                                    to="scoring.board", verbose_name="board")),
        migrations.AlterField(
            model_name="ruling", name="table",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="rulings",
                                    to="scoring.table", verbose_name="table")),
        migrations.AlterField(
            model_name="ruling", name="poll",
            field=models.JSONField(blank=True, null=True, verbose_name="poll of players", help_text=(
                "Law 16B1a: the question, the players polled and the action each chose; the count is worked "
                "out from them."))),
        migrations.AddField(
            model_name="ruling", name="deal_override",
            field=models.TextField(blank=True, verbose_name="why an imported deal that differs from the board was "
                                                            "accepted")),
    ]
