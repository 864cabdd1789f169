"""Celery tasks act as the background-task channel of the audit trail."""

from celery.signals import task_postrun, task_prerun

from audit import context

_tokens: dict[str, object] = {}  # task id -> the context token to reset after the task


@task_prerun.connect
def _task_started(task_id=None, task=None, **kwargs):
    _tokens[task_id] = context.enter(user=None, channel="task", path=f"task {task.name}")


@task_postrun.connect
def _task_finished(task_id=None, **kwargs):
    token = _tokens.pop(task_id, None)
    if token is not None:
        context.leave(token)
