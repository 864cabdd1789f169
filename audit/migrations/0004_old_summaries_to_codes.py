"""The audit trail's summaries written in English before they were kept as codes (rulings,
results, sessions, presets, casebooks) read back into a code and its values, so they are shown
in the reader's language too. What is hashed does not change: the code goes beside it, and a
summary is converted only when its code says exactly the hashed text in English
(core.texts.read_back); anything else stays as written."""

from django.db import migrations

# The app whose registry (core/texts.py) holds the codes of an action, by the action's first word.
APPS = {
    "appeal": "appeals",
    "appeal_request": "appeals",
    "ruling": "rulings",
    "result": "scoring",
    "session": "scoring",
    "score": "scoring",
    "authority": "scoring",
    "casebook": "national",
}


def forwards(apps, schema_editor):
    from core.texts import REGISTRY, read_back

    AuditEntry = apps.get_model("audit", "AuditEntry")
    codes: dict = {}
    for code, template in REGISTRY.items():
        if template.name:
            continue
        codes.setdefault(code.split(".")[0], []).append(code)
    for entry in AuditEntry.objects.filter(summary_code="").exclude(summary="").iterator():
        app = APPS.get(entry.action.split(".")[0])
        for code in codes.get(app, []):
            params = read_back(entry.summary, code)
            if params is not None:
                entry.summary_code, entry.summary_params = code, params
                entry.save(update_fields=["summary_code", "summary_params"])
                break


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_checkpoint")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
