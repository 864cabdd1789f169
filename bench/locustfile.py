"""``make loadtest``'s simulated users (Locust), against the demo tournament: directors giving
rulings (the ruling form from a board's traveller, the desk), appeals committee members reading
their cases, national auditors searching, and players following the standings and the boards.

Like a browser, a user who opens a page again sends the ETag it was given (``If-None-Match``):
the standings and a traveller answer 304 while nothing on them changed (core/live.py).

Started by bench/loadtest.py, which runs gunicorn, a worker, PostgreSQL and Redis on this
machine. The requests say they came through the TLS proxy of a deployment
(``X-Forwarded-Proto: https``), so the production settings (secure cookies, HTTPS redirect) stay on.
"""

import datetime
import json
import os
import random
import uuid
from pathlib import Path

from locust import HttpUser, between, task

PROXY = {"X-Forwarded-Proto": "https"}
LAWS = ["16B1a", "73C", "21B1a", "75A", "12C1e"]


class Member(HttpUser):
    """Signed in from the start: bench/loadtest.py made one session per demo account (fifty
    password checks at once would measure only the password hasher), in LOADTEST_SESSIONS."""

    abstract = True
    wait_time = between(1, 3)
    username = ""

    def on_start(self):
        self.etags = {}  # the browser's cache: the ETag of each page opened, by URL
        host = self.host.split("://", 1)[1]
        self.client.headers.update({**PROXY, "Referer": f"https://{host}/"})
        sessions = json.loads(Path(os.environ["LOADTEST_SESSIONS"]).read_text())
        self.client.cookies.set("sessionid", sessions[self.username], domain=host.split(":")[0])
        self.get("/rulings/", "setup: first page")  # sets the CSRF cookie
        self.client.headers["X-CSRFToken"] = self.client.cookies["csrftoken"]

    def _plain_cookies(self):
        # Cookies come back Secure (the server thinks it is behind HTTPS); the client talks plain
        # HTTP on loopback, so it sends them back only once they are marked otherwise.
        for cookie in self.client.cookies:
            cookie.secure = False

    def _check(self, response):
        self._plain_cookies()
        if response.status_code >= 400:
            response.failure(f"{response.status_code}: {response.text[:300]}")

    def get(self, path, name, cached=True):
        """GET ``path``; a page opened before is asked for with its ETag, as a browser does
        (``cached``: False for an API read whose body the user needs)."""
        headers = {"If-None-Match": self.etags[path]} if cached and path in self.etags else {}
        with self.client.get(path, name=name, headers=headers, catch_response=True) as response:
            self._check(response)
            if cached and response.headers.get("ETag"):
                self.etags[path] = response.headers["ETag"]
            return response

    def post(self, path, name, body):
        # Every write with its own Idempotency-Key, as docs/api.md says a client sends it.
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        with self.client.post(path, json=body, name=name, headers=headers, catch_response=True) as response:
            self._check(response)
            return response

    def ids(self, path, name):
        response = self.get(path, name, cached=False)
        if not response.ok:
            return []  # counted as the failure it is
        body = response.json()
        rows = body["results"] if isinstance(body, dict) else body
        return [row["id"] for row in rows]


class Director(Member):
    """Opens the rulings, looks at a board's results and gives a ruling on one of them."""

    weight = 20
    username = "director"

    def on_start(self):
        super().on_start()
        self.boards = []
        self.results = self._open_results()

    def _open_results(self):
        """The results of the boards of sessions still open to rulings (the demo's earlier
        sessions are past their periods, Laws 92B and 79C: a director is not offered them)."""
        now = datetime.datetime.now(datetime.UTC)
        sessions = self.get("/api/v1/sessions/?limit=100", "api: sessions", cached=False)
        boards = self.get("/api/v1/boards/?limit=100", "api: boards", cached=False)
        if not (sessions.ok and boards.ok):
            return []  # counted as the failure it is
        open_sessions = {
            row["id"]
            for row in sessions.json()["results"]
            if all(
                not row[key] or datetime.datetime.fromisoformat(row[key]) > now
                for key in ("appeal_deadline", "correction_deadline")
            )
        }
        self.boards = [row["id"] for row in boards.json()["results"]]
        open_boards = [row["id"] for row in boards.json()["results"] if row["session"] in open_sessions]
        results = []
        for board in open_boards[:3]:
            results += self.ids(f"/api/v1/results/?board={board}", "api: results")
        return results

    @task(2)
    def desk(self):
        self.get("/appeals/", "page: director's desk")

    @task(2)
    def traveller_and_ruling_form(self):
        """A board's traveller, then the ruling form on one of its results (not sent)."""
        if self.boards:
            self.get(f"/boards/{random.choice(self.boards)}/", "page: traveller")
        if self.results:
            self.get(f"/rulings/new/{random.choice(self.results)}/", "page: ruling form")

    @task(3)
    def rulings_page(self):
        self.get("/rulings/", "page: rulings")

    @task(2)
    def ruling_page(self):
        rulings = self.ids("/api/v1/rulings/?limit=20", "api: rulings")
        if rulings:
            self.get(f"/rulings/{random.choice(rulings)}/", "page: ruling")

    @task(2)
    def give_ruling(self):
        self.post(
            "/api/v1/rulings/",
            "api: give a ruling",
            {
                "result": random.choice(self.results),
                "kind": "ui",
                "laws": [random.choice(LAWS)],
                "facts": "North hesitated before passing; South bid on.",
                "ruling_text": "Result stands",
                "reasoning": "Pass was not a logical alternative.",
                "outcome": "result_stands",
                "give": True,
            },
        )


class Committee(Member):
    """An appeals committee member reading the cases and the rulings appealed."""

    weight = 15
    username = "appeals"

    @task(2)
    def appeals_page(self):
        self.get("/appeals/", "page: appeals")

    @task(3)
    def appeal_case(self):
        appeals = self.ids("/api/v1/appeals/?limit=20", "api: appeals")
        if appeals:
            self.get(f"/appeals/{random.choice(appeals)}/", "page: appeal")


class Auditor(Member):
    """A national auditor on the desk (the audit trail checked since its checkpoint), searching."""

    weight = 15
    username = "auditor"

    @task(2)
    def desk(self):
        self.get("/national/", "page: national desk")

    @task(3)
    def search(self):
        word = random.choice(["hesitat", "claim", "revoke", "explanation", ""])
        law = random.choice(["16", "73C", "", "21B"])
        self.get(f"/national/search/?keyword={word}&law={law}", "page: national search")

    @task(1)
    def statistics(self):
        self.get("/national/statistics/", "page: statistics")


class Spectator(Member):
    """A player following the standings of the events and the travellers of the boards, opening
    them again and again (each time with the ETag of the copy they hold)."""

    weight = 25
    username = "player"

    def on_start(self):
        super().on_start()
        self.events = self.ids("/api/v1/events/?limit=100", "api: events")
        self.boards = self.ids("/api/v1/boards/?limit=100", "api: boards")

    @task(3)
    def standings(self):
        if self.events:
            self.get(f"/events/{random.choice(self.events)}/standings/", "page: standings")

    @task(2)
    def traveller(self):
        if self.boards:
            self.get(f"/boards/{random.choice(self.boards)}/", "page: traveller")

    @task(1)
    def api_standings(self):
        if self.events:
            self.get(f"/api/v1/events/{random.choice(self.events)}/standings/", "api: standings")
