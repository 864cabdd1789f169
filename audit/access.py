"""Who may do what is part of the record (issue #30): a user added to or removed from a group
(a role: the chief director's, the national auditor's...), given or refused a permission, made
staff or superuser, or deactivated, and a group's permissions changed, each leave an audit entry,
whatever the door (the admin, a service, a command). Connected in ``AuditConfig.ready()``."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete, pre_save

FLAGS = ("is_superuser", "is_staff", "is_active")


def _names(model, pks):
    """Groups by name, permissions as ``app.codename``, users by username."""
    rows = model.objects.filter(pk__in=pks)
    if model is Group:
        return sorted(rows.values_list("name", flat=True))
    if model._meta.model_name == "permission":
        return sorted(f"{app}.{code}" for app, code in rows.values_list("content_type__app_label", "codename"))
    return sorted(rows.values_list(model.USERNAME_FIELD, flat=True))


def _record(**kwargs):
    from audit import services

    services.record(**kwargs)


def _user_relation_changed(sender, instance, action, reverse, model, pk_set, relation, **kwargs):
    """``user.groups`` or ``user.user_permissions`` changed, from either side."""
    if action == "pre_clear":
        # What a clear() removes, read before it does.
        if reverse:  # a group's (or a permission's) users
            instance._audit_cleared = set(instance.user_set.values_list("pk", flat=True))
        else:
            instance._audit_cleared = set(getattr(instance, relation).values_list("pk", flat=True))
        return
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if action == "post_clear":
        pk_set = getattr(instance, "_audit_cleared", set())
    if not pk_set:
        return
    User = get_user_model()
    users = User.objects.filter(pk__in=pk_set) if reverse else [instance]
    names = _names(type(instance), [instance.pk]) if reverse else _names(model, pk_set)
    kind = "group" if relation == "groups" else "permission"
    verb = "added" if action == "post_add" else "removed"
    for user in users:
        current = (
            _names(Group, user.groups.values_list("pk", flat=True))
            if relation == "groups"
            else _names(user.user_permissions.model, user.user_permissions.values_list("pk", flat=True))
        )
        before = sorted(set(current) - set(names)) if verb == "added" else sorted(set(current) | set(names))
        listed = ", ".join(names)
        _record(
            action=f"user.{relation}_{verb}",
            obj=user,
            object_type="auth.user",
            before={relation: before},
            after={relation: current},
            summary=(
                f"{user.get_username()} added to the {kind}{'s' if len(names) > 1 else ''} {listed}"
                if verb == "added"
                else f"{user.get_username()} removed from the {kind}{'s' if len(names) > 1 else ''} {listed}"
            ),
        )


def _groups_changed(sender, instance, action, reverse, model, pk_set, **kwargs):
    _user_relation_changed(sender, instance, action, reverse, model, pk_set, "groups", **kwargs)


def _permissions_changed(sender, instance, action, reverse, model, pk_set, **kwargs):
    _user_relation_changed(sender, instance, action, reverse, model, pk_set, "user_permissions", **kwargs)


def _group_permissions_changed(sender, instance, action, reverse, model, pk_set, **kwargs):
    """A group's permissions (what everyone in it may do) changed."""
    if reverse or action not in ("pre_clear", "post_add", "post_remove", "post_clear"):
        return  # a permission's groups, changed from the permission's side, is never done by the app
    if action == "pre_clear":
        instance._audit_cleared = set(instance.permissions.values_list("pk", flat=True))
        return
    if action == "post_clear":
        pk_set = getattr(instance, "_audit_cleared", set())
    if not pk_set:
        return
    names = _names(model, pk_set)
    current = _names(model, instance.permissions.values_list("pk", flat=True))
    verb = "added" if action == "post_add" else "removed"
    _record(
        action=f"group.permissions_{verb}",
        obj=instance,
        object_type="auth.group",
        before={
            "permissions": sorted(set(current) - set(names)) if verb == "added" else sorted(set(current) | set(names))
        },
        after={"permissions": current},
        summary=f"group {instance.name}: permissions {verb}: {', '.join(names)}",
    )


def _user_saving(sender, instance, update_fields=None, raw=False, **kwargs):
    if raw or (update_fields is not None and not set(update_fields) & set(FLAGS)):
        instance._audit_flags = None
        return
    old = sender.objects.filter(pk=instance.pk).values(*FLAGS).first() if instance.pk else None
    instance._audit_flags = old


def _user_saved(sender, instance, created, raw=False, update_fields=None, **kwargs):
    if raw:
        return
    old = getattr(instance, "_audit_flags", None)
    new = {flag: getattr(instance, flag) for flag in FLAGS}
    if created:
        if not (instance.is_superuser or instance.is_staff):
            return  # a plain account may do nothing until given a role (audited then)
        before = None
    elif old is None or old == new:
        return
    else:
        before = old
    changed = [flag for flag in FLAGS if (before or {}).get(flag, False) != new[flag]]
    _record(
        action="user.created" if created else "user.access_changed",
        obj=instance,
        object_type="auth.user",
        before=before,
        after=new,
        summary=f"{instance.get_username()}: "
        + ", ".join(f"{flag} {'on' if new[flag] else 'off'}" for flag in changed),
    )


def _user_deleted(sender, instance, **kwargs):
    _record(
        action="user.deleted",
        object_type="auth.user",
        object_id=instance.pk,
        before={"username": instance.get_username(), **{flag: getattr(instance, flag) for flag in FLAGS}},
        summary=f"{instance.get_username()} deleted",
    )


def _group_deleting(sender, instance, **kwargs):
    """Read before the delete: its members lose the group without a signal of their own."""
    members = sorted(instance.user_set.values_list(get_user_model().USERNAME_FIELD, flat=True))
    _record(
        action="group.deleted",
        object_type="auth.group",
        object_id=instance.pk,
        before={"name": instance.name, "members": members},
        summary=f"group {instance.name} deleted" + (f" (its members: {', '.join(members)})" if members else ""),
    )


def connect():
    User = get_user_model()
    m2m_changed.connect(_groups_changed, sender=User.groups.through, dispatch_uid="audit.user_groups")
    m2m_changed.connect(
        _permissions_changed, sender=User.user_permissions.through, dispatch_uid="audit.user_permissions"
    )
    m2m_changed.connect(
        _group_permissions_changed, sender=Group.permissions.through, dispatch_uid="audit.group_permissions"
    )
    pre_save.connect(_user_saving, sender=User, dispatch_uid="audit.user_saving")
    post_save.connect(_user_saved, sender=User, dispatch_uid="audit.user_saved")
    post_delete.connect(_user_deleted, sender=User, dispatch_uid="audit.user_deleted")
    pre_delete.connect(_group_deleting, sender=Group, dispatch_uid="audit.group_deleted")
