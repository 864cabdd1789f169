"""``make loadtest``'s simulated users (Locust), against the demo tournament: directors giving
rulings, appeals committee members reading their cases, national auditors searching.

Started by bench/loadtest.py, which runs gunicorn, a worker, PostgreSQL and Redis on this
machine. The requests say they came through the TLS proxy of a deployment
(``X-Forwarded-Proto: https``), so the production settings (secure cookies, HTTPS redirect) stay on.
"""

import json
import os
import random
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

    def get(self, path, name):
        with self.client.get(path, name=name, catch_response=True) as response:
            self._check(response)
            return response

    def post(self, path, name, body):
        with self.client.post(path, json=body, name=name, catch_response=True) as response:
            self._check(response)
            return response

    def ids(self, path, name):
        response = self.get(path, name)
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
        self.results = self.ids("/api/v1/results/?limit=100", "api: results")

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
