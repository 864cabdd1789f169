"""A results file from the API: ``POST /api/v1/events/<id>/import/`` (multipart/form-data), the
same preview and import as the event's upload page (scoring/import_views.py), through the same
service (scoring/importers/session_import.py).

A scoring program posts the file with ``dry_run=true`` for the preview (200: what would be
imported, with every warning), shows it to the director, then posts the same file without it to
import (201). A refusal is a 409 naming each line (or element) and field: ``{"file": ["line 5:
Scoring: ..."], "warnings": [...]}``; ``session`` instead of ``file`` when the session to replace
is at fault. All or nothing, one audit entry, the recalculation scheduled once.
"""

from rest_framework import serializers, status
from rest_framework.response import Response

from core.api_contract import Conflict
from scoring.importers.session_import import ImportRefused, check_size, import_file


class ImportInputSerializer(serializers.Serializer):
    file = serializers.FileField(
        allow_empty_file=True,  # an empty file is the importer's to refuse (409), like any other bad file
        help_text="The results file: PBN 2.1, USEBIO 1.2 XML or a Bridgemate server file (.BWS), told apart by "
        "content; at most INTERCHANGE_MAX_FILE_BYTES.",
    )
    session = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=999,
        help_text="The session's number: created if missing; by default a new session after the last. With "
        "replace, the session to replace.",
    )
    dry_run = serializers.BooleanField(
        default=False, help_text="Preview: check everything and say what would be imported, writing nothing."
    )
    skip_faulty = serializers.BooleanField(
        default=False,
        help_text="Import the file without its faulty result rows, which a preview lists (otherwise refused with them).",
    )
    replace = serializers.BooleanField(
        default=False,
        help_text="Swap the boards and results of the session for the file's (refused while rulings refer to them).",
    )


class ReplacedSerializer(serializers.Serializer):
    boards = serializers.IntegerField()
    results = serializers.IntegerField()


class ImportSummarySerializer(serializers.Serializer):
    dry_run = serializers.BooleanField(help_text="True for a preview: nothing was written.")
    format = serializers.CharField(help_text="PBN, USEBIO or Bridgemate.")
    sha256 = serializers.CharField(help_text="The file's SHA-256 (the audit entry keeps it).")
    session = serializers.IntegerField(help_text="The session's number.")
    session_id = serializers.IntegerField(allow_null=True, help_text="The session's id; null for a preview.")
    boards = serializers.IntegerField()
    board_numbers = serializers.ListField(child=serializers.IntegerField())
    results = serializers.IntegerField()
    contestants_created = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Numbers of the contestants the file adds to the event (a Mitchell's N-S 1 and E-W 1 both as 1).",
    )
    contestants_created_labels = serializers.ListField(
        child=serializers.CharField(),
        help_text="The same contestants as the scoring program knows them: section, number, direction ('A1 N-S').",
    )
    artificial = serializers.ListField(
        child=serializers.CharField(), help_text="Artificial scores kept as adjusted scores."
    )
    not_played = serializers.ListField(child=serializers.CharField())
    warnings = serializers.ListField(
        child=serializers.CharField(), help_text="What was read past, each with its line (or element) and field."
    )
    replaced = ReplacedSerializer(allow_null=True, help_text="A replace: what the session held before; else null.")


def summary_data(summary):
    return {
        "dry_run": summary.dry_run,
        "format": summary.format,
        "sha256": summary.digest,
        "session": summary.session.number,
        "session_id": None if summary.dry_run else summary.session.pk,
        "boards": summary.boards,
        "board_numbers": summary.board_numbers,
        "results": summary.results,
        "left_out": summary.left_out,
        "contestants_created": sorted(i.number for i in summary.contestants_created),
        "contestants_created_labels": [
            str(i) for i in sorted(summary.contestants_created, key=lambda i: (i.section, i.number, i.direction))
        ],
        "artificial": summary.artificial,
        "not_played": summary.not_played,
        "warnings": summary.warnings,
        "replaced": summary.replaced,
    }


def import_upload(request, event):
    """The API's import of ``request``'s file into ``event`` (the caller checked the right)."""
    data = ImportInputSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    options = data.validated_data
    upload = options["file"]
    try:
        check_size(upload.size)
        summary = import_file(
            event=event,
            data=upload.read(),
            session_number=options.get("session"),
            by=request.user,
            dry_run=options["dry_run"],
            replace=options["replace"],
            skip_faulty=options["skip_faulty"],
        )
    except ImportRefused as refusal:
        body = {refusal.field: refusal.refusals}
        if refusal.warnings:
            body["warnings"] = refusal.warnings
        raise Conflict(body) from None
    answer = ImportSummarySerializer(summary_data(summary)).data
    return Response(answer, status=status.HTTP_200_OK if summary.dry_run else status.HTTP_201_CREATED)


__all__ = ["ImportInputSerializer", "ImportSummarySerializer", "import_upload"]
