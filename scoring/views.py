"""Pages of the competition record. Every page is limited to what the viewer may see: a
tournament someone has no part in answers 404, as if it did not exist."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core import live, policy, reader, renders, roles
from core.i18n import rank_preference
from scoring import change_log, change_marks, field_uploads, score_checks, selectors, services, vp_scales
from scoring.deadlines import CHECKING_LEVELS, SHOWS
from scoring.models import Board, Contestant, Event, Match, MatchPenalty, MatchScore, Session


@login_required
def home(request):
    user = request.user
    user_roles = roles.roles_of(user)
    if user_roles == {roles.NATIONAL_AUDITOR} and policy.may(user, "national", None):
        return redirect("national:national-home")  # an auditor's desk is the national body's page
    tournaments = selectors.visible_tournaments(user)
    # Which cards the page shows is the policy's answer in the template ({% may %}).
    context = {
        "tournaments": tournaments,
        "officiating": user.officiating.select_related("tournament").order_by("-tournament__start_date"),
        "auditing": user.auditing.select_related("authority"),
        "entries": [],
    }
    # The pairs and teams they play in and the teams they captain, playing or not: the policy's
    # own tables (core.policy.own_entries), as /appeals/mine/ lists them.
    context["entries"] = (
        policy.own_entries(user).select_related("event__tournament").order_by("-event__tournament__start_date")
    )
    return render(request, "scoring/home.html", context)


@login_required
def tournament_detail(request, pk):
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    return render(
        request,
        "scoring/tournament_detail.html",
        {
            "tournament": tournament,
            "events": selectors.tournament_events(tournament),
            # the law catalogue of the edition in force and the phone's ruling drafts (issue #31)
            "edition": tournament.regulations()["laws_edition"],
            # its regulations (and VP scales) for the body's own people: superusers, auditors
            "regulations_readable": selectors.readable_authorities(request.user)
            .filter(pk=tournament.authority_id)
            .exists(),
        },
    )


def visible_event(request, pk):
    return get_object_or_404(
        Event.objects.select_related("tournament__authority").filter(
            tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )


@login_required
def event_detail(request, pk):
    """An event's sessions and contestants; at a team event scored in VPs, the scale in force,
    which the chief director or scorer may change here (``services.set_event_vp_scale``)."""
    event = visible_event(request, pk)
    can_choose = event.scored_in_vps and policy.may(request.user, "choose_vp_scale", event.tournament)
    can_method = policy.may(request.user, "choose_scoring_method", event.tournament)
    errors, posted = {}, {}
    if request.method == "POST" and request.POST.get("form") == "scoring_method":
        if not can_method:
            policy.refuse("choose_scoring_method")
        posted = request.POST
        method = {key: posted[key].strip() for key in services.METHOD_KEYS if posted.get(key, "").strip()}
        try:
            services.set_event_scoring_method(event=event, method=method, by=request.user)
            messages.success(request, _("The scoring method is recorded; the standings are being recalculated."))
            return redirect("scoring:event", event.pk)
        except ValidationError as error:
            errors = error.message_dict
    elif request.method == "POST":
        if not can_choose:
            policy.refuse("choose_vp_scale")
        posted = request.POST
        try:
            services.set_event_vp_scale(event=event, scale=posted.get("vp_scale", ""), by=request.user)
            messages.success(request, _("The victory-point scale is recorded; the standings are being recalculated."))
            return redirect("scoring:event", event.pk)
        except ValidationError as error:
            errors = error.message_dict
    return render(
        request,
        "scoring/event_detail.html",
        {
            "event": event,
            "tournament": event.tournament,
            "sessions": selectors.event_sessions(event),
            "contestants": selectors.event_contestants(event),
            "private": selectors.sees_private_details(request.user, event.tournament),
            "vp_scale": vp_scales.in_force(event) if event.scored_in_vps else None,
            "scale_choices": vp_scales.choices(event.tournament.authority) if can_choose else (),
            "authority_scale": event.tournament.regulations()["vp_scale"] if can_choose else "",
            "method": selectors.event_scoring_method(event),
            "errors": errors,
            "posted": posted,
        },
    )


@login_required
@live.live(
    lambda request, pk: selectors.event_version(request.user, pk),
    revalidate=True,
    shared=lambda request, pk: selectors.audience(request.user, Event.objects.all(), pk, "tournament"),
)
def standings(request, pk):
    event = visible_event(request, pk)
    sessions = list(event.sessions.all())
    session = None
    if request.GET.get("session"):
        session = get_object_or_404(event.sessions, number=request.GET["session"])
    rows = list(selectors.standings(event, session))
    pending = selectors.recalculation_pending([session] if session else sessions)
    unit = selectors.score_unit(event)
    marks = change_marks.standings_marks(request.user, event, session, unit, shared=renders.is_shared(request))
    for row in rows:
        vars(row)["change_marks"] = marks.get(row.contestant_id, [])  # why its total moved
    return render(
        request,
        "scoring/standings.html",
        {
            "event": event,
            "tournament": event.tournament,
            "sessions": sessions,
            "session": session,
            "rows": rows,
            "fields": sorted({row.field for row in rows}),
            "pending": bool(pending),
            "unit": unit,
            "matches": selectors.match_results(event) if event.is_teams else [],
            "vp_scale": vp_scales.in_force(event) if event.scored_in_vps else None,
        },
    )


@login_required
def contestant_detail(request, pk):
    contestant = get_object_or_404(
        Contestant.objects.select_related("event__tournament__authority").filter(
            event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    event = contestant.event
    changes = [(change, change.explain_html(side, unit)) for change, side, unit in selectors.score_changes(contestant)]
    return render(
        request,
        "scoring/contestant_detail.html",
        {
            "contestant": contestant,
            "event": event,
            "tournament": event.tournament,
            "rows": selectors.scorecard(contestant),
            "changes": changes,
            "standing": event.standings.filter(session=None, contestant=contestant).first(),
            "unit": selectors.score_unit(event),
            "pending": bool(selectors.recalculation_pending(list(event.sessions.all()))),
        },
    )


@login_required
@live.live(lambda request, pk: selectors.record_version(request.user, Session.objects.all(), pk, "event__tournament"))
def session_detail(request, pk):
    session = get_object_or_404(
        Session.objects.select_related("event__tournament__authority").filter(
            event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    return render(
        request,
        "scoring/session_detail.html",
        {
            "session": session,
            "event": session.event,
            "tournament": session.event.tournament,
            "boards": selectors.session_boards(session),
            "matches": selectors.session_matches(session),
            "postings": [(p, SHOWS.get(p.shows, p.shows)) for p in session.score_postings.select_related("posted_by")],
            "required": SHOWS[session.event.tournament.regulations()["checking_requires"]],
            "levels": [(level, SHOWS[level]) for level in CHECKING_LEVELS],
            "required_level": session.event.tournament.regulations()["checking_requires"],
            "pending": bool(selectors.recalculation_pending([session])),
            "official_score_at": session.official_score_at,
            "appeal_deadline": session.appeal_deadline(),
            "correction_deadline": session.correction_deadline(),
            "checks": score_checks.session_checks(session)
            if policy.may(request.user, "write_record", session.event.tournament)
            else None,
            "uploads": field_uploads.session_uploads(session)
            if policy.may(request.user, "write_record", session.event.tournament)
            else None,
        },
    )


@login_required
def session_changes(request, pk):
    """The session's public change log: every change to its results since the official score was
    first made available, with its time and reason (scoring/change_log.py)."""
    session = get_object_or_404(
        Session.objects.select_related("event__tournament__authority").filter(
            event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    log = change_log.session_change_log(session, selectors.score_unit(session.event))
    return render(
        request,
        "scoring/session_changes.html",
        {"session": session, "event": session.event, "tournament": session.event.tournament, "log": log},
    )


@login_required
def post_official_score(request, pk):
    """The session's official score posted from its page (POST), or posted again: both clocks
    (Laws 79C, 92B) start from this posting (scoring/deadlines.py). A GET goes back to the page."""
    if request.method != "POST":
        return redirect("scoring:session", pk)
    session = get_object_or_404(
        Session.objects.select_related("event__tournament").filter(
            event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    again = session.official_score_at is not None
    try:
        posting = services.post_official_scores(
            session=session,
            by=request.user,
            note=request.POST.get("note", "").strip(),
            shows=request.POST.get("shows", "").strip(),
        )
    except ValidationError as error:
        for problems in error.message_dict.values():
            for problem in problems:
                messages.error(request, problem)
        return redirect("scoring:session", session.pk)
    session = Session.objects.select_related("event__tournament").get(pk=session.pk)
    tournament = session.event.tournament
    if not posting.checkable:
        messages.warning(
            request,
            _(
                "Posted with %(shows)s visible: the regulations ask for %(required)s before the official score "
                "counts as made available for checking, so the correction and appeal periods have not started again."
            )
            % {"shows": SHOWS[posting.shows], "required": SHOWS[tournament.regulations()["checking_requires"]]},
        )
        return redirect("scoring:session", session.pk)
    values = {
        "at": reader.event_time(posting.posted_at, tournament),
        "until": reader.event_time(session.appeal_deadline(), tournament),
    }
    if again:
        text = _(
            "Official score posted again at %(at)s: the appeal and correction periods start again (appeals until %(until)s)."
        )
    else:
        text = _("Official score posted at %(at)s: the appeal period runs until %(until)s.")
    messages.success(request, text % values)
    return redirect("scoring:session", session.pk)


@login_required
@live.live(
    lambda request, pk: selectors.board_version(request.user, pk),
    revalidate=True,
    shared=lambda request, pk: selectors.audience(request.user, Board.objects.all(), pk, "session__event__tournament"),
)
def board_detail(request, pk):
    board = get_object_or_404(
        Board.objects.select_related("session__event__tournament__authority").filter(
            session__event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    results = list(selectors.traveller(board))
    imps = selectors.team_imps(results) if board.session.event.is_teams else {}
    unit = selectors.score_unit(board.session.event)
    marks = change_marks.traveller_marks(request.user, board, unit, shared=renders.is_shared(request))
    for result in results:  # a team match's board: its IMPs in the match, as the match page has them
        vars(result)["team_imps"] = imps.get(result.pk)  # not a column: the template reads it beside the row
        vars(result)["change_marks"] = marks.get(result.pk, [])  # what changed its score, and why
    return render(
        request,
        "scoring/board_detail.html",
        {
            "board": board,
            "session": board.session,
            "event": board.session.event,
            "tournament": board.session.event.tournament,
            "hands": _hands(board),
            "card_ranks": rank_preference(board.session.event.tournament),
            "results": results,
            "frequencies": selectors.frequency_tables(results) if results else None,
            "pending": board.scored_version < board.score_version,
            "unit": unit,
        },
    )


def _hands(board):
    if not board.deal:
        return None
    from bridge.deals import DealError, parse_deal

    try:
        deal = parse_deal(board.deal)
    except DealError:
        return None
    return {seat: deal.suits(seat) for seat in "NESW"}


@login_required
def match_detail(request, pk):
    """A team match: each board's IMPs, the penalties given in it and what they did to the VPs; a
    director gives or withdraws a penalty here (``services.add_match_penalty``)."""
    match = get_object_or_404(
        Match.objects.select_related("round__session__event__tournament__authority", "home", "away").filter(
            round__session__event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    tournament = match.round.session.event.tournament
    can_direct = policy.may(request.user, "match_penalty", tournament)
    errors, posted = {}, {}
    if request.method == "POST":
        if not can_direct:
            policy.refuse("match_penalty")
        posted = request.POST
        try:
            if posted.get("action") == "withdraw":
                penalty = get_object_or_404(MatchPenalty, match=match, pk=posted.get("penalty") or 0)
                services.withdraw_match_penalty(penalty=penalty, reason=posted.get("reason", ""), by=request.user)
                messages.success(request, _("The penalty is withdrawn; the standings are being recalculated."))
            else:
                team = match.home if posted.get("team") == str(match.home_id) else match.away
                if posted.get("team") not in (str(match.home_id), str(match.away_id)):
                    raise ValidationError({"team": _("Choose the team the penalty is against.")})
                services.add_match_penalty(
                    match=match,
                    team=team,
                    amount=posted.get("amount", ""),
                    unit=posted.get("unit", ""),
                    offence=posted.get("offence", ""),
                    by=request.user,
                )
                messages.success(request, _("The penalty is recorded; the standings are being recalculated."))
            return redirect("scoring:match", match.pk)
        except ValidationError as error:
            errors = error.message_dict
    match, penalties = selectors.match_detail(match)
    event = match.round.session.event
    allowed = services.TEAM_PENALTY_UNITS[tournament.regulations()["team_penalty_units"]]
    if event.kind == Event.Kind.KNOCKOUT_TEAMS:
        allowed = (MatchPenalty.Unit.IMPS,)  # no VPs in a knockout
    return render(
        request,
        "scoring/match_detail.html",
        {
            "match": match,
            "event": event,
            "tournament": tournament,
            "score": MatchScore.objects.filter(match=match).first(),
            "penalties": penalties,
            "units": [MatchPenalty.Unit(unit) for unit in allowed],
            "errors": errors,
            "posted": posted,
            "pending": bool(selectors.recalculation_pending([match.round.session])),
            "vp_scale": vp_scales.in_force(event) if event.scored_in_vps else None,
        },
    )
