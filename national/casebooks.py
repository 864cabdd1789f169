"""Casebooks: a national body's published appeal cases (services and the text they publish).

A casebook is compiled from a search (the same filters as the national search) over the decided
appeals of one regulating authority. Its text is built here, once, in the casebook's language,
with players, teams and captains hidden as the authority's ``casebook_names`` setting says
(``national.anonymise``). Publication is in two stages:

1. ``publish_casebook``: the draft's text is frozen as the first edition, without commentary.
   It is refused while any hidden name can still be read anywhere in the text.
2. ``write_commentary`` on each case, then ``finalise_casebook``: the commentary joins the text,
   which is frozen for good with a SHA-256 digest.

Only the auditors of the authority (and superusers) compile, edit, publish and comment; every
step is in the audit trail.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from appeals import terms
from appeals.models import Appeal, Outcome
from audit import services as audit
from audit.hints import Choice
from core import policy, texts
from national import anonymise, precedents, selectors
from national.lifecycle import CASEBOOK
from national.models import Casebook, CasebookCase
from rulings import selectors as ruling_selectors
from scoring.models import Contestant, Player
from scoring.texts import score_words

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import QuerySet

    from core.texts import Coded
    from national.anonymise import Anonymiser
    from rulings.models import LawEntry, Ruling
    from scoring.models import RegulatingAuthority, Result

# The free-text fields of a case, in the order a casebook prints them. An editor may give any
# of them a published wording of its own (``redact``).
TEXT_FIELDS = (
    "facts",
    "statement_ns",
    "statement_ew",
    "facts_found",
    "ruling_text",
    "reasoning",
    "rectification",
    "grounds",
    "respondents_statement",
    "director_account",
    "hearing_notes",
    "reasons",
    "without_merit_reasons",
    "dissent",
    "further_reasons",
)


# How a case reads: the facts, the director's ruling, the appeal, the decision.
TEXT_GROUPS = {
    "facts": ("facts", "statement_ns", "statement_ew", "facts_found"),
    "ruling": ("ruling_text", "reasoning", "rectification"),
    "appeal": ("grounds", "respondents_statement", "director_account", "hearing_notes"),
    "decision": ("reasons", "without_merit_reasons", "dissent", "further_reasons"),
}


def text_field_labels() -> dict[str, str]:
    return {
        "facts": _("Facts"),
        "statement_ns": _("North-South statement"),
        "statement_ew": _("East-West statement"),
        "facts_found": _("Facts as found by the director"),
        "ruling_text": _("Ruling"),
        "reasoning": _("Reasons"),
        "rectification": _("Rectification"),
        "grounds": _("The appellants' case"),
        "respondents_statement": _("The respondents' case"),
        "director_account": _("The director's account at the hearing"),
        "hearing_notes": _("The hearing"),
        "reasons": _("The decision's reasons"),
        "without_merit_reasons": _("Why the appeal lacked merit"),
        "dissent": _("Dissent"),
        "further_reasons": _("The national authority's reasons"),
    }


# ---------------------------------------------------------------------------------------------
# Who may


def can_edit(user: User, authority: RegulatingAuthority) -> bool:
    """Superusers, and the national auditors of ``authority``."""
    return policy.may(user, "casebook", authority)


def visible_casebooks(user: User) -> QuerySet[Casebook]:
    if not selectors.is_national_reader(user):
        return Casebook.objects.none()
    qs = Casebook.objects.select_related("authority", "created_by")
    return policy.visible(user, "national_records", qs, scope=policy.BY_AUTHORITY)


def _check_editor(user: User, casebook_or_authority: Casebook | RegulatingAuthority) -> None:
    authority: Any = getattr(casebook_or_authority, "authority", casebook_or_authority)
    policy.require(user, "casebook", authority)


def _refuse_unless(casebook: Casebook, state: Choice, field: str = "state") -> None:
    if casebook.state == state:
        return
    if casebook.state == Casebook.State.FINAL:
        raise ValidationError({field: _("The casebook is final: nothing in it can change.")})
    if state == Casebook.State.DRAFT:
        raise ValidationError(
            {
                field: _(
                    "The casebook is published: its cases and texts are fixed. "
                    "Only commentary may be added before it is made final."
                )
            }
        )
    raise ValidationError({field: _("Publish the casebook first: commentary is added to the published text.")})


def _locked(by: User, casebook_id: int, state: Choice, field: str = "state") -> Casebook:
    """The casebook, locked for a change that ``by`` may make only in ``state``."""
    casebook = Casebook.objects.select_for_update().get(pk=casebook_id)
    _check_editor(by, casebook)
    _refuse_unless(casebook, state, field)
    return casebook


# ---------------------------------------------------------------------------------------------
# Compiling a draft


def decided_appeals(user: User, authority: RegulatingAuthority, filters: dict[str, Any]) -> QuerySet[Appeal]:
    """The decided appeals of ``authority``'s tournaments whose rulings match the search
    ``filters`` (see ``national.selectors.search_rulings``), in the order the rulings were given."""
    rulings = selectors.search_rulings(user, **filters).filter(
        result__board__session__event__tournament__authority=authority
    )
    return (
        Appeal.objects.filter(ruling__in=rulings.values("pk"), state=Appeal.State.DECIDED)
        .select_related("ruling")
        .order_by("ruling__given_at", "ruling__created_at", "number", "pk")
    )


def _audit(
    casebook: Casebook, action: str, by: User, summary: str | Coded, after: dict[str, Any] | None = None
) -> None:
    audit.record(
        action=f"casebook.{action}",
        obj=casebook,
        actor=by,
        summary=summary,
        after=after if after is not None else {"state": casebook.state, "title": casebook.title},
    )


@transaction.atomic
def compile_casebook(
    *,
    authority: RegulatingAuthority,
    by: User,
    title: str,
    filters: dict[str, Any] | None = None,
    introduction: str = "",
    now: datetime.datetime | None = None,
) -> Casebook:
    """A draft casebook of every decided appeal matching ``filters``."""
    _check_editor(by, authority)
    filters = {key: value for key, value in (filters or {}).items() if value not in (None, "")}
    if not title.strip():
        raise ValidationError({"title": _("A casebook needs a title.")})
    appeals = list(decided_appeals(by, authority, filters))
    if not appeals:
        raise ValidationError(
            {"filters": _("No decided appeal of %(body)s matches these filters.") % {"body": authority}}
        )
    now = now or timezone.now()
    casebook = Casebook.objects.create(
        authority=authority,
        title=title.strip(),
        introduction=introduction.strip(),
        filters={key: str(value) for key, value in filters.items()},
        language=authority.language,
        names=authority.settings_on(timezone.localdate(now))["casebook_names"],
        created_by=by,
        created_at=now,
    )
    CasebookCase.objects.bulk_create(
        CasebookCase(casebook=casebook, appeal=appeal, position=number)
        for number, appeal in enumerate(appeals, start=1)
    )
    _audit(
        casebook,
        "compiled",
        by,
        texts.text("national.compiled", title=casebook.title, n=len(appeals)),
        after={
            "title": casebook.title,
            "filters": casebook.filters,
            "names": casebook.names,
            "appeals": [appeal.pk for appeal in appeals],
        },
    )
    return casebook


@transaction.atomic
def add_case(*, casebook: Casebook, appeal: Appeal, by: User) -> CasebookCase:
    casebook = _locked(by, casebook.pk, Casebook.State.DRAFT)
    if appeal.ruling.tournament.authority_id != casebook.authority_id:
        raise ValidationError(
            {
                "appeal": _("Appeal %(number)s is not under %(body)s.")
                % {"number": appeal.number, "body": casebook.authority}
            }
        )
    if appeal.state != Appeal.State.DECIDED:
        raise ValidationError({"appeal": _("Only decided appeals go into a casebook.")})
    if casebook.cases.filter(appeal=appeal).exists():
        raise ValidationError(
            {
                "appeal": _("This appeal is already case %(number)s.")
                % {"number": casebook.cases.get(appeal=appeal).position}
            }
        )
    position = (casebook.cases.aggregate(top=Max("position"))["top"] or 0) + 1
    case = CasebookCase.objects.create(casebook=casebook, appeal=appeal, position=position)
    _audit(
        casebook,
        "case_added",
        by,
        texts.text("national.case_appeal", position=position, appeal=appeal.pk),
        after={"appeal": appeal.pk},
    )
    return case


@transaction.atomic
def remove_case(*, case: CasebookCase, by: User) -> None:
    casebook = _locked(by, case.casebook_id, Casebook.State.DRAFT)
    if casebook.cases.count() == 1:
        raise ValidationError({"case": _("A casebook keeps at least one case.")})
    appeal, position = case.appeal_id, case.position
    case.delete()
    # Renumber so the printed cases run 1, 2, 3 ... (moved up one at a time: unique numbers).
    for later in casebook.cases.filter(position__gt=position).order_by("position"):
        later.position -= 1
        later.save(update_fields=["position"])
    _audit(
        casebook,
        "case_removed",
        by,
        texts.text("national.case_appeal", position=position, appeal=str(appeal)),
        after={"appeal": appeal},
    )


@transaction.atomic
def redact(*, case: CasebookCase, field: str, text: str, by: User) -> CasebookCase:
    """Give ``field`` of a case its published wording; an empty text goes back to the record's
    (with names hidden automatically)."""
    _locked(by, case.casebook_id, Casebook.State.DRAFT)
    if field not in TEXT_FIELDS:
        raise ValidationError(
            {
                "field": _("'%(field)s' is not a text of a case; choose one of %(fields)s.")
                % {"field": field, "fields": ", ".join(TEXT_FIELDS)}
            }
        )
    case = CasebookCase.objects.get(pk=case.pk)
    before = case.redactions.get(field, "")
    if text.strip():
        case.redactions[field] = text.strip()
    else:
        case.redactions.pop(field, None)
    case.save(update_fields=["redactions"])
    audit.record(
        action="casebook.redacted",
        obj=case,
        actor=by,
        summary=texts.text("national.case_field", position=case.position, field=field),
        before={field: before},
        after={field: case.redactions.get(field, "")},
    )
    return case


@transaction.atomic
def publish_casebook(*, casebook: Casebook, by: User, now: datetime.datetime | None = None) -> Casebook:
    """The first edition: the draft's text frozen, without commentary."""
    casebook = _locked(by, casebook.pk, Casebook.State.DRAFT)
    content = build_content(casebook)
    problems = name_problems(casebook, content)
    if problems:
        raise ValidationError({"cases": [problem["message"] for problem in problems]})
    casebook.content = content
    CASEBOOK.move(casebook, "publish")
    casebook.published_by, casebook.published_at = by, now or timezone.now()
    casebook.content["published_at"] = casebook.published_at.isoformat()
    casebook.save()
    _audit(
        casebook,
        "published",
        by,
        texts.text("national.published", title=casebook.title, n=len(content["cases"])),
    )
    precedents.index_after_commit(casebook)
    return casebook


