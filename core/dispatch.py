"""Send a Celery task by its name.

Services decide when work goes to a worker; tasks are thin wrappers that call services. So a
service must not import its app's ``tasks`` module (that would be an import circle): it names
the task instead, and Celery looks it up in its registry (filled by autodiscovery), with the
task's own options and ``CELERY_TASK_ALWAYS_EAGER`` honoured as with a direct call.
"""

from celery import current_app


def send(task_name, *args, **options):
    """``apply_async`` of the registered task ``task_name`` with ``args``; raises what the
    broker raises (callers decide whether a failed send is fatal)."""
    return current_app.tasks[task_name].apply_async(args=list(args), **options)
