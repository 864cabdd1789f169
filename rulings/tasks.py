"""Thin Celery tasks for rulings; each is safe to run twice."""

import logging

from celery import shared_task
from django.db import transaction

log = logging.getLogger(__name__)


@shared_task
def solve_deal(ruling_id):
    """Double-dummy tricks and par for the ruling's deal, for the director's judgement."""
    from rulings.models import Ruling
    from bridge.deals import DealError, double_dummy, par, parse_deal

    ruling = Ruling.objects.select_related("result__board").filter(pk=ruling_id).first()
    if ruling is None or not ruling.deal_pbn():
        return False
    board = ruling.result.board
    try:
        deal = parse_deal(ruling.deal_pbn())
        table = double_dummy(deal)
        best = par(deal, board.dealer, board.vulnerability)
    except DealError as error:
        Ruling.objects.filter(pk=ruling_id).update(double_dummy=None, double_dummy_error=str(error)[:300])
        return False
    Ruling.objects.filter(pk=ruling_id).update(double_dummy={"deal": deal.to_pbn(), "tricks": table, "par": best},
                                               double_dummy_error="")
    return True


def schedule_double_dummy(ruling):
    def send():
        try:
            solve_deal.apply_async(args=[ruling.pk], retry=False)
        except Exception:  # noqa: BLE001 - the table is a help, not part of the record
            log.warning("Broker unreachable: no double-dummy table for ruling %s yet.", ruling.pk, exc_info=True)

    transaction.on_commit(send)


@shared_task
def finalise_rulings():
    from rulings.services import finalise_rulings as finalise

    return finalise()
