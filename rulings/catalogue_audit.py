"""The law catalogue and the authorities' regulation clauses have no service of their own: they
are edited in the admin (reference data). Every change to them is audited all the same (issue
#30), whatever the door: an entry with the record before and after, in the change's transaction
(the admin's views are atomic). Connected in ``RulingsConfig.ready()``."""

from django.db.models.signals import post_delete, post_save, pre_save

from audit import services as audit
from rulings.models import LawEntry, RegulationClause

FIELDS = {
    LawEntry: ("edition", "number", "law", "parent", "title", "titles", "verified"),
    RegulationClause: ("authority", "document", "clause", "text"),
}
NAMES = {LawEntry: "law", RegulationClause: "regulation_clause"}


def _name(instance):
    if isinstance(instance, LawEntry):
        return f"Law {instance.number} ({instance.edition})"
    return f"{instance.document} {instance.clause}"


def _saving(sender, instance, raw=False, **kwargs):
    if raw:
        return
    old = sender.objects.filter(pk=instance.pk).first() if instance.pk else None
    instance._audit_before = audit.snapshot(old, FIELDS[sender]) if old is not None else None


def _saved(sender, instance, created, raw=False, **kwargs):
    if raw:
        return
    before = getattr(instance, "_audit_before", None)
    after = audit.snapshot(instance, FIELDS[sender])
    if not created and before == after:
        return
    changed = [field for field in FIELDS[sender] if (before or {}).get(field) != after[field]]
    audit.record(
        action=f"{NAMES[sender]}.{'created' if created else 'changed'}",
        obj=instance,
        before=before,
        after=after,
        summary=f"{_name(instance)} {'added' if created else 'changed: ' + ', '.join(changed)}",
    )


def _deleted(sender, instance, **kwargs):
    audit.record(
        action=f"{NAMES[sender]}.deleted",
        object_type=sender._meta.label_lower,
        object_id=instance.pk,
        before=audit.snapshot(instance, FIELDS[sender]),
        summary=f"{_name(instance)} deleted",
    )


def connect():
    for model in FIELDS:
        uid = model._meta.label_lower
        pre_save.connect(_saving, sender=model, dispatch_uid=f"audit.saving.{uid}")
        post_save.connect(_saved, sender=model, dispatch_uid=f"audit.saved.{uid}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"audit.deleted.{uid}")
