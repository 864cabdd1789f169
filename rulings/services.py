"""Every write a director makes: record a ruling, cite laws, enter the adjusted score, give the
ruling (which starts the recalculation), and change it later with a reason.

A ruling reaches the scores only through ``scoring.services.set_effective_score``.
"""

import logging
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from rulings.catalogue import sync_law_catalogue
from rulings.laws import CitationError, validate_citation
from rulings.models import LawEntry, Penalty, RegulationClause, Ruling, RulingCitation, RulingRevision
from scoring import dispatch
from scoring import services as scoring_services
from bridge import deals
from bridge.deals import DealError, parse_deal
from bridge.engine.contract import ContractError, ns_score, parse_contract
from scoring.i18n import translate
from bridge.engine.rounding import exact_str, to_fraction
from scoring.models import Tournament

log = logging.getLogger(__name__)

ARTIFICIAL_CODES = ("AVE+", "AVE", "AVE-")
# What is kept of a ruling in its revision log.
REVISED_FIELDS = ("kind", "facts", "facts_found", "ruling_text", "reasoning", "outcome", "rectification",
                  "offending_side", "score_kind", "score", "score_description")


def edition_in_force(tournament):
    return tournament.regulations()["laws_edition"]


def _save(instance):
    instance.full_clean()
    instance.save()
    return instance


@transaction.atomic
def record_ruling(*, result, director, kind, laws=(), **fields):
    """Open a ruling (a draft) on ``result``; ``laws`` are citations such as "16B1a"."""
    tournament = Tournament.objects.select_for_update().get(pk=result.board.session.event.tournament_id)
    last = Ruling.objects.filter(result__board__session__event__tournament=tournament).aggregate(n=Max("number"))
    ruling = Ruling(result=result, director=director, kind=kind, number=(last["n"] or 0) + 1, **fields)
    _check_screens(ruling)
    _save(ruling)
    if laws:
        cite_laws(ruling=ruling, laws=laws)
    audit.record(action="ruling.recorded", obj=ruling, actor=director, tournament=tournament.pk,
                 after=snapshot(ruling), summary=f"{ruling}: {ruling.get_kind_display()}")
    return ruling


def _check_screens(ruling):
    if ruling.tray_delay_seconds is not None and not ruling.screens:
        raise ValidationError({"tray_delay_seconds": _("A tray delay is recorded only when screens are in use.")})
    if ruling.kind == Ruling.Kind.DIRECTORS_ERROR and ruling.offending_side:
        raise ValidationError({"offending_side": _(
            "A director's error (Law 82C) has no offending side: both sides are treated as non-offending.")})


@transaction.atomic
def cite_laws(*, ruling, laws, regulations=()):
    """Replace the ruling's citations; every law must exist in the edition in force."""
    edition = edition_in_force(ruling.tournament)
    entries, errors = [], []
    for text in laws:
        if not str(text).strip():
            continue
        try:
            number = validate_citation(edition, text).number
        except CitationError as error:
            errors.append(translate(error))
            continue
        entry = LawEntry.objects.filter(edition=edition, number=number).first()
        if entry is None:
            # The catalogue in the code is the source; its database copy is refreshed when it
            # lacks a law (a new catalogue release, or a database emptied by hand).
            sync_law_catalogue()
            entry = LawEntry.objects.get(edition=edition, number=number)
        entries.append(entry)
    if errors:
        raise ValidationError({"laws": errors})
    clauses = list(RegulationClause.objects.filter(pk__in=regulations, authority=ruling.tournament.authority))
    if len(clauses) != len(set(regulations)):
        raise ValidationError({"regulations": _("A cited clause is not one of this regulating authority's.")})
    ruling.citations.all().delete()
    for entry in dict.fromkeys(entries):
        RulingCitation.objects.create(ruling=ruling, law=entry)
    for clause in clauses:
        RulingCitation.objects.create(ruling=ruling, regulation=clause)
    return entries


def describe_contract(contract, declarer, tricks):
    parsed = parse_contract(contract)
    if parsed.passed_out:
        return "passed out"
    over = tricks - parsed.level - 6
    return f"{parsed} {declarer} {'=' if over == 0 else f'{over:+d}'}"


