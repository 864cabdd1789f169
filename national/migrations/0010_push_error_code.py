"""A push's last error as a code and its parameters, shown in the reader's language (issue #32).
An error kept as text before is kept as the parameter of the code "text" (shown as it was)."""

from django.db import migrations, models


def to_codes(apps, schema_editor):
    Push = apps.get_model("national", "Push")
    for push in Push.objects.exclude(last_error=""):
        push.error_code, push.error_params = "text", {"text": push.last_error}
        push.save(update_fields=["error_code", "error_params"])


def to_text(apps, schema_editor):
    Push = apps.get_model("national", "Push")
    for push in Push.objects.exclude(error_code=""):
        push.last_error = str(push.error_params.get("text", push.error_code))
        push.save(update_fields=["last_error"])


class Migration(migrations.Migration):
    dependencies = [("national", "0009_federation")]

    operations = [
        migrations.AddField(model_name="push", name="error_code", field=models.CharField(blank=True, max_length=40)),
        migrations.AddField(model_name="push", name="error_params", field=models.JSONField(blank=True, default=dict)),
        migrations.RunPython(to_codes, to_text),
        migrations.RemoveField(model_name="push", name="last_error"),
    ]
