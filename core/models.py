"""The kernel's one model: the Idempotency-Key of an API write (core/idempotency.py)."""

from core.idempotency import IdempotencyKey  # noqa: F401  (its model, registered with the app)