def _rating(field: str, value: Any) -> int | None:
    """A mark out of 100, or None for no mark."""
    if value in (None, ""):
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        number = -1
    if not 0 <= number <= 100:
        raise ValidationError({field: _("A rating is a whole number from 0 to 100, or empty for none.")})
    return number


@transaction.atomic
def write_commentary(
    *,
    case: CasebookCase,
    by: User,
    text: str,
    ruling_rating: int | str | None = None,
    decision_rating: int | str | None = None,
    now: datetime.datetime | None = None,
) -> CasebookCase:
    """The commentary on a published case, with the expert panel's marks out of 100 for the
    director's ruling and for the appeal's decision (either may be left out)."""
    casebook = _locked(by, case.casebook_id, Casebook.State.PUBLISHED, field="commentary")
    ratings = {
        "ruling_rating": _rating("ruling_rating", ruling_rating),
        "decision_rating": _rating("decision_rating", decision_rating),
    }
    rewrite, _seating = _anonymiser_for_case(
        casebook, CasebookCase.objects.select_related(*_CASE_RELATED).get(pk=case.pk)
    )
    found = rewrite.survivors(text)
    if found:
        raise ValidationError(
            {
                "commentary": _("The commentary names %(names)s, whom this casebook does not name.")
                % {"names": ", ".join(found)}
            }
        )
    case = CasebookCase.objects.get(pk=case.pk)
    before = {
        "commentary": case.commentary,
        "ruling_rating": case.ruling_rating,
        "decision_rating": case.decision_rating,
    }
    case.commentary, case.commentary_by, case.commentary_at = text.strip(), by, now or timezone.now()
    case.ruling_rating, case.decision_rating = ratings["ruling_rating"], ratings["decision_rating"]
    case.save(update_fields=["commentary", "commentary_by", "commentary_at", "ruling_rating", "decision_rating"])
    audit.record(
        action="casebook.commentary",
        obj=case,
        actor=by,
        summary=texts.text("national.case", position=case.position),
        before=before,
        after={"commentary": case.commentary, **ratings},
    )
    return case


