"""The laws and regulation clauses a ruling cites, checked against the edition in force."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core import policy
from core.i18n import translate
from core.retry import atomic_with_retry
from rulings.catalogue import sync_law_catalogue
from rulings.laws import CitationError, validate_citation
from rulings.models import LawEntry, RegulationClause, Ruling, RulingCitation
from rulings.services.common import edition_in_force

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@atomic_with_retry
def cite_laws(*, by: User, ruling: Ruling, laws: Iterable[str], regulations: Iterable[int] = ()) -> list[LawEntry]:
    """Replace the ruling's citations; every law must exist in the edition in force."""
    policy.require(by, "ruling", ruling)
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
