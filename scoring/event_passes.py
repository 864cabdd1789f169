"""An event's place in the recalculation queue (issue #33): whether a task for its next pass is
already waiting, so that however many changes arrive while one waits or runs, the event has
at most one task waiting and each pass takes every change made before it began
(``scoring.recalculation.queue``). Its own module, as models.py imports it (its model), and the
recalculation package imports the models."""

from django.db import models
from django.utils import timezone


class EventPass(models.Model):
    """One row an event, made by its first change. ``queued`` is set by the change that sends the
    event's task and cleared by that task as it starts, before it reads what is pending; a change
    that finds it set sends nothing (the waiting task will take it)."""

    event = models.OneToOneField("scoring.Event", on_delete=models.CASCADE, primary_key=True, related_name="+")
    queued = models.BooleanField(default=False)
    queued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "scoring"

    def __str__(self):
        return f"event {self.event_id}: {'queued' if self.queued else 'idle'}"
