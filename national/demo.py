"""The demo federation's casebook, built from the demo tournament's decided appeals."""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction

from appeals.models import Appeal
from national import casebooks
from rulings.models import Ruling


@transaction.atomic
def load_demo_casebook(tournament):
    """The demo federation's casebook of its decided appeals: published, commented, final."""
    auditor = get_user_model().objects.get(username="auditor")
    authority = tournament.authority
    at = max(a.decided_at for a in Appeal.objects.filter(ruling__result__board__session__event__tournament=tournament,
                                                            state=Appeal.State.DECIDED))
    casebook = casebooks.compile_casebook(
        authority=authority, by=auditor, title=f"{tournament.name}: appeals", now=at + datetime.timedelta(days=7),
        introduction="The decided appeals of the championship, with the players shown by seat only.",
        filters={"tournament": tournament.pk})
    casebooks.publish_casebook(casebook=casebook, by=auditor, now=at + datetime.timedelta(days=8))
    tempo = casebook.cases.get(appeal__ruling__kind=Ruling.Kind.UNAUTHORISED_INFORMATION)
    casebooks.write_commentary(case=tempo, by=auditor, now=at + datetime.timedelta(days=20), text=(
        "A clear example of weighting after a break in tempo: the committee agreed bidding on was suggested but "
        "judged how often the pair would have found the bid without it."), ruling_rating=60, decision_rating=80)
    other = casebook.cases.exclude(pk=tempo.pk).first()
    if other is not None:
        casebooks.write_commentary(case=other, by=auditor, now=at + datetime.timedelta(days=20), text=(
            "The system card settles it. Appellants should read their own card before appealing."),
            ruling_rating=90, decision_rating=90)
    casebooks.finalise_casebook(casebook=casebook, by=auditor, now=at + datetime.timedelta(days=21))
    return casebook
