"""Pages of director rulings: the fast form, the ruling page, the list."""

import functools

from django.contrib import messages as django_messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from core import live, policy
from core.i18n import rank_letters, rank_preference, translate
from rulings import selectors, services
from rulings.filters import RulingFilter
from rulings.forms import WEIGHT_ROWS, CorrectionForm, RulingForm, TableJumpForm, score_initial
from rulings.models import LawEntry, Penalty, Ruling
from rulings.poll_data import poll_line
from scoring import selectors as scoring_selectors
from scoring.deadlines import late_route_open
from scoring.models import Result, Session


def _result_for(request, pk):
    return get_object_or_404(
        Result.objects.select_related("board__session__event__tournament__authority", "table", "ns", "ew").filter(
            board__session__event__tournament__in=scoring_selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )


def _check_can_rule(user, tournament, action="ruling"):
    """Refuse anyone the policy does not let take ``action`` (the tournament's directors); for
    the rest of the request, dates and times on the form are read and written in the
    tournament's time zone."""
    policy.require(user, action, tournament)
    timezone.activate(tournament.zone)


def _in_tournament_zone(view):
    """Undo the time zone _check_can_rule set, whatever the view returns or raises."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        finally:
            timezone.deactivate()

    return wrapper


def _add_errors(form, error):
    """A service's refusals at the fields the director sees; the rest at the top, in words."""
    for field, messages in error.message_dict.items():
        target = form.field_for(field)
        for message in messages:
            form.add_error(target, message)


def _decision(form):
    """What the ruling form says, as rulings.services.rule takes it."""
    return form.decision()


def _lesser_measure(tournament):
    """The lesser disciplinary measure (Law 91) the tournament's regulations name, or ""."""
    return str(tournament.regulations().get("disciplinary_lesser_measure") or "").strip()


def _players(result):
    if result is None:
        return []
    return [*result.ns.members.all(), *result.ew.members.all()]


def _form_page(request, form, *, board, table, round=None, result=None, ruling=None, correcting=None):
    tournament = board.session.event.tournament
    edition = services.edition_in_force(tournament)
    return render(
        request,
        "rulings/ruling_form.html",
        {
            "form": form,
            "result": result,
            "board": board,
            "table": table,
            "round": round or (result and result.round),
            "session": board.session,
            "event": board.session.event,
            "tournament": tournament,
            "edition": edition,
            "laws": LawEntry.objects.filter(edition=edition).only("number", "title", "titles"),
            "regulations": tournament.regulations(),
            "ruling": ruling,
            "correcting": correcting,
            "late_route": correcting is not None and late_route_open(tournament),
            "existing": selectors.rulings_at_table(board, table, request.user, exclude=ruling or correcting),
            # A new ruling where another director has ruled: refused unless a further ruling.
            "ruled": [] if ruling or correcting else services.others_at_table(board, table, request.user),
        },
    )


def _attach(request, form, ruling):
    upload = form.cleaned_data.get("attachment")
    if upload:
        services.add_attachment(
            ruling=ruling,
            by=request.user,
            upload=upload,
            description=form.cleaned_data.get("attachment_description", ""),
        )


def _save_ruling(request, form, write):
    """Run ``write`` (a service call) and the attachment in one transaction; the ruling, or None
    with the refusals on the form."""
    from django.db import transaction

    try:
        with transaction.atomic():
            ruling = write()
            _attach(request, form, ruling)
    except ValidationError as error:
        _add_errors(form, error)
        return None
    return ruling


@login_required
@_in_tournament_zone
def ruling_new(request, result_pk):
    """The ruling form on a table's recorded result (from the board's traveller)."""
    result = _result_for(request, result_pk)
    _check_can_rule(request.user, result.board.session.event.tournament)
    form = RulingForm(
        request.POST or None,
        request.FILES or None,
        # A redress starts from the table's result (Law 12C1b).
        initial={f"rd_table_{key}": getattr(result, key) for key in ("contract", "declarer", "tricks")},
        players=_players(result),
        lesser_measure=_lesser_measure(result.board.session.event.tournament),
        imps_allowed=services.imps_allowed(result.board.session.event),
    )
    if request.method == "POST" and form.is_valid():
        ruling = _save_ruling(
            request,
            form,
            lambda: services.rule(
                result=result,
                director=request.user,
                give="give" in request.POST,
                further_ruling=form.cleaned_data["further_ruling"],
                **_decision(form),
            ),
        )
        if ruling:
            return redirect("rulings:ruling", ruling.pk)
    return _form_page(request, form, board=result.board, table=result.table, result=result)


@login_required
@_in_tournament_zone
def ruling_open(request):
    """Board and table number straight to the ruling form, with or without a result: a
    director called during the auction opens the ruling here."""
    sessions = list(selectors.sessions_for_rulings(request.user))
    if not sessions:
        policy.refuse("ruling")
    jump = TableJumpForm(request.GET or None, sessions=sessions)
    if not jump.is_valid():
        return render(request, "rulings/ruling_open.html", {"jump": jump})
    session = next(s for s in sessions if str(s.pk) == jump.cleaned_data["session"])
    try:
        board, table, round = selectors.find_table(
            session,
            board=jump.cleaned_data["board"],
            table=jump.cleaned_data["table"],
            section=jump.cleaned_data["section"],
            round=jump.cleaned_data["round"],
        )
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            for message in messages:
                jump.add_error(field, message)
        return render(request, "rulings/ruling_open.html", {"jump": jump})
    _check_can_rule(request.user, session.event.tournament)
    result = Result.objects.filter(board=board, table=table).select_related("round", "ns", "ew").first()
    if result is not None and request.method != "POST":
        return redirect("rulings:ruling-new", result.pk)
    form = RulingForm(
        request.POST or None,
        request.FILES or None,
        players=_players(result),
        initial={"called_at": timezone.now()},  # called now, during the auction
        lesser_measure=_lesser_measure(session.event.tournament),
        imps_allowed=services.imps_allowed(session.event),
    )
    if request.method == "POST" and form.is_valid():
        ruling = _save_ruling(
            request,
            form,
            lambda: services.rule(
                result=result,
                board=board,
                table=table,
                round=round,
                director=request.user,
                give="give" in request.POST,
                further_ruling=form.cleaned_data["further_ruling"],
                **_decision(form),
            ),
        )
        if ruling:
            return redirect("rulings:ruling", ruling.pk)
    return _form_page(request, form, board=board, table=table, round=round, result=result)


def _proposed_by_law_16(ruling, laws):
    """The adjusted score the Law 16 record proposes (its laws, the weights from the poll, the
    side that made the information available), for the director to keep or change."""
    proposal = services.proposed_score(ruling)
    if proposal is None:
        return {}
    cited = [law.strip() for law in laws.split(",") if law.strip()]
    seat = ruling.unauthorised_information["source"]["seat"]
    initial = {
        "outcome": Ruling.Outcome.ADJUSTED,
        "score_kind": proposal["score_kind"],
        "laws": ", ".join([*cited, *(law for law in proposal["laws"] if law not in cited)]),
        "offending_side": "NS" if seat in ("N", "S") else "EW",
    }
    rows = proposal["rows"]
    if proposal["score_kind"] == Ruling.ScoreKind.ASSIGNED:
        initial.update(contract=rows[0]["contract"], declarer=rows[0]["declarer"], tricks=rows[0]["tricks"])
    for i, row in enumerate(rows[:WEIGHT_ROWS], start=1):
        if proposal["score_kind"] == Ruling.ScoreKind.WEIGHTED:
            for part in ("contract", "declarer", "tricks", "weight"):
                initial[f"w{i}_{part}"] = row[part]
    return initial


def _initial(ruling):
    """The form's fields from a recorded ruling (to complete a draft, or to start a correction)."""
    initial = {
        name: getattr(ruling, name)
        for name in (
            "kind",
            "called_by",
            "called_at",
            "facts",
            "statement_ns",
            "statement_ew",
            "ruling_text",
            "reasoning",
            "outcome",
            "offending_side",
            "score_kind",
            "appeal_notice",
            "screens",
            "tray_delay_seconds",
            "noticed_by",
            "colleagues_consulted",
        )
    }
    initial["facts_agreed"] = "agreed" if ruling.facts_agreed else "disputed"
    initial["laws"] = ", ".join(c.law.number for c in ruling.citations.all() if c.law)
    if not ruling.score_kind:
        initial.update(_proposed_by_law_16(ruling, initial["laws"]))
    initial.update(score_initial(ruling))  # the adjusted score as entered, contracts included
    if ruling.poll:
        initial["poll_question"] = ruling.poll.get("question", "")
        initial["poll_votes"] = "\n".join(poll_line(v) for v in ruling.poll.get("players", []))
        initial["poll_table_action"] = ruling.poll.get("table_action", "")
    penalty = ruling.penalties.first()
    if penalty:
        initial.update(
            penalty_kind=penalty.kind,
            penalty_side=penalty.side,
            penalty_offence=penalty.offence,
            penalty_player=str(penalty.player_id or ""),
        )
        if penalty.kind == Penalty.Kind.DISCIPLINARY:
            initial.update(penalty_measure=penalty.unit, penalty_fine=penalty.amount)
        else:
            initial.update(penalty_unit=penalty.unit, penalty_amount=penalty.amount)
    return initial


def _ruling_to_write(request, pk, action="ruling"):
    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    _check_can_rule(request.user, ruling.tournament, action)
    return ruling


@login_required
@_in_tournament_zone
def ruling_edit(request, pk):
    """Complete a ruling saved as a draft (opened during the auction, the result in since)."""
    ruling = _ruling_to_write(request, pk)
    if ruling.state != Ruling.State.DRAFT:
        return redirect("rulings:ruling-correct", pk)
    result = ruling.result or Result.objects.filter(board=ruling.board, table=ruling.table).first()
    form = RulingForm(
        request.POST or None,
        request.FILES or None,
        initial=_initial(ruling),
        players=_players(result),
        lesser_measure=_lesser_measure(ruling.tournament),
        imps_allowed=services.imps_allowed(ruling.board.session.event),
    )
    if request.method == "POST" and form.is_valid():
        decision = _decision(form)
        decision.pop("called_by")
        saved = _save_ruling(
            request,
            form,
            lambda: services.update_draft(
                ruling=ruling,
                by=request.user,
                give="give" in request.POST,
                called_by=form.cleaned_data["called_by"],
                **decision,
            ),
        )
        if saved:
            return redirect("rulings:ruling", saved.pk)
    return _form_page(
        request, form, board=ruling.board, table=ruling.table, round=ruling.round, result=result, ruling=ruling
    )


@login_required
@_in_tournament_zone
def ruling_correct(request, pk):
    """Correct a ruling given (Law 82C, Law 79C): a new ruling that supersedes it, with a reason."""
    earlier = _ruling_to_write(request, pk, "correction")
    form = CorrectionForm(
        request.POST or None,
        request.FILES or None,
        initial=_initial(earlier),
        players=_players(earlier.result),
        lesser_measure=_lesser_measure(earlier.tournament),
        imps_allowed=services.imps_allowed(earlier.board.session.event),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        ruling = _save_ruling(
            request,
            form,
            lambda: services.correct_ruling(
                ruling=earlier,
                director=request.user,
                basis=data["correction_basis"],
                reason=data["correction_reason"],
                give="give" in request.POST,
                late_correction=form.late_input(),
                **_decision(form),
            ),
        )
        if ruling:
            return redirect("rulings:ruling", ruling.pk)
    return _form_page(
        request,
        form,
        board=earlier.board,
        table=earlier.table,
        round=earlier.round,
        result=earlier.result,
        correcting=earlier,
    )


@login_required
def ruling_attachment(request, pk, attachment_pk):
    """An attachment, to those who may read the ruling, from the storage it was kept in (at most
    5 MB: read whole)."""
    from django.utils.http import content_disposition_header

    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    attachment = get_object_or_404(ruling.attachments.all(), pk=attachment_pk)
    with attachment.file.open("rb") as stored:
        response = HttpResponse(stored.read(), content_type=attachment.content_type)
    response["Content-Disposition"] = content_disposition_header(False, attachment.name) or "inline"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def ruling_version(request, pk):
    """The ruling page's live version (core/live.py): its tournament's, if the reader may read it."""
    return scoring_selectors.record_version(
        request.user, selectors.visible_rulings(request.user), pk, "board__session__event__tournament"
    )


@login_required
@live.live(ruling_version)
def ruling_detail(request, pk):
    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    board = ruling.board
    result = ruling.result or Result.objects.filter(board=board, table=ruling.table).first()
    return render(
        request,
        "rulings/ruling_detail.html",
        {
            "ruling": ruling,
            "shown_state": ruling.shown_state(),  # never "Final" beside a live countdown
            "result": result,
            "board": board,
            "table": ruling.table,
            "session": board.session,
            "event": board.session.event,
            "tournament": board.session.event.tournament,
            "diagram": ruling_diagram(ruling),
            "card_ranks": rank_preference(board.session.event.tournament),
            "versions": selectors.correction_chain(ruling),
            "zone_name": board.session.event.tournament.zone.key,
            "special_agreements": special_agreements(ruling),
            "poll_finding": selectors.poll_finding(ruling),
        },
    )


# The paragraphs on special partnership understandings: 2007 and 2017 Law 40B, 1997 Law 40D.
SPECIAL_AGREEMENT_LAWS = {"1997": ("40D",), "2007": ("40B",), "2017": ("40B",)}


def special_agreements(ruling):
    """Where the ruling cites a paragraph on special partnership understandings, the regulating
    authority's election (Law 40B2(a)): its dated setting ``special_agreements`` at the tournament,
    ``regulated`` or ``unrestricted``; otherwise "" (issue #39)."""
    edition = services.edition_in_force(ruling.tournament)
    prefixes = SPECIAL_AGREEMENT_LAWS.get(edition, ())
    cited = [c.law.number for c in ruling.citations.all() if c.law is not None]
    if not any(number.startswith(prefixes) for number in cited):
        return ""
    return ruling.tournament.regulations().get("special_agreements") or ""


def ruling_diagram(ruling):
    """Hands and auction rows for the HTML diagram; None if the deal is not recorded."""
    from bridge.auction import Auction
    from bridge.deals import DealError, parse_deal
    from bridge.diagrams import auction_notes, auction_rows
    from scoring.texts import auction_words

    try:
        deal = parse_deal(ruling.deal_pbn()) if ruling.deal_pbn() else None
    except DealError:
        deal = None
    auction = Auction.from_dict(ruling.auction) if ruling.auction else None
    handviewer = None
    if deal and auction:
        from bridge.lin import handviewer_url

        try:
            handviewer = handviewer_url(_board_record(ruling))
        except ValueError:
            handviewer = None  # an unfinished auction: no link
    return {
        "handviewer": handviewer,
        "hands": {seat: deal.suits(seat) for seat in "NESW"} if deal else None,
        "rows": auction_words(auction_rows(auction)) if auction else [],
        "notes": [dict(note, text=translate(note["text"])) for note in auction_notes(auction)] if auction else [],
        "auction": auction,
    }


def _ruling_step(request, pk, service, done):
    """A step taken on a ruling by a button (POST): the service refuses anyone the policy does,
    and its refusals are shown on the ruling's page."""
    if request.method != "POST":
        return redirect("rulings:ruling", pk)
    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    try:
        service(ruling=ruling, by=request.user)
    except ValidationError as error:
        for messages in error.message_dict.values():
            for message in messages:
                django_messages.error(request, message)
    else:
        django_messages.success(request, done)
    return redirect("rulings:ruling", pk)


@login_required
def ruling_give(request, pk):
    """Give a ruling saved as a draft."""
    return _ruling_step(request, pk, services.give_ruling, _("The ruling was given."))


@login_required
def ruling_confirm_score(request, pk):
    """A second director confirms the adjusted score (rulings/services/checking.py)."""
    return _ruling_step(
        request, pk, services.confirm_score, _("The adjusted score is confirmed: it reaches the standings.")
    )


def _ruling_with_deal(request, pk):
    """A ruling the user may read and whose deal is recorded; 404 otherwise."""
    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    if not ruling.deal_pbn():
        raise Http404(_("The deal of this board is not recorded."))
    return ruling


@login_required
def ruling_svg(request, pk):
    """The hand diagram and auction as an SVG image, for documents."""
    from bridge.diagrams import hand_diagram_svg

    ruling = _ruling_with_deal(request, pk)
    record = _board_record(ruling)
    # The letters of the page's language when the authority prefers national ones (core/i18n.py).
    ranks = rank_letters(rank_preference(ruling.board.session.event.tournament))
    svg = hand_diagram_svg(
        record.deal,
        dealer=record.dealer,
        vulnerability=record.vulnerability,
        board_number=record.board,
        auction=record.auction if ruling.auction else None,
        title=str(ruling),
        ranks=ranks,
        translate=translate,  # the seats, "Dealer", "Vul" and the notes in the reader's language
    )
    return HttpResponse(svg, content_type="image/svg+xml")


@login_required
def ruling_list(request):
    # The API's filters, checked as there: a wrong value is named with its reason and left out.
    found = RulingFilter(request.GET, queryset=selectors.filtered_rulings(request.user), request=request)
    labels = {
        "tournament": _("Tournament"),
        "session": _("Session"),
        "board": _("Board"),
        "director": _("Director"),
        "law": _("Law"),
        "kind": _("Kind"),
        "state": _("State"),
    }
    errors = [(labels[name], messages) for name, messages in found.form.errors.items()]
    params = {key: request.GET.get(key) or None for key in labels}
    page = selectors.page_of(found.qs, request.GET.get("page"))
    visible = selectors.visible_rulings(request.user)
    return render(
        request,
        "rulings/ruling_list.html",
        {
            "rulings": page.object_list,
            "page": page,
            "params": params,
            "kinds": Ruling.Kind.choices,
            "states": [*Ruling.State.choices, (selectors.AWAITING_RESULT, _("Awaiting its result"))],
            "tournaments": scoring_selectors.visible_tournaments(request.user),
            "directors": get_user_model().objects.filter(rulings__in=visible).distinct().order_by("last_name"),
            "sessions": Session.objects.filter(boards__rulings__in=visible)
            .distinct()
            .select_related("event__tournament"),
            "can_open": selectors.sessions_for_rulings(request.user).exists(),
            "filter_errors": errors,
        },
        status=400 if errors else 200,
    )


def _board_record(ruling):
    from bridge.auction import Auction, BoardRecord
    from bridge.deals import parse_deal

    board = ruling.board
    auction = Auction.from_dict(ruling.auction) if ruling.auction else Auction(board.dealer, [])
    return BoardRecord(
        board=board.number, vulnerability=board.vulnerability, deal=parse_deal(ruling.deal_pbn()), auction=auction
    )


@login_required
def ruling_pbn(request, pk):
    """The deal and auction as PBN, alerts, explanations and tempo as numbered notes."""
    from bridge.pbn_record import to_pbn

    ruling = _ruling_with_deal(request, pk)
    response = HttpResponse(to_pbn(_board_record(ruling)), content_type="application/x-chess-pbn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ruling-{ruling.number}.pbn"'
    return response
