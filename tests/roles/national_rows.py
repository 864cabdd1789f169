"""The role matrix's rows of the national body: its pages, precedents, casebooks and the audit
trail's verification."""

from django.urls import reverse

from tests.roles.rules import (
    LOGIN,
    NATIONAL_READERS,
    PAGE,
    REFUSALS,
    Expect,
    Row,
    allowed,
    both,
    data,
    fixed,
    listing,
    qualified,
    reads,
    tournament_name,
    url,
    write,
)
from tests.roles.world import marker

ROWS = []

# National pages: auditors (of their own body) and superusers.
NATIONAL_RULINGS = [
    ("ruling:free@A", lambda role, t: role in NATIONAL_READERS),
    ("ruling:free@B", lambda role, t: role == "superuser"),
]
NATIONAL_TOURNAMENTS = [
    ("tournament@A", lambda role, t: role in NATIONAL_READERS),
    ("tournament@B", lambda role, t: role == "superuser"),
]
ROWS += [
    listing("national-home", NATIONAL_TOURNAMENTS, api=PAGE, only=NATIONAL_READERS, needle=tournament_name),
    listing(
        "national-search",
        NATIONAL_RULINGS,
        api=PAGE,
        only=NATIONAL_READERS,
        needle=lambda t: f'href="{reverse("rulings:ruling", args=[t.pk])}"',
    ),
    listing(
        "national-search",
        NATIONAL_RULINGS,
        api=PAGE,
        only=NATIONAL_READERS,
        path=fixed("national-search", "?format=csv"),
        needle=lambda t: f"/rulings/{t.pk}/",
    ),
    listing("national-statistics", NATIONAL_TOURNAMENTS, api=PAGE, only=NATIONAL_READERS, needle=tournament_name),
]
ROWS[-2].label = "csv"

# Precedents (national/precedent_views.py): the published cases of a body are read by its
# officials, auditors and players (Player.authority), the policy's read_precedents; a user of no
# body is refused (403), another body's case answers 404.
PRECEDENT_READERS = allowed("read_precedents") | {"superuser"}


def indexed_case(world, target):
    from national import precedents
    from national.models import PrecedentCase

    row = PrecedentCase.objects.filter(casebook=target.obj).first()
    if row is None:  # the world is built in one transaction: its publish tasks never ran
        precedents.index_casebook(target.obj.pk)
        row = PrecedentCase.objects.filter(casebook=target.obj).first()
    return reverse("national:precedent", args=[row.pk])


def precedent_expect(role, target, world):
    if role == "anonymous":
        return LOGIN
    if role not in PRECEDENT_READERS:
        return REFUSALS["403"]
    return Expect(200) if role == "superuser" or target.side == "A" else REFUSALS["404"]


ROWS += [
    listing("precedents", [], api=PAGE, only=PRECEDENT_READERS),
    Row("precedent", "GET", PAGE, both("casebook:published"), indexed_case, precedent_expect),
]


# Casebooks (national/casebook_views.py): the auditors of the casebook's body read and write
# them; another body's auditor gets 404; everyone else 403 (anonymous: log in).
reads_casebook = reads("casebook")


def casebook_of_case(name):
    return lambda world, target: reverse(qualified(name), args=[target.obj.casebook_id, target.pk])


def casebook_step(name, targets, values, *, method="POST", success=302, writes=True, path=None, label=""):
    return write(
        name,
        method,
        both(targets),
        values,
        api=PAGE,
        reads=reads_casebook,
        may=allowed("casebook"),
        success=success,
        gate=allowed("casebook"),
        writes=writes,
        path=path,
        label=label,
    )


def casebook_page(name, targets, *, success=200):
    """A page of a casebook that its body's auditors read: a GET that writes nothing."""
    return casebook_step(name, targets, None, method="GET", success=success, writes=False)


def not_a_get(name, targets, path=None):
    """A POST-only page: a GET is refused (405) before anything else, whoever asks."""
    return Row(name, "GET", PAGE, both(targets), path or url(name), lambda role, target, world: Expect(405))