@transaction.atomic
def finalise_casebook(*, casebook: Casebook, by: User, now: datetime.datetime | None = None) -> Casebook:
    """The commentary joins the published text, which is frozen for good."""
    casebook = _locked(by, casebook.pk, Casebook.State.PUBLISHED)
    commentary = {case.position: case for case in casebook.cases.select_related("commentary_by")}
    published = casebook.content or {}  # written when the casebook was published
    content = {**published, "cases": []}
    for entry in published.get("cases", []):
        case = commentary.get(entry["number"])
        entry = dict(
            entry,
            commentary=case.commentary if case else "",
            commentary_by=_person(case.commentary_by) if case and case.commentary else "",
            ratings={
                "ruling": case.ruling_rating if case else None,
                "decision": case.decision_rating if case else None,
            },
        )
        content["cases"].append(entry)
    casebook.finalised_by, casebook.finalised_at = by, now or timezone.now()
    content["state"] = CASEBOOK.target(casebook.state, "finalise", casebook)
    content["finalised_at"] = casebook.finalised_at.isoformat()
    with translation.override(casebook.language):
        content["statistics"] = _statistics(content["cases"])  # now with the experts' ratings
    casebook.content = content
    CASEBOOK.move(casebook, "finalise")
    casebook.digest = digest(content)
    casebook.save()
    _audit(
        casebook,
        "finalised",
        by,
        texts.text("national.finalised", title=casebook.title, digest=casebook.digest),
        after={"state": casebook.state, "digest": casebook.digest},
    )
    precedents.index_after_commit(casebook)
    return casebook