def _points(result, row, field):
    """(points, words) of a row {"contract", "declarer", "tricks"} on the result's board."""
    try:
        contract = row.get("contract", "")
        declarer = (row.get("declarer") or "").upper()
        tricks = row.get("tricks")
        tricks = int(tricks) if tricks not in (None, "") else None
        if parse_contract(contract).passed_out:
            return 0, "passed out"
        if tricks is None:
            raise ContractError("tricks", _("how many tricks did declarer take?"))
        points = ns_score(contract, declarer, tricks, result.board.vulnerability)
        return points, describe_contract(contract, declarer, tricks)
    except ContractError as error:
        raise ValidationError({field: translate(error)}) from None
    except (TypeError, ValueError):
        raise ValidationError({field: _("tricks must be a whole number from 0 to 13")}) from None


def _weighted(result, rows, field):
    if not rows:
        raise ValidationError({field: _("Enter at least one result with its weight.")})
    components, words, total = [], [], 0
    for index, row in enumerate(rows, start=1):
        points, text = _points(result, row, f"{field}[{index}]")
        weight = str(row.get("weight", "")).strip()
        try:
            if weight.endswith("%"):
                fraction = to_fraction(weight[:-1].strip()) / 100
                weight = exact_str(fraction)
            else:
                fraction = to_fraction(weight)
        except (ValueError, ZeroDivisionError):
            raise ValidationError({f"{field}[{index}]": _(
                "weight '%(w)s' is not a number: write 0.6, 60%% or 1/3") % {"w": weight}}) from None
        total += fraction
        components.append([points, weight])
        words.append(f"{_percent(fraction)} {text}")
    return components, " / ".join(words)


def _percent(fraction):
    value = fraction * 100
    return f"{value.numerator}%" if value.denominator == 1 else f"{float(value):.4g}%"


def build_adjusted_score(*, result, score_kind, ns=None, ew=None):
    """The engine's form of an adjusted score and its description, from what a director enters:

    - assigned: ``ns`` (and for a split score ``ew``) = {"contract", "declarer", "tricks"};
    - weighted: ``ns`` (and optionally ``ew``) = a list of such rows, each with a "weight";
    - artificial: ``ns`` and ``ew`` = "AVE+", "AVE" or "AVE-" (or a percentage "60%");
    - redress: ``ns`` = {"table": row, "normal_play": row, "without_infraction": row,
      "non_offending": "NS" or "EW"}.
    """
    if score_kind == Ruling.ScoreKind.ARTIFICIAL:
        for field, code in (("ns", ns), ("ew", ew)):
            if not (code in ARTIFICIAL_CODES or (isinstance(code, str) and code.endswith("%"))):
                raise ValidationError({field: _("'%(code)s' is not an artificial score: AVE+, AVE, AVE- or a "
                                                "percentage such as 60%%.") % {"code": code}})
        return {"ns": ns, "ew": ew}, f"N-S {ns}, E-W {ew}"
    if score_kind == Ruling.ScoreKind.REDRESS:
        if not isinstance(ns, dict) or ns.get("non_offending") not in ("NS", "EW"):
            raise ValidationError({"ns": _("A redress needs the table result, the result after normal play, the "
                                           "result without the infraction, and the non-offending side.")})
        parts = {}
        words = []
        for key, label in (("table", "table"), ("normal_play", "normal play"),
                           ("without_infraction", "without the infraction")):
            parts[key], text = _points(result, ns.get(key) or {}, f"ns.{key}")
            words.append(f"{label} {text}")
        parts["non_offending"] = ns["non_offending"]
        return {"ns": parts}, "redress (" + ", ".join(words) + ")"
    if score_kind == Ruling.ScoreKind.WEIGHTED:
        ns_score_, ns_words = _weighted(result, ns, "ns")
        if ew:
            ew_score, ew_words = _weighted(result, ew, "ew")
            return {"ns": ns_score_, "ew": ew_score}, f"N-S {ns_words}; E-W {ew_words}"
        return {"ns": ns_score_}, ns_words
    if score_kind in (Ruling.ScoreKind.ASSIGNED, Ruling.ScoreKind.SPLIT):
        ns_points, ns_words = _points(result, ns or {}, "ns")
        if ew:
            ew_points, ew_words = _points(result, ew, "ew")
            if ew_points != ns_points:
                return {"ns": ns_points, "ew": ew_points}, f"N-S {ns_words} ({ns_points:+d}), " \
                                                           f"E-W {ew_words} ({ew_points:+d})"
        if score_kind == Ruling.ScoreKind.SPLIT:
            raise ValidationError({"ew": _("A split score gives E-W a different result from N-S.")})
        return {"ns": ns_points}, f"{ns_words} ({ns_points:+d})"
    raise ValidationError({"score_kind": _("'%(kind)s' is not a kind of adjusted score.") % {"kind": score_kind}})


