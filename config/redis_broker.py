"""kombu's Redis transport, with a channel that survives its connection being collected.

When Redis goes away, Celery's consumer collects the broken connection (kombu forgets the
transport's client) and then closes it. A channel whose first close failed (it was waiting in
BRPOP), or a task finished during the outage acknowledging its message, then asks the channel
for a new connection pool; kombu 5.7.0 reads the host from the forgotten client and raises
AttributeError ('NoneType' object has no attribute 'hostname'). That is no connection error,
so the worker stopped with "Unrecoverable error" instead of reconnecting (issue #19).

Here the channel raises the connection error it is: Celery ignores it on close and logs it on
the acknowledgement ("Couldn't ack"), and the worker reconnects. The unacknowledged message
stays in Redis's unacknowledged set and comes back after the visibility timeout; the
recalculation sweep resends its work sooner. config/celery.py registers this transport for
the redis:// and rediss:// URLs. Test: tests/reliability/test_redis_transport.py.
"""

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(redis.Channel):
    def _connparams(self, asynchronous=False):
        if getattr(self.connection, "client", None) is None:
            raise RedisConnectionError("the connection to the broker is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel
