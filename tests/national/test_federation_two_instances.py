"""Two instances of the project as real processes on loopback (issue #32): the organiser's (this
test's database, its web server on one port and a Celery worker) and the national body's (a
second SQLite file, its web server on another port), with a proxy between them that can cut the
connection or change what passes.

A tournament with rulings and a decided appeal is published from the organiser's page; the
connection is cut in the middle of the push, which resumes with nothing sent or stored twice; a
ruling corrected at the origin arrives as a new version; a bundle changed on the way is refused
naming the entry; the national desk's search and casebook cover the received tournament.

SQLite only (two files; the first round of CI): marked ``instances``, which the PostgreSQL round
leaves out.
"""

import csv
import hashlib
import io
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import close_old_connections, connection

from core import policy
from national.federation import bundle as bundles
from national.federation import push
from national.federation.models import Push
from rulings import services as rulings_services
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.conftest import ROOT
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.instances, pytest.mark.worker]

NATIONAL_SETUP = """
import os
from django.contrib.auth import get_user_model
from core import policy, roles
from scoring import services
from national.federation import receive
authority = services.create_authority(name="National Bridge Body", code="nbb", time_zone="Europe/London", by=policy.SYSTEM)
nora = get_user_model().objects.create_user("nora", password="nora-pw", first_name="Nora")
services.grant_role(user=nora, role=roles.NATIONAL_AUDITOR, by=policy.SYSTEM)
services.appoint_auditor(authority=authority, user=nora, by=policy.SYSTEM)
origin = receive.register_origin(
    name="Spring Congress", slug="congress", authority=authority, public_key=open(os.environ["ORIGIN_KEY"]).read(),
    by=policy.SYSTEM,
)
print("TOKEN=" + receive.issue_token(origin, by=policy.SYSTEM))
"""

NATIONAL_STATE = """
import json, os
from django.contrib.auth import get_user_model
from appeals.models import Appeal
from audit.models import AuditEntry
from national import casebooks
from national.federation.models import ReceivedRecord, ReceivedTournament, ReceivedVersion
from rulings.models import Ruling
from scoring.models import Tournament
received = ReceivedTournament.objects.select_related("tournament", "head").get()
ruling = ReceivedRecord.objects.get(model="rulings.ruling", origin_pk=int(os.environ["RULING"]))
book = casebooks.compile_casebook(
    authority=received.tournament.authority, by=get_user_model().objects.get(username="nora"), title="Received",
    filters={"tournament": received.tournament.pk},
)
print("STATE=" + json.dumps({
    "tournaments": Tournament.objects.count(),
    "tournament": received.tournament.pk,
    "rulings": Ruling.objects.count(),
    "appeals": Appeal.objects.filter(state="decided").count(),
    "versions": ReceivedVersion.objects.count(),
    "ruling": ruling.local_pk,
    "ruling_version": ruling.version,
    "facts": Ruling.objects.get(pk=ruling.local_pk).facts,
    "version_entries": AuditEntry.objects.filter(action="federation.record_version").count(),
    "refusals": list(AuditEntry.objects.filter(action="federation.refused").values_list("after", flat=True)),
    "casebook_cases": [c.appeal.ruling_id for c in book.cases.all()],
    "head": received.head.tree_size,
}))
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proxy:
    """Between the organiser and the national body: passes requests on, or cuts the connection
    at one part (once), or keeps a bundle's parts and sends it on changed (an entry's summary),
    under the digest of the changed bundle, as someone in the middle would."""

    def __init__(self, upstream):
        self.upstream, self.mode, self.cut_at, self.log, self.held = upstream, "pass", None, [], {}
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                proxy.handle(self, "GET")

            def do_PUT(self):
                proxy.handle(self, "PUT")

            def do_POST(self):
                proxy.handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def handle(self, request, method):
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        self.log.append((method, request.path.split("?")[0]))
        if self.mode == "cut" and method == "PUT" and f"/parts/{self.cut_at}/" in request.path:
            self.mode = "pass"
            request.close_connection = True  # no answer: the organiser sees the connection drop
            return
        if self.mode == "tamper" and "/uploads/" in request.path:
            return self.tamper(request, method, body)
        answer = self.forward(request, method, request.path, body)
        self.reply(request, answer.status_code, answer.content)

    def forward(self, request, method, path, body, keys=("Authorization", "Idempotency-Key")):
        headers = {k: request.headers[k] for k in keys if k in request.headers}
        headers["Content-Type"] = "application/octet-stream"
        return requests.request(method, self.upstream + path, data=body, headers=headers, timeout=60)

    def tamper(self, request, method, body):
        if method == "PUT":
            self.held[int(request.path.split("/parts/")[1].split("/")[0])] = body
            return self.reply(request, 200, json.dumps({"received": sorted(self.held)}).encode())
        if method == "GET":
            return self.reply(request, 200, json.dumps({"received": [], "stored": False}).encode())
        bundle = json.loads(b"".join(self.held[i] for i in sorted(self.held)))
        bundle["entries"][2]["summary"] += " (changed on the way)"
        self.tampered = bundle["entries"][2]
        data = bundles.canonical(bundle)
        digest = hashlib.sha256(data).hexdigest()
        # Under the changed bundle's own name, without the organiser's Idempotency-Keys (they name the other).
        self.forward(request, "PUT", f"/api/federation/uploads/{digest}/parts/0/?of=1", data, ("Authorization",))
        answer = self.forward(request, "POST", f"/api/federation/uploads/{digest}/commit/", b"", ("Authorization",))
        self.reply(request, answer.status_code, answer.content)

    def reply(self, request, status, content):
        request.send_response(status)
        request.send_header("Content-Type", "application/json")
        request.send_header("Content-Length", str(len(content)))
        request.end_headers()
        request.wfile.write(content)


class Instances:
    def __init__(self, tmp_path, settings):
        self.tmp, self.processes = tmp_path, []
        origin_db = connection.settings_dict["NAME"]
        self.national_db = tmp_path / "national.sqlite3"
        self.origin_env = self.env(origin_db, "origin")
        self.origin_env.update(
            AUDIT_SIGNING_KEY_FILE=settings.AUDIT_SIGNING_KEY_FILE,
            AUDIT_PUBLIC_KEYS_DIR=settings.AUDIT_PUBLIC_KEYS_DIR,
            AUDIT_HEADS_FILE=str(tmp_path / "origin-heads.jsonl"),
            FEDERATION_RETRY_BACKOFF="1",
            FEDERATION_PART_BYTES="8192",
        )
        self.national_env = self.env(self.national_db, "national")
        self.national_env.update(AUDIT_SIGNING_KEY_FILE=str(tmp_path / "national-key.pem"))
        # Its own key, made as an operator makes it: nothing else mints one (issue #41).
        self.manage(self.national_env, "audit_signing_key", "--generate")

    def env(self, db, name):
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{db}", BRIDGECASES_VAR_DIR=str(self.tmp / name))
        env.pop("CELERY_BROKER_URL", None)
        env.pop("PYTEST_XDIST_WORKER", None)
        env["AUDIT_PUBLIC_KEYS_DIR"] = str(self.tmp / name / "public-keys")
        env["AUDIT_HEADS_FILE"] = str(self.tmp / name / "heads.jsonl")
        return env

    def manage(self, env, *args, **extra):
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**env, **extra},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def start(self, env, *args, log):
        handle = open(self.tmp / log, "w")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT)
        self.processes.append((process, handle))
        return process

    def server(self, env, port, log):
        self.start(env, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}", log=log)
        return f"http://127.0.0.1:{port}"

    def stop(self):
        for process, handle in self.processes:
            process.terminate()
        for process, handle in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
            handle.close()

    def logs(self):
        return "\n".join(f"--- {p.args[-1]}\n" + open(h.name).read()[-3000:] for p, h in self.processes)


def wait_until(condition, what, instances, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        close_old_connections()
        found = condition()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout} s\n{instances.logs()}")


def answering(url):
    try:
        return requests.get(url, timeout=2).status_code < 500
    except requests.RequestException:
        return False


def signed_in(base, username, password):
    session = requests.Session()
    session.get(base + "/login/", timeout=30)
    answer = session.post(
        base + "/login/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": session.cookies["csrftoken"]},
        timeout=30,
    )
    assert answer.status_code == 200 and "/login/" not in answer.url, answer.url
    return session


def post(session, url):
    return session.post(url, data={"csrfmiddlewaretoken": session.cookies["csrftoken"]}, timeout=30)


@pytest.fixture
def national_copy(transactional_db, tmp_path):
    """The national body's database: the test database as migrated, copied before any record."""
    if connection.vendor != "sqlite":
        pytest.skip("two SQLite files (the first round of CI)")
    target = sqlite3.connect(tmp_path / "national.sqlite3")
    with sqlite3.connect(connection.settings_dict["NAME"]) as source:
        source.backup(target)
    target.close()
    return tmp_path


def latest_push():
    return Push.objects.order_by("-pk").first()