@transaction.atomic
def set_outcome(*, ruling, outcome, score_kind="", ns=None, ew=None, rectification="", offending_side=None):
    """Record what the director decided; an adjusted score is checked against the engine and the
    regulating authority's settings now, and reaches the scores when the ruling is given."""
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if offending_side is not None:
        ruling.offending_side = offending_side
    ruling.outcome, ruling.rectification = outcome, rectification
    if outcome == Ruling.Outcome.ADJUSTED:
        score, description = build_adjusted_score(result=ruling.result, score_kind=score_kind, ns=ns, ew=ew)
        scoring_services.validate_effective_score(result=ruling.result, score=score,
                                                  penalty=_penalty_dict(ruling),
                                                  outside_agency=ruling.kind == Ruling.Kind.DIRECTORS_ERROR)
        ruling.score_kind, ruling.score, ruling.score_description = score_kind, score, description
    else:
        ruling.score_kind, ruling.score, ruling.score_description = "", None, ""
    _check_screens(ruling)
    return _save(ruling)


@transaction.atomic
def add_penalty(*, ruling, kind, side, unit, offence, amount=None):
    penalty = Penalty(ruling=ruling, kind=kind, side=side, unit=unit, offence=offence,
                      amount=Decimal(str(amount)) if amount not in (None, "") else None)
    if unit in (Penalty.Unit.MATCHPOINTS, Penalty.Unit.PERCENT_OF_TOP, Penalty.Unit.IMPS, Penalty.Unit.VPS):
        if penalty.amount is None or penalty.amount <= 0:
            raise ValidationError({"amount": _("A penalty in %(unit)s needs an amount above 0.") % {
                "unit": penalty.get_unit_display()}})
    _save(penalty)
    audit.record(action="ruling.penalty_added", obj=ruling, actor=ruling.director, tournament=ruling.tournament.pk,
                 after={"kind": kind, "side": side, "unit": unit, "amount": penalty.amount, "offence": offence},
                 summary=f"{ruling}: {penalty}")
    if ruling.state != Ruling.State.DRAFT:
        _apply(ruling, by=ruling.director, reason=_("Penalty: %(offence)s") % {"offence": offence})
    return penalty


def _penalty_dict(ruling):
    """Procedural penalties in the board's units, as the engine takes them: {"ns": 1.5, "ew": "25%"}."""
    penalty = {}
    for p in ruling.penalties.filter(unit__in=[Penalty.Unit.MATCHPOINTS, Penalty.Unit.PERCENT_OF_TOP,
                                               Penalty.Unit.IMPS]):
        side = p.side.lower()
        amount = format(p.amount.normalize(), "f")  # 10, not 1E+1
        value = f"{amount}%" if p.unit == Penalty.Unit.PERCENT_OF_TOP else amount
        if side in penalty:
            raise ValidationError({"penalties": _("Give one penalty per side and board; add them up.")})
        penalty[side] = value
    return penalty or None


def _apply(ruling, *, by, reason):
    """Make the scores say what the ruling says."""
    penalty = _penalty_dict(ruling)
    cause = dict(cause_type="ruling", cause_id=ruling.pk, cause_label=f"ruling {ruling.number}", by=by)
    if ruling.outcome == Ruling.Outcome.ADJUSTED:
        return scoring_services.set_effective_score(
            result=ruling.result, kind=ruling.score_kind, score=ruling.score, penalty=penalty, reason=reason,
            outside_agency=ruling.kind == Ruling.Kind.DIRECTORS_ERROR, description=ruling.score_description,
            **cause)
    if penalty or hasattr(ruling.result, "effective"):
        return scoring_services.set_effective_score(result=ruling.result, kind="table", penalty=penalty,
                                                    reason=reason, **cause)
    return None


