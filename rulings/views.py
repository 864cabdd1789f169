"""Pages of director rulings: the fast form, the ruling page, the list."""

from django.contrib import messages as django_messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from rulings import selectors, services
from rulings.forms import RulingForm
from rulings.models import LawEntry, Ruling
from scoring import selectors as scoring_selectors
from scoring.i18n import rank_letters, rank_preference, translate
from scoring.models import Result, Session


def _result_for(request, pk):
    return get_object_or_404(
        Result.objects.select_related("board__session__event__tournament__authority", "table", "ns", "ew").filter(
            board__session__event__tournament__in=scoring_selectors.visible_tournaments(request.user)),
        pk=pk,
    )


@login_required
def ruling_new(request, result_pk):
    result = _result_for(request, result_pk)
    tournament = result.board.session.event.tournament
    if not selectors.can_rule(request.user, tournament):
        raise PermissionDenied(_("Only a director or chief director of this tournament records rulings."))
    form = RulingForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        ns, ew = form.score_input()
        penalty = None
        if data.get("penalty_side"):
            penalty = {"side": data["penalty_side"], "amount": data.get("penalty_amount"),
                       "unit": data.get("penalty_unit"), "offence": data.get("penalty_offence") or data["kind"]}
        try:
            ruling = services.rule(
                result=result, director=request.user, kind=data["kind"], give="give" in request.POST,
                laws=data["laws"], outcome=data["outcome"], score_kind=data["score_kind"], ns=ns, ew=ew,
                offending_side=data["offending_side"], penalty=penalty, deal_source=data["deal_source"],
                called_by=data["called_by"], facts=data["facts"], ruling_text=data["ruling_text"],
                reasoning=data["reasoning"])
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                target = field if field in form.fields else None
                for message in messages:
                    form.add_error(target, message if target else f"{field}: {message}")
        else:
            return redirect("ruling", ruling.pk)
    edition = services.edition_in_force(tournament)
    return render(request, "rulings/ruling_form.html", {
        "form": form, "result": result, "board": result.board, "session": result.board.session,
        "event": result.board.session.event, "tournament": tournament, "edition": edition,
        "laws": LawEntry.objects.filter(edition=edition).only("number", "title", "titles"),
        "regulations": tournament.regulations(),
    })


@login_required
def ruling_detail(request, pk):
    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    board = ruling.result.board
    return render(request, "rulings/ruling_detail.html", {
        "ruling": ruling, "result": ruling.result, "board": board, "session": board.session,
        "event": board.session.event, "tournament": board.session.event.tournament,
        "diagram": _diagram(ruling), "can_rule": selectors.can_rule(request.user, board.session.event.tournament),
        "card_ranks": rank_preference(board.session.event.tournament),
    })


def _diagram(ruling):
    """Hands and auction rows for the HTML diagram; None if the deal is not recorded."""
    from bridge.auction import Auction
    from bridge.diagrams import auction_notes, auction_rows
    from bridge.deals import DealError, parse_deal

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
        "hands": {seat: [(suit, deal.hands[seat][suit]) for suit in "SHDC"] for seat in "NESW"} if deal else None,
        "rows": auction_rows(auction) if auction else [],
        "notes": [dict(note, text=translate(note["text"])) for note in auction_notes(auction)] if auction else [],
        "auction": auction,
    }


@login_required
def ruling_give(request, pk):
    """Give a ruling saved as a draft."""
    if request.method != "POST":
        return redirect("ruling", pk)
    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    if not selectors.can_rule(request.user, ruling.tournament):
        raise PermissionDenied(_("Only a director or chief director of this tournament gives rulings."))
    try:
        services.give_ruling(ruling=ruling, by=request.user)
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            for message in messages:
                django_messages.error(request, f"{field}: {message}")
    else:
        django_messages.success(request, _("The ruling was given."))
    return redirect("ruling", pk)


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
    # The letters of the page's language when the authority prefers national ones (scoring/i18n.py).
    ranks = rank_letters(rank_preference(ruling.result.board.session.event.tournament))
    svg = hand_diagram_svg(record.deal, dealer=record.dealer, vulnerability=record.vulnerability,
                           board_number=record.board, auction=record.auction if ruling.auction else None,
                           title=str(ruling), ranks=ranks)
    return HttpResponse(svg, content_type="image/svg+xml")


@login_required
def ruling_list(request):
    params = {key: request.GET.get(key) or None for key in
              ("tournament", "session", "board", "director", "law", "kind", "state")}
    rulings = selectors.filtered_rulings(request.user, **params)[:500]
    visible = selectors.visible_rulings(request.user)
    return render(request, "rulings/ruling_list.html", {
        "rulings": rulings, "params": params, "kinds": Ruling.Kind.choices, "states": Ruling.State.choices,
        "tournaments": scoring_selectors.visible_tournaments(request.user),
        "directors": get_user_model().objects.filter(rulings__in=visible).distinct().order_by("last_name"),
        "sessions": Session.objects.filter(boards__results__rulings__in=visible).distinct().select_related("event"),
    })


def _board_record(ruling):
    from bridge.auction import Auction, BoardRecord
    from bridge.deals import parse_deal

    board = ruling.result.board
    auction = Auction.from_dict(ruling.auction) if ruling.auction else Auction(board.dealer, [])
    return BoardRecord(board=board.number, vulnerability=board.vulnerability, deal=parse_deal(ruling.deal_pbn()),
                       auction=auction)


@login_required
def ruling_pbn(request, pk):
    """The deal and auction as PBN, alerts, explanations and tempo as numbered notes."""
    from bridge.pbn_record import to_pbn

    ruling = _ruling_with_deal(request, pk)
    response = HttpResponse(to_pbn(_board_record(ruling)), content_type="application/x-chess-pbn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ruling-{ruling.number}.pbn"'
    return response
