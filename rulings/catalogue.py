"""Loading the law catalogue (rulings/laws/data) into the database, where the admin can read it
and citations can point at it."""

from django.db import transaction


def sync_law_catalogue(LawEntry=None):
    """Create or update every catalogue entry from the package data; return (created, updated).
    Takes the model as an argument so that a migration can pass its historical model."""
    from rulings.laws import EDITIONS, load

    audited = LawEntry is None  # a migration passes its historical model, and writes no entry
    if LawEntry is None:
        from rulings.models import LawEntry
    created = updated = 0
    with transaction.atomic():
        existing = {(e.edition, e.number): e for e in LawEntry.objects.all()}
        new, changed = [], []
        for edition in EDITIONS:
            for entry in load(edition):
                values = {
                    "law": entry.law,
                    "parent": entry.parent or "",
                    "title": entry.titles["en"],
                    "titles": entry.titles,
                    "verified": entry.verified,
                }
                row = existing.get((edition, entry.number))
                if row is None:
                    new.append(LawEntry(edition=edition, number=entry.number, **values))
                elif any(getattr(row, k) != v for k, v in values.items()):
                    for k, v in values.items():
                        setattr(row, k, v)
                    changed.append(row)
        LawEntry.objects.bulk_create(new, batch_size=500)
        LawEntry.objects.bulk_update(changed, ["law", "parent", "title", "titles", "verified"], batch_size=500)
        created, updated = len(new), len(changed)
        if audited and (created or updated):
            from audit import services as audit

            # Written in bulk (no save signal per law): one entry for the whole load.
            audit.record(
                action="law_catalogue.loaded",
                object_type="rulings.lawentry",
                object_id="catalogue",
                after={
                    "created": sorted(f"{e.edition} {e.number}" for e in new),
                    "updated": sorted(f"{e.edition} {e.number}" for e in changed),
                },
                summary=f"Law catalogue loaded: {created} laws added, {updated} changed",
            )
    return created, updated


def remove_stale_entries(LawEntry=None):
    """Remove the catalogue entries the package data no longer has (a sub-section an edition's
    Laws do not number so, issue #39: the 2017 30B2a, 30B2b and 30B3, lettered as in 2007), where
    no citation points at one; return the numbers removed and those kept because they are cited.
    Takes the model as an argument, as ``sync_law_catalogue`` does."""
    from rulings.laws import EDITIONS, load

    if LawEntry is None:
        from rulings.models import LawEntry
    removed, kept = [], []
    with transaction.atomic():
        for edition in EDITIONS:
            numbers = {entry.number for entry in load(edition)}
            for row in LawEntry.objects.filter(edition=edition).exclude(number__in=numbers).order_by("number"):
                if row.citations.exists():
                    kept.append(f"{edition} {row.number}")
                else:
                    removed.append(f"{edition} {row.number}")
                    row.delete()
    return removed, kept