def digest(content: Any) -> str:
    """SHA-256 of the text in a canonical JSON form."""
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


# ---------------------------------------------------------------------------------------------
# The text


_CASE_RELATED = (
    "appeal__ruling__result__board__session__event__tournament__authority",
    "appeal__ruling__result__ns",
    "appeal__ruling__result__ew",
    "appeal__ruling__director",
    "appeal__further",
)


def _person(user: User | None) -> str:
    return (user.get_full_name() or user.get_username()) if user else ""


def _seating(ruling: Ruling) -> dict[str, Player]:
    ids = {seat: pk for seat, pk in (ruling.seating or {}).items()}
    players = Player.objects.in_bulk(ids.values())
    return {seat: players[pk] for seat, pk in ids.items() if pk in players}


def _anonymiser_for_case(
    casebook: Casebook, case: CasebookCase, people: dict[int, tuple[list[Player], list[Contestant]]] | None = None
) -> tuple[Anonymiser, dict[str, Player]]:
    """The rewriter for one case; ``people`` caches each tournament's players and contestants
    across the cases of one casebook."""
    ruling = case.appeal.ruling
    tournament = ruling.tournament
    seating = _seating(ruling)
    people = {} if people is None else people
    if tournament.pk not in people:
        people[tournament.pk] = (
            list(Player.objects.filter(entries__event__tournament=tournament).distinct()),
            list(Contestant.objects.filter(event__tournament=tournament)),
        )
    players, contestants = people[tournament.pk]
    return anonymise.anonymiser_for(ruling, casebook.names, seating, players, contestants), seating


