"""`make run` and `make hall`: the processes of a Procfile together, each line of their output
prefixed with its name, until Ctrl-C (issue #42).

``python -m config.procfile Procfile.dev``. Ctrl-C (SIGINT) or SIGTERM stops them all: each is
sent SIGTERM alone (the Celery worker then stops its own pool processes, a warm shutdown with no
ERROR line; honcho, which signalled each process group, killed the pool under the worker's feet)
and given ``STOP_WAIT`` seconds before it is killed, and the runner exits 0: an interrupt is
how a developer stops it, not a failure. If a process ends by itself, the others are stopped the
same way and the runner exits with that process's code (1 if it was killed by a signal).

Each process runs in a session of its own, so the terminal's Ctrl-C reaches only this runner
(and make), which stops them in order. Commands are run by ``sh`` with ``exec``, so the Procfile's
``$HOST`` and ``$PORT`` come from the environment and the signal reaches the program itself.
"""

import os
import signal
import subprocess
import sys
import threading
import time

STOP_WAIT = 20  # seconds a process has to stop (a worker finishes the task in hand) before it is killed


def read_procfile(path):
    """[(name, command)] of the Procfile's ``name: command`` lines."""
    entries = []
    with open(path, encoding="utf-8") as procfile:
        for line in procfile:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _colon, command = line.partition(":")
                entries.append((name.strip(), command.strip()))
    return entries


class Runner:
    def __init__(self, entries, out=None, stop_wait=STOP_WAIT):
        self.entries = entries
        self.out = out or sys.stdout
        self.stop_wait = stop_wait
        self.width = max(len(name) for name, _command in entries + [("system", "")])
        self.processes = {}
        self.copiers = []
        self.signalled = None
        self.lock = threading.Lock()

    def say(self, name, text):
        with self.lock:
            self.out.write(f"{name:<{self.width}} | {text}\n")
            self.out.flush()

    def _copy(self, name, stream):
        for line in stream:
            self.say(name, line.rstrip("\n"))

    def start(self):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        for name, command in self.entries:
            process = subprocess.Popen(
                ["sh", "-c", f"exec {command}"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                text=True,
                errors="replace",
            )
            self.processes[name] = process
            self.say("system", f"{name} started (pid {process.pid})")
            copier = threading.Thread(target=self._copy, args=(name, process.stdout), daemon=True)
            copier.start()
            self.copiers.append(copier)

    def _on_signal(self, signum, _frame):
        if self.signalled is not None:  # a second Ctrl-C: no more waiting
            self._kill_all()
        self.signalled = signum

    def _kill_all(self):
        for process in self.processes.values():
            self._kill_group(process)

    @staticmethod
    def _kill_group(process):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def stop(self):
        for name, process in self.processes.items():
            if process.poll() is None:
                self.say("system", f"stopping {name}")
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.stop_wait
        for name, process in self.processes.items():
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say("system", f"{name} did not stop within {self.stop_wait} s: killed")
            self._kill_group(process)  # anything it left behind in its session
            process.wait()
        for copier in self.copiers:
            copier.join(timeout=5)

    def run(self):
        """Start every process, wait for a signal or for one to end, stop them all; the exit code."""
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._on_signal)
        self.start()
        ended = None
        while self.signalled is None and ended is None:
            ended = next((name for name, p in self.processes.items() if p.poll() is not None), None)
            time.sleep(0.1)
        if ended is not None and self.signalled is None:
            code = self.processes[ended].returncode
            self.say("system", f"{ended} ended (exit code {code}): stopping the others")
        self.stop()
        if self.signalled is not None:
            self.say("system", "stopped")
            return 0
        code = self.processes[ended].returncode
        return code if code and code > 0 else 1


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.exit("usage: python -m config.procfile PROCFILE")
    sys.exit(Runner(read_procfile(argv[0])).run())


if __name__ == "__main__":
    main()
