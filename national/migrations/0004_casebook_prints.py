"""Casebook PDFs move out of the casebook's row: each print is a request a worker carries out,
its file kept through Django's storage API. A final casebook's PDF already kept in the row
becomes a ready print with that same file."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_pdfs(apps, schema_editor):
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    Casebook = apps.get_model("national", "Casebook")
    CasebookPrint = apps.get_model("national", "CasebookPrint")
    for casebook in Casebook.objects.filter(pdf__isnull=False).iterator():
        body = bytes(casebook.pdf)
        name = default_storage.save(f"casebooks/casebook-{casebook.pk}-final.pdf", ContentFile(body))
        at = casebook.finalised_at or casebook.published_at or casebook.created_at
        CasebookPrint.objects.create(
            casebook=casebook,
            casebook_state=casebook.state,
            state="ready",
            requested_by_id=casebook.finalised_by_id or casebook.created_by_id,
            requested_at=at,
            started_at=at,
            finished_at=at,
            file=name,
            size=len(body),
        )


class Migration(migrations.Migration):
    dependencies = [
        ("national", "0003_precedents"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CasebookPrint",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "casebook_state",
                    models.CharField(
                        choices=[("draft", "Draft"), ("published", "Published without commentary"), ("final", "Final")],
                        max_length=10,
                        verbose_name="casebook printed as",
                    ),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for a worker"),
                            ("printing", "Printing"),
                            ("ready", "Ready"),
                            ("failed", "Failed"),
                        ],
                        default="pending",
                        max_length=10,
                        verbose_name="state",
                    ),
                ),
                ("requested_at", models.DateTimeField(verbose_name="asked for at")),
                ("started_at", models.DateTimeField(blank=True, null=True, verbose_name="printing since")),
                ("finished_at", models.DateTimeField(blank=True, null=True, verbose_name="finished at")),
                ("file", models.FileField(blank=True, upload_to="casebooks/", verbose_name="PDF")),
                ("size", models.PositiveIntegerField(blank=True, null=True, verbose_name="size in bytes")),
                ("error", models.TextField(blank=True, verbose_name="why it failed")),
                (
                    "casebook",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="prints", to="national.casebook"
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "verbose_name": "casebook PDF",
                "verbose_name_plural": "casebook PDFs",
                "ordering": ["-requested_at", "-pk"],
            },
        ),
        migrations.RunPython(move_pdfs, migrations.RunPython.noop),
        migrations.RemoveField(model_name="casebook", name="pdf"),
    ]