def _raw_texts(appeal: Appeal) -> dict[str, str]:
    ruling = appeal.ruling
    hearings = list(appeal.hearings.order_by("starts_at"))
    members = [member for body in appeal.bodies.all() for member in body.members.all()]
    further = getattr(appeal, "further", None)
    parts = [part.reasons for part in appeal.parts.all() if part.reasons and part.reasons != appeal.reasons]
    return {
        "facts": ruling.facts,
        "statement_ns": ruling.statement_ns,
        "statement_ew": ruling.statement_ew,
        "facts_found": ruling.facts_found,
        "ruling_text": ruling.ruling_text,
        "reasoning": ruling.reasoning,
        "rectification": ruling.rectification,
        "grounds": appeal.grounds,
        "respondents_statement": appeal.respondents_statement,
        "director_account": "\n\n".join(h.director_account for h in hearings if h.director_account),
        "hearing_notes": "\n\n".join(h.notes for h in hearings if h.notes),
        "reasons": "\n\n".join([appeal.reasons, *parts]).strip(),
        "without_merit_reasons": appeal.without_merit_reasons,
        "dissent": "\n\n".join(f"{_person(m.user)}: {m.dissent}" for m in members if m.dissent),
        "further_reasons": further.reasons if further else "",
    }


def _auction(ruling: Ruling, rewrite: Callable[[str], str]) -> dict[str, Any] | None:
    if not ruling.auction:
        return None
    auction = json.loads(json.dumps(ruling.auction))
    for call in auction.get("calls", []):
        call["explanation"] = rewrite(call.get("explanation") or "")
        call["note"] = rewrite(call.get("note") or "")
    if auction.get("claim"):
        auction["claim"]["text"] = rewrite(auction["claim"].get("text") or "")
    return auction


def _subjects(ruling: Ruling, citations: Iterable[LawEntry]) -> list[str]:
    """The keyword-index subjects of a ruling: the subjects whose kinds, laws or words match,
    as the national search matches them."""
    text = " ".join([ruling.facts, ruling.ruling_text, ruling.reasoning]).lower()
    found = []
    for key, subject in selectors.SUBJECTS.items():
        if (
            ruling.kind in subject.kinds
            or any(word in text for word in subject.words)
            or any(
                (law.isdigit() and cited.law == int(law)) or (not law.isdigit() and cited.number.startswith(law))
                for law in subject.laws
                for cited in citations
            )
        ):
            found.append(key)
    return found


def _result(result: Result) -> dict[str, Any]:
    if result.not_played:
        return {"text": _("Not played")}
    text = ""
    if result.contract:
        from rulings.services import describe_contract

        text = (
            describe_contract(result.contract, result.declarer, result.tricks or 0)
            if result.tricks is not None
            else result.contract
        )
    return {
        "contract": result.contract,
        "declarer": result.declarer,
        "tricks": result.tricks,
        "lead": result.lead,
        "score_ns": result.score_ns,
        "text": text,
    }


