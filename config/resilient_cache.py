"""The shared cache (Redis), with a local fallback while Redis cannot be reached (issue #30).

What the project keeps in the cache is the API throttles' request history (sessions are in the
database, ``SESSION_ENGINE`` is Django's default). Losing it for a while is safe: each web
process counts in its own memory meanwhile, so the rates still hold per process. A request
never answers 500 because Redis is down, and it never waits long for it either: one failed
call sends every call of the next ``RETRY_SECONDS`` to the fallback, and the socket timeouts
are short (settings ``CACHES``).

The outage is logged once when it begins (WARNING, with the error) and once when Redis answers
again (INFO), not on every request.
"""

import logging
import threading
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

# What "Redis cannot be reached" looks like: refused, reset, timed out, name not resolved.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
RETRY_SECONDS = 5.0


class ResilientRedisCache(RedisCache):
    """Django's RedisCache; every call that finds Redis unreachable is answered by a local
    in-memory cache instead (and logged), and Redis is tried again after ``RETRY_SECONDS``."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self.fallback = LocMemCache(f"resilient-fallback-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self.down_since = None
        self.retry_at = 0.0
        self._lock = threading.Lock()

    def _redis_down(self, error):
        with self._lock:
            self.retry_at = time.monotonic() + RETRY_SECONDS
            if self.down_since is None:
                self.down_since = time.monotonic()
                log.warning(
                    "The cache's Redis cannot be reached (%s); each process counts in its own memory until it answers.",
                    error,
                )

    def _redis_up(self):
        if self.down_since is None:
            return
        with self._lock:
            if self.down_since is not None:
                log.info("The cache's Redis answers again after %.1f s.", time.monotonic() - self.down_since)
                self.down_since = None


def _guarded(name):
    primary = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        if self.down_since is not None and time.monotonic() < self.retry_at:
            return getattr(self.fallback, name)(*args, **kwargs)
        try:
            result = primary(self, *args, **kwargs)
        except UNREACHABLE as error:
            self._redis_down(error)
            return getattr(self.fallback, name)(*args, **kwargs)
        self._redis_up()
        return result

    method.__name__ = name
    method.__doc__ = primary.__doc__
    return method


for _name in (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
):
    setattr(ResilientRedisCache, _name, _guarded(_name))
