"""A web process knows the appeals' Celery tasks by name (found by the two-instance test of issue
#32): a step that notifies sends ``appeals.tasks.send_notification_mail`` once it commits, and a
process that had never imported the tasks module answered NotRegistered."""

import subprocess
import sys

from tests.conftest import ROOT


def test_a_fresh_process_knows_the_appeals_tasks():
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup(); "
        "from celery import current_app; print('appeals.tasks.send_notification_mail' in current_app.tasks)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "True", done.stderr