def case_content(
    casebook: Casebook, case: CasebookCase, people: dict[int, tuple[list[Player], list[Contestant]]] | None = None
) -> dict[str, Any]:
    """One case as the casebook prints it, in the casebook's language, names hidden."""
    appeal = case.appeal
    ruling = appeal.ruling
    result = ruling.given_result
    board = result.board
    event = board.session.event
    rewrite, seating = _anonymiser_for_case(casebook, case, people)
    seats, sides, _people = anonymise.labels_for(ruling, casebook.names, seating)
    citations = [c.law for c in ruling.citations.select_related("law") if c.law]
    regulations = [str(c.regulation) for c in ruling.citations.select_related("regulation") if c.regulation]
    texts = {key: rewrite(value or "") for key, value in _raw_texts(appeal).items()}
    texts.update(case.redactions)
    bodies = list(appeal.bodies.prefetch_related("members__user"))
    return {
        "number": case.position,
        "appeal": appeal.number,
        "tournament": event.tournament.name,
        "event": event.name,
        "event_kind": event.get_kind_display(),
        "session": str(board.session),
        "date": (ruling.given_at or ruling.created_at).date().isoformat(),
        "board": board.number,
        "dealer": board.dealer,
        "vulnerability": board.vulnerability,
        "deal": ruling.deal_pbn(),
        "auction": _auction(ruling, rewrite),
        "poll": ruling_selectors.poll_summary(ruling, rewrite),  # counts and logical alternatives, no names
        "seats": seats,
        "sides": sides,
        "result": _result(result),
        "ruling": {
            "kind": ruling.kind,
            "kind_label": ruling.get_kind_display(),
            "director": _person(ruling.director),
            "laws": [
                {"number": law.number, "edition": law.edition, "title": law.title_in(casebook.language)}
                for law in citations
            ],
            "regulations": regulations,
            "outcome": ruling.get_outcome_display() if ruling.outcome else "",
            "outcome_code": ruling.outcome,  # compared by the precedents (national.likeness)
            "score_kind": ruling.score_kind,
            "score": score_words(ruling.score_description),  # in the casebook's language
            "penalties": [str(penalty) for penalty in ruling.penalties.all()],
        },
        "appeal_side": sides.get(appeal.side, ""),
        "body": [
            {
                # the authority's own name for the body where it gave one (appeals/terms.py)
                "kind": terms.term(casebook.authority, body.kind, body.get_kind_display()),
                "stage": body.get_stage_display(),
                "members": [
                    {"name": _person(m.user), "chair": m.is_chair} for m in body.members.all() if not m.recused_at
                ],
            }
            for body in bodies
        ],
        "decision": {
            "outcome": appeal.outcome,
            "outcome_label": appeal.get_outcome_display() if appeal.outcome else "",
            "score": score_words(appeal.score_description),
            "without_merit": appeal.without_merit,
            "decided_at": appeal.decided_at.isoformat() if appeal.decided_at else "",
            "further": (
                appeal.further.get_outcome_display()
                if getattr(appeal, "further", None) and appeal.further.outcome
                else ""
            ),
        },
        "texts": texts,
        "subjects": _subjects(ruling, citations),
        "commentary": "",
        "commentary_by": "",
        "ratings": {"ruling": None, "decision": None},
    }


def _index(cases: list[dict[str, Any]]) -> dict[str, Any]:
    by_subject: defaultdict[str, list[int]] = defaultdict(list)
    by_law: defaultdict[str, list[int]] = defaultdict(list)
    for case in cases:
        for subject in case["subjects"]:
            by_subject[subject].append(case["number"])
        for law in case["ruling"]["laws"]:
            if case["number"] not in by_law[law["number"]]:
                by_law[law["number"]].append(case["number"])
    subjects = [
        {"subject": str(selectors.SUBJECTS[key].label), "cases": numbers} for key, numbers in by_subject.items()
    ]
    return {
        "subjects": sorted(subjects, key=lambda row: row["subject"].lower()),
        "laws": [{"law": law, "cases": by_law[law]} for law in sorted(by_law, key=_law_order)],
    }


def _law_order(number: str) -> tuple[int, str]:
    """Law 9 before Law 12C1, then by the citation."""
    digits = re.match(r"\d*", number).group()  # type: ignore[union-attr]  # \d* matches every string
    return (int(digits or 0), number)


