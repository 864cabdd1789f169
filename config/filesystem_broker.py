"""The embedded broker (kombu's filesystem transport), with each message written whole.

kombu writes a message file in place: a worker listing the folder can open it between its
creation and its first byte, read nothing and stop on a JSON error. With several threads
sending at once (runserver, the test client in threads) that happens. Here a message is written
under a name the worker does not read (``.part``) and renamed into place, which is atomic.
"""

import os
import uuid
from time import monotonic

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):  # type: ignore[override]  # kombu's own filesystem channel takes **kwargs too
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        try:
            with open(path + ".part", "wb") as part:
                part.write(str_to_bytes(dumps(payload)))
            os.replace(path + ".part", path)
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add file {path!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