def finished(state=("delivered", "refused")):
    found = latest_push()
    return found if found is not None and found.state in state else None


def test_a_tournament_published_from_one_instance_to_another(national_copy, decided, settings):  # noqa: F811
    instances = Instances(national_copy, settings)
    key_file = national_copy / "origin.pub"
    key_file.write_text(bundles.public_key_pem())
    chief = decided.chief
    chief.password = PBKDF2PasswordHasher().encode("chief-pw", "federation", iterations=1000)
    chief.save(update_fields=["password"])
    try:
        national_port, origin_port = free_port(), free_port()
        national = instances.server(instances.national_env, national_port, "national.log")
        origin = instances.server(instances.origin_env, origin_port, "origin.log")
        instances.start(
            instances.origin_env,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--concurrency=1",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
            log="worker.log",
        )
        out = instances.manage(instances.national_env, "shell", "-c", NATIONAL_SETUP, ORIGIN_KEY=str(key_file))
        token = out.split("TOKEN=")[1].strip()
        proxy = Proxy(national)
        push.set_target(f"http://127.0.0.1:{proxy.port}/api/federation/", token, by=policy.SYSTEM)
        wait_until(lambda: answering(national + "/login/") and answering(origin + "/login/"), "servers up", instances)
        wait_until(lambda: "ready." in (national_copy / "worker.log").read_text(), "worker ready", instances)
        chief_session = signed_in(origin, "chris", "chief-pw")
        publish = f"{origin}/national/federation/outbox/{decided.record.tournament.pk}/publish/"

        # 1. Published, the connection cut at the third part: the worker retries and resumes.
        proxy.mode, proxy.cut_at = "cut", 2
        assert post(chief_session, publish).status_code == 200
        first = wait_until(finished, "the first push", instances)
        assert first.state == "delivered", first.last_error
        assert first.parts > 3 and first.attempts == 2
        parts = [path.rsplit("/parts/", 1)[1] for method, path in proxy.log if method == "PUT"]
        assert parts == ["0/", "1/", "2/"] + [f"{i}/" for i in range(2, first.parts)]  # part 2 cut once, resent
        outbox = chief_session.get(f"{origin}/national/federation/outbox/").text
        assert "delivered" in outbox and f"{first.parts} / {first.parts}" in outbox

        # 2. The ruling corrected at the origin arrives as a new version.
        rulings_services.change_ruling(
            ruling=decided.ruling, by=decided.director, reason="facts corrected", facts="North paused for 12 seconds."
        )
        proxy.log.clear()
        post(chief_session, publish)
        second = wait_until(lambda: finished() if latest_push().pk != first.pk else None, "the second push", instances)
        assert second.state == "delivered" and second.answer["changed"] >= 1, second.last_error

        # 3. Changed on the way: refused whole, the entry named.
        proxy.mode = "tamper"
        post(chief_session, publish)
        third = wait_until(lambda: finished() if latest_push().pk != second.pk else None, "the third push", instances)
        entry = proxy.tampered
        assert third.state == "refused"
        assert third.last_error == (
            f"Entry #{entry['sequence']} ({entry['action']}): its content does not match its hash."
        )

        # The national body: nothing doubled, the new version, nothing of the refused bundle.
        out = instances.manage(instances.national_env, "shell", "-c", NATIONAL_STATE, RULING=str(decided.ruling.pk))
        state = json.loads(out.split("STATE=")[1])
        assert state["tournaments"] == 1 and state["rulings"] == 1 and state["appeals"] == 1
        assert state["ruling_version"] == 2 and state["facts"] == "North paused for 12 seconds."
        assert state["version_entries"] >= 1
        assert [r["entry"] for r in state["refusals"]] == [entry["sequence"]]
        assert state["casebook_cases"] == [state["ruling"]]
        assert state["head"] == second.tree_size

        # The national desk: where it came from, and its search.
        nora = signed_in(national, "nora", "nora-pw")
        desk = nora.get(f"{national}/national/federation/").text
        assert "Spring Congress" in desk and f"{second.tree_size} entries" in desk
        found = nora.get(f"{national}/national/search/", params={"tournament": state["tournament"], "format": "csv"})
        rows = list(csv.DictReader(io.StringIO(found.text)))
        assert [row["ruling_url"].rstrip("/").rsplit("/", 1)[1] for row in rows] == [str(state["ruling"])]
        proofs = nora.get(f"{national}/national/federation/proof/{state['ruling']}/").json()
        assert proofs["entries"] and all(p["verified"] for p in proofs["entries"])
    finally:
        instances.stop()