def casebook_title(target):
    return [marker(target.side, target.short, "casebook")]


def verify_expect(role, _target, world):
    if role == "anonymous":
        return LOGIN
    if role not in NATIONAL_READERS:
        return REFUSALS["403"]
    return Expect(302, goes_to=reverse("national:national-home"))


def compile_expect(role, _target, world):
    if role == "anonymous":
        return LOGIN
    if role not in NATIONAL_READERS:
        return REFUSALS["403"]
    return Expect(302, wrote=True)


ROWS += [
    listing(
        "casebooks",
        [(t, reads_casebook) for t in both("casebook:draft")],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=lambda t: f'href="{reverse("national:casebook", args=[t.pk])}"',
    ),
    Row(
        "casebooks",
        "POST",
        PAGE,
        (),
        fixed("casebooks"),
        compile_expect,
        data=lambda world, target: {"authority": world.sides["A"].record.authority.pk, "title": "Compiled"},
    ),
    casebook_page("casebook", "casebook:draft"),
    casebook_page("casebook-book", "casebook:published"),
    casebook_page("casebook-json", "casebook:published"),
    # The PDF's page (its print's state), asking a worker to print it, and the printed file (with
    # none printed yet, the page that prints one).
    casebook_page("casebook-pdf", "casebook:draft"),
    casebook_step("casebook-pdf", "casebook:draft", None),
    casebook_page("casebook-pdf-file", "casebook:published", success=302),
    casebook_step("casebook-publish", "casebook:draft", None),
    casebook_step("casebook-finalise", "casebook:published", None),
    casebook_step(
        "casebook-commentary",
        "case:published",
        data(commentary="A model decision."),
        path=casebook_of_case("casebook-commentary"),
    ),
    casebook_step(
        "casebook-redact", "case:draft", data(field="facts", text="Reworded."), path=casebook_of_case("casebook-redact")
    ),
    casebook_step("casebook-remove", "case:draft", None, path=casebook_of_case("casebook-remove")),
    not_a_get("casebook-publish", "casebook:draft"),
    not_a_get("casebook-finalise", "casebook:published"),
    not_a_get("casebook-commentary", "case:published", path=casebook_of_case("casebook-commentary")),
    not_a_get("casebook-redact", "case:draft", path=casebook_of_case("casebook-redact")),
    not_a_get("casebook-remove", "case:draft", path=casebook_of_case("casebook-remove")),
    # The full verification of the audit trail: national readers only; it changes no record.
    Row("audit-verify", "POST", PAGE, (), fixed("audit-verify"), verify_expect),
    Row("audit-verify", "GET", PAGE, (), fixed("audit-verify"), lambda role, target, world: Expect(405)),
]


# Received players kept apart (national/federation/player_views.py, issue #41): the auditors of the
# players' body list them, match one to the player of its number and undo a match; another body's
# player answers 404; everyone else 403 (anonymous: log in).
def reads_player(role, target):
    return role == "superuser" or (target.side == "A" and role in NATIONAL_READERS)


def player_step(name, target, values):
    return write(
        name,
        "POST",
        both(target),
        values,
        api=PAGE,
        reads=reads_player,
        may=allowed("match_players"),
        success=302,
        gate=NATIONAL_READERS,
    )


def own_player(world, target):
    """The side's own player of the received player's number."""
    from scoring.models import Player

    number = target.obj.membership_number.split("~", 1)[1]
    return Player.objects.get(authority=target.obj.authority, membership_number=number).pk


ROWS += [
    listing(
        "federation-players",
        [(t, reads_player) for t in both("player:apart")],
        api=PAGE,
        only=NATIONAL_READERS,
        needle=lambda t: f'id="player-{t.pk}"',
    ),
    player_step("federation-player-match", "player:apart", data(same_as=own_player, reason="The same person")),
    player_step("federation-player-unmatch", "player:matched", data(reason="Two people")),
    not_a_get("federation-player-match", "player:apart"),
    not_a_get("federation-player-unmatch", "player:matched"),
]