@transaction.atomic
def give_ruling(*, ruling, by, at=None):
    """The director gives the ruling at the table: it must be complete, and its score effect
    goes to the scoring service at once. ``at`` records a ruling given earlier (entered late)."""
    ruling = Ruling.objects.select_for_update(of=("self",)).select_related("result__board").get(pk=ruling.pk)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError({"state": _("This ruling was already given (%(state)s).") % {
            "state": ruling.get_state_display()}})
    errors = {}
    if not ruling.ruling_text.strip():
        errors["ruling_text"] = _("Write the ruling.")
    if not ruling.outcome:
        errors["outcome"] = _("Say whether the result stands, a rectification applies, or the score is adjusted.")
    if not ruling.citations.exists():
        errors["laws"] = _("Cite at least one law.")
    if ruling.kind == Ruling.Kind.FACTS_DISPUTED and not (ruling.facts_found.strip() or ruling.facts_not_established):
        errors["facts_found"] = _("Facts are disputed: write the facts as found, or mark them not established.")
    if ruling.outcome == Ruling.Outcome.ADJUSTED and ruling.kind != Ruling.Kind.DIRECTORS_ERROR \
            and not ruling.offending_side:
        errors["offending_side"] = _("Mark the offending side of an adjusted score.")
    if errors:
        raise ValidationError(errors)
    ruling.state, ruling.given_at = Ruling.State.GIVEN, at or timezone.now()
    ruling.save(update_fields=["state", "given_at", "updated_at"])
    audit.record(action="ruling.given", obj=ruling, actor=by, tournament=ruling.tournament.pk,
                 before={"state": Ruling.State.DRAFT}, after={"state": Ruling.State.GIVEN, **snapshot(ruling)},
                 summary=f"{ruling}: {ruling.ruling_text[:200]}")
    _apply(ruling, by=by, reason=ruling.ruling_text)
    return ruling


def snapshot(ruling):
    data = {name: getattr(ruling, name) for name in REVISED_FIELDS}
    data["laws"] = sorted(c.law.number for c in ruling.citations.select_related("law") if c.law)
    return data


@transaction.atomic
def change_ruling(*, ruling, by, reason, laws=None, score_kind=None, ns=None, ew=None, **fields):
    """Change a ruling already given: the change is logged (before, after, who, why) and the
    score effect applied again."""
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the ruling changes.")})
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if ruling.state in (Ruling.State.DRAFT,):
        raise ValidationError({"state": _("A draft is edited, not changed: give it first.")})
    before = snapshot(ruling)
    outcome = fields.pop("outcome", ruling.outcome)
    for name, value in fields.items():
        if name not in REVISED_FIELDS and name not in ("facts_agreed", "statement_ns", "statement_ew",
                                                       "facts_not_established", "colleagues_consulted"):
            raise ValidationError({name: _("This field cannot be changed here.")})
        setattr(ruling, name, value)
    ruling.save()
    if laws is not None:
        cite_laws(ruling=ruling, laws=laws)
    if score_kind is not None or outcome != ruling.outcome:
        set_outcome(ruling=ruling, outcome=outcome, score_kind=score_kind or ruling.score_kind, ns=ns, ew=ew,
                    rectification=fields.get("rectification", ruling.rectification))
    ruling.refresh_from_db()
    after = snapshot(ruling)
    RulingRevision.objects.create(ruling=ruling, changed_by=by, reason=reason.strip(),
                                  before=_jsonable(before), after=_jsonable(after))
    audit.record(action="ruling.changed", obj=ruling, actor=by, tournament=ruling.tournament.pk,
                 before=_jsonable(before), after=_jsonable(after), summary=f"{ruling}: {reason.strip()[:200]}")
    _apply(ruling, by=by, reason=reason.strip())
    return ruling


def _jsonable(data):
    return {key: (str(value) if isinstance(value, Decimal) else value) for key, value in data.items()}


@transaction.atomic
def attach_deal_and_auction(*, ruling, record=None, deal=None, auction=None):
    """Attach a deal and auction (a BoardRecord from a PBN or LIN import, or the parts)."""

    if record is not None:
        deal = record.deal.to_pbn() if record.deal else deal
        auction = record.auction.to_dict() if record.auction else auction
    if deal:
        try:
            deal = parse_deal(deal).to_pbn()
        except DealError as error:
            raise ValidationError({"deal": translate(error)}) from None
    board_deal = ruling.result.board.deal
    ruling.deal = "" if deal == board_deal else (deal or "")
    ruling.auction = auction
    _save(ruling)
    schedule_double_dummy(ruling)
    return ruling


def schedule_double_dummy(ruling):
    """After the transaction commits, ask a worker for the double-dummy table of the ruling's deal."""
    def send():
        try:
            dispatch.send("rulings.tasks.solve_deal", ruling.pk, retry=False)
        except Exception:  # noqa: BLE001 - the table is a help, not part of the record
            log.warning("Broker unreachable: no double-dummy table for ruling %s yet.", ruling.pk, exc_info=True)

    transaction.on_commit(send)