def _statistics(cases: list[dict[str, Any]]) -> dict[str, Any]:
    outcomes = Counter(case["decision"]["outcome"] for case in cases)
    kinds = Counter(case["ruling"]["kind_label"] for case in cases)
    laws = Counter(
        law["number"].rstrip("abcdefghijklmnopqrstuvwxyz")
        for case in cases
        for law in {law["number"]: law for law in case["ruling"]["laws"]}.values()
    )
    rated = [
        case["ratings"]
        for case in cases
        if case.get("ratings") and None not in (case["ratings"]["ruling"], case["ratings"]["decision"])
    ]
    return {
        "cases": len(cases),
        "ratings": [
            (str(label), n) for label, n in selectors.rating_rows([(r["ruling"], r["decision"]) for r in rated])
        ]
        if rated
        else [],
        "outcomes": [(str(label), outcomes.get(value, 0)) for value, label in Outcome.choices],
        "without_merit": sum(1 for case in cases if case["decision"]["without_merit"]),
        "kinds": sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])),
        "laws": sorted(laws.items(), key=lambda kv: (-kv[1], _law_order(kv[0])))[:15],
    }


def build_content(casebook: Casebook) -> dict[str, Any]:
    """The whole casebook as JSON-ready data: its cases, keyword index and statistics."""
    with translation.override(casebook.language):
        people: dict[int, tuple[list[Player], list[Contestant]]] = {}
        cases = [
            case_content(casebook, case, people)
            for case in casebook.cases.select_related(*_CASE_RELATED).order_by("position")
        ]
        return {
            "title": casebook.title,
            "introduction": casebook.introduction,
            "authority": casebook.authority.name,
            "language": casebook.language,
            "names": casebook.names,
            "names_label": str(Casebook.Names(casebook.names).label),
            "state": casebook.state,
            "compiled_at": casebook.created_at.isoformat(),
            "cases": cases,
            "index": _index(cases),
            "statistics": _statistics(cases),
        }


def text_of(casebook: Casebook) -> dict[str, Any]:
    """What the casebook shows now: the frozen text once published, else the draft built afresh
    (with the commentary written so far, for the editor)."""
    if casebook.content is not None:
        content = casebook.content
        if casebook.state == Casebook.State.PUBLISHED:
            written = {
                position: (text, {"ruling": ruling, "decision": decision})
                for position, text, ruling, decision in casebook.cases.values_list(
                    "position", "commentary", "ruling_rating", "decision_rating"
                )
            }
            content = dict(
                content,
                cases=[
                    dict(case, commentary=written[case["number"]][0], ratings=written[case["number"]][1])
                    if case["number"] in written
                    else case
                    for case in content["cases"]
                ],
            )
        return content
    return build_content(casebook)


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a nested structure, with where it is."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]")


# Fields of a case written by officials or by the system, where names are expected.
_NAMED_BY_DESIGN = ("ruling.director", "body", "commentary_by", "tournament", "event", "session")


def name_problems(casebook: Casebook, content: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Every place in the casebook's text where a hidden name can still be read:
    ``[{"case": 3, "field": "facts", "names": ["Levi"], "message": "..."}]``."""
    if casebook.names == Casebook.Names.NAMES:
        return []
    content = content or build_content(casebook)
    cases = {case.position: case for case in casebook.cases.select_related(*_CASE_RELATED)}
    labels = text_field_labels()
    problems: list[dict[str, Any]] = []
    people: dict[int, tuple[list[Player], list[Contestant]]] = {}
    for entry in content["cases"]:
        rewrite, _seating = _anonymiser_for_case(casebook, cases[entry["number"]], people)
        for path, text in _strings(entry):
            if path.startswith(_NAMED_BY_DESIGN) or path in ("date", "deal", "dealer", "vulnerability"):
                continue
            found = rewrite.survivors(text)
            if found:
                field = path.removeprefix("texts.")
                problems.append(
                    {
                        "case": entry["number"],
                        "field": field,
                        "names": found,
                        "message": _(
                            "Case %(case)s, %(field)s: %(names)s can still be read. Edit the published "
                            "wording of this text."
                        )
                        % {"case": entry["number"], "field": labels.get(field, field), "names": ", ".join(found)},
                    }
                )
    return problems
