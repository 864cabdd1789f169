"""Celery tasks act as the background-task channel of the audit trail; the kernel's login
unlocks (core/logins.py) are recorded here."""

from celery.signals import task_postrun, task_prerun
from django.dispatch import receiver

from audit import context, services
from core import logins, texts

_tokens: dict[str, object] = {}  # task id -> the context token to reset after the task


@task_prerun.connect
def _task_started(task_id=None, task=None, **kwargs):
    _tokens[task_id] = context.enter(user=None, channel="task", path=f"task {task.name}")


@task_postrun.connect
def _task_finished(task_id=None, **kwargs):
    token = _tokens.pop(task_id, None)
    if token is not None:
        context.leave(token)


@receiver(logins.unlocked)
def _login_unlocked(sender, *, by, kind, value, failures, **kwargs):
    return services.record(
        action="login.unlocked",
        object_type="axes.accessattempt",
        object_id=f"{kind}:{value}"[:64],
        actor=by,
        before={kind: value, "failures": failures},
        after={kind: value, "failures": 0},
        summary=texts.text("scoring.login_unlocked", who=value),  # the key stored entries carry
    )
