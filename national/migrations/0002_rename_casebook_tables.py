"""The casebook tables take the national app's names, and their content types and permissions
follow, so the admin's log and any permission granted on a casebook keep pointing at it."""

from django.db import migrations


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in ("casebook", "casebookcase"):
        if not ContentType.objects.filter(app_label="national", model=model).exists():
            ContentType.objects.filter(app_label="appeals", model=model).update(app_label="national")


def restore_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in ("casebook", "casebookcase"):
        if not ContentType.objects.filter(app_label="appeals", model=model).exists():
            ContentType.objects.filter(app_label="national", model=model).update(app_label="appeals")


class Migration(migrations.Migration):

    dependencies = [
        ("national", "0001_initial"),
        ("appeals", "0004_casebooks_to_national"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelTable(name="casebook", table=None),
        migrations.AlterModelTable(name="casebookcase", table=None),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