def record_double_dummy(ruling_id):
    """Solve the ruling's deal (DDS) and store the tricks and par for the director's judgement,
    or the solver's complaint. Safe to run twice; returns whether a table was stored."""
    ruling = Ruling.objects.select_related("result__board").filter(pk=ruling_id).first()
    if ruling is None or not ruling.deal_pbn():
        return False
    board = ruling.result.board
    try:
        deal = parse_deal(ruling.deal_pbn())
        table = deals.double_dummy(deal)
        best = deals.par(deal, board.dealer, board.vulnerability)
    except DealError as error:
        Ruling.objects.filter(pk=ruling_id).update(double_dummy=None, double_dummy_error=str(error)[:300])
        return False
    Ruling.objects.filter(pk=ruling_id).update(double_dummy={"deal": deal.to_pbn(), "tricks": table, "par": best},
                                               double_dummy_error="")
    return True


def finalise_rulings(now=None):
    """Rulings given in sessions whose appeal period has passed, and not appealed, become final."""
    now = now or timezone.now()
    finalised = 0
    for ruling in Ruling.objects.filter(state=Ruling.State.GIVEN).select_related("result__board__session"):
        deadline = ruling.appeal_deadline()
        if deadline is not None and deadline <= now:
            with transaction.atomic():
                if Ruling.objects.filter(pk=ruling.pk, state=Ruling.State.GIVEN).update(state=Ruling.State.FINAL):
                    audit.record(action="ruling.final", obj=ruling, tournament=ruling.tournament.pk,
                                 before={"state": Ruling.State.GIVEN}, after={"state": Ruling.State.FINAL},
                                 summary=f"{ruling}: the appeal period ended {deadline.isoformat()}")
                    finalised += 1
    return finalised



def read_deal_source(text):
    """A BoardRecord from a BBO handviewer link, a LIN string or PBN text."""
    from bridge.lin import LinError, parse_lin
    from bridge.pbn_record import parse_pbn_record
    from bridge.pbn import PbnError

    text = (text or "").strip()
    try:
        if "lin=" in text or "md|" in text or text.startswith(("http:", "https:", "www.")):
            return parse_lin(text)
        if "[" in text:
            return parse_pbn_record(text)
    except (LinError, PbnError, ValueError) as error:
        raise ValidationError({"deal_source": translate(error)}) from None
    raise ValidationError({"deal_source": _(
        "Paste a BBO handviewer link, a LIN string (md|...) or a PBN game ([Deal \"N:...\"]).")})


@transaction.atomic
def rule(*, result, director, kind, give=False, laws="", outcome=Ruling.Outcome.RESULT_STANDS, score_kind="",
         ns=None, ew=None, offending_side="", penalty=None, deal_source="", given_at=None, **fields):
    """The fast path of the ruling form: record, cite, attach the deal, set the outcome, any
    procedural penalty, and (with ``give``) give the ruling, in one transaction; on any refusal
    nothing is written."""
    citations = [part.strip() for part in laws.replace(";", ",").split(",") if part.strip()]
    ruling = record_ruling(result=result, director=director, kind=kind, offending_side=offending_side, **fields)
    errors = {}
    for step in (
        lambda: cite_laws(ruling=ruling, laws=citations),
        lambda: deal_source and attach_deal_and_auction(ruling=ruling, record=read_deal_source(deal_source)),
        lambda: penalty and add_penalty(ruling=ruling, kind=Penalty.Kind.PROCEDURAL, **penalty),
        lambda: set_outcome(ruling=ruling, outcome=outcome, score_kind=score_kind, ns=ns, ew=ew),
    ):
        try:
            step()
        except ValidationError as error:
            errors.update(error.message_dict)
    if errors:
        raise ValidationError(errors)
    if give:
        give_ruling(ruling=ruling, by=director, at=given_at)
    return Ruling.objects.get(pk=ruling.pk)


@transaction.atomic
def record_seating(*, ruling, by, seating):
    """Who sat where at the table (player ids by seat); an empty mapping clears it."""
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    before = ruling.seating
    try:
        ruling.seating = {seat: int(player) for seat, player in (seating or {}).items()} or None
    except (AttributeError, TypeError, ValueError):
        raise ValidationError({"seating": _('must look like {"N": 12, "E": 14, "S": 13, "W": 15} (player ids)')}) \
            from None
    _save(ruling)
    audit.record(action="ruling.seating", obj=ruling, actor=by, tournament=ruling.tournament.pk,
                 before={"seating": before}, after={"seating": ruling.seating}, summary=f"{ruling}: seating")
    return ruling
