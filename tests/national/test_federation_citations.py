"""A received ruling's citations (issue #32): laws by edition and citation, regulation clauses by
their natural key (the regulating authority, the regulation, the clause), with their text."""

import pytest

from audit import signing
from core import policy
from national.federation import bundle as bundles
from national.federation.models import ReceivedRecord
from rulings import services as rulings_services
from rulings.models import LawEntry, RegulationClause, RulingCitation
from scoring import services as scoring_services
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import deliver, register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

RULE_40 = "A call made after a break in tempo is judged by the director."


@pytest.fixture
def clauses(decided):  # noqa: F811
    """Rule 40 of the tournament's authority, and a Rule 40 of another authority (other text)."""
    authority = decided.record.authority
    decided.own = RegulationClause.objects.create(
        authority=authority, document="Tournament Rules", clause="40", text=RULE_40
    )
    decided.other_authority = scoring_services.create_authority(name="Other Federation", code="other", by=policy.SYSTEM)
    decided.foreign = RegulationClause.objects.create(
        authority=decided.other_authority, document="Tournament Rules", clause="40", text="Another body's rule 40."
    )
    decided.national = scoring_services.create_authority(name="National Bridge Body", code="nbb", by=policy.SYSTEM)
    return decided


def received_citations(origin, ruling):
    record = ReceivedRecord.objects.get(origin=origin, model="rulings.ruling", origin_pk=ruling.pk)
    return RulingCitation.objects.filter(ruling_id=record.local_pk).select_related("law", "regulation__authority")


def test_a_ruling_citing_a_regulation_clause_arrives_with_the_clause_and_its_text(clauses):
    rulings_services.cite_laws(
        ruling=clauses.ruling, by=clauses.ruling.director, laws=["16B1a"], regulations=[clauses.own.pk]
    )
    origin = register_self(clauses.national)
    status, answer = deliver(origin, bundles.build(clauses.record.tournament.pk))
    assert status == 200, answer
    cited = list(received_citations(origin, clauses.ruling))
    assert [c.law.number for c in cited if c.law] == ["16B1a"]
    (clause,) = [c.regulation for c in cited if c.regulation]
    # The national body's own clause, with the number and text received: not the other body's Rule 40.
    assert (clause.authority, clause.document, clause.clause, clause.text) == (
        clauses.national,
        "Tournament Rules",
        "40",
        RULE_40,
    )
    assert clause.pk not in (clauses.own.pk, clauses.foreign.pk)
    assert RegulationClause.objects.get(pk=clauses.foreign.pk).text == "Another body's rule 40."
    # Sent again: the same clause, none added.
    count = RegulationClause.objects.count()
    status, answer = deliver(origin, bundles.build(clauses.record.tournament.pk, answer["tree_size"]))
    assert status == 200 and RegulationClause.objects.count() == count


def test_a_clause_the_national_body_holds_already_is_the_one_cited(clauses):
    held = RegulationClause.objects.create(
        authority=clauses.national, document="Tournament Rules", clause="40", text=RULE_40
    )
    RegulationClause.objects.create(authority=clauses.national, document="Tournament Rules", clause="41")
    rulings_services.cite_laws(
        ruling=clauses.ruling, by=clauses.ruling.director, laws=["16B1a"], regulations=[clauses.own.pk]
    )
    origin = register_self(clauses.national)
    status, answer = deliver(origin, bundles.build(clauses.record.tournament.pk))
    assert status == 200, answer
    assert [c.regulation for c in received_citations(origin, clauses.ruling) if c.regulation] == [held]


def test_a_clause_of_another_authority_is_that_authoritys(clauses):
    # The origin's ruling cites the other body's Rule 40 (written there without the service's check).
    RulingCitation.objects.create(ruling=clauses.ruling, regulation=clauses.foreign)
    origin = register_self(clauses.national)
    status, answer = deliver(origin, bundles.build(clauses.record.tournament.pk))
    assert status == 200, answer
    assert [c.regulation for c in received_citations(origin, clauses.ruling) if c.regulation] == [clauses.foreign]


def test_a_clause_of_an_authority_the_desk_does_not_know_is_refused_naming_it(clauses):
    RulingCitation.objects.create(ruling=clauses.ruling, regulation=clauses.foreign)
    bundle = bundles.build(clauses.record.tournament.pk)
    (sent,) = bundle["regulations"].values()
    sent["authority_code"] = "elsewhere"
    bundle["signature"] = signing.private_key().sign(bundles.signed_part(bundle)).hex()
    citation = next(
        row for row in bundle["records"] if row["model"] == "rulings.rulingcitation" and row["fields"]["regulation"]
    )
    status, answer = deliver(register_self(clauses.national), bundle)
    assert (status, answer["refused"]) == (
        422,
        f"Record rulings.rulingcitation {citation['pk']}: it cites Tournament Rules 40 of the regulating "
        "authority elsewhere, which this desk does not know.",
    )


def test_a_law_missing_from_the_desks_catalogue_is_added_from_the_code(decided):  # noqa: F811
    """A desk whose catalogue copy lacks a cited law (emptied by hand, or an older release) was
    refused by the citation's CHECK constraint (neither a law nor a clause): it refreshes it."""
    bundle = bundles.build(decided.record.tournament.pk)
    pk, (edition, number) = next(iter(bundle["laws"].items()))
    LawEntry.objects.filter(edition=edition, number="16C2").delete()
    bundle["laws"][pk] = [edition, "16C2"]
    bundle["signature"] = signing.private_key().sign(bundles.signed_part(bundle)).hex()
    origin = register_self(decided.record.authority)
    status, answer = deliver(origin, bundle)
    assert status == 200, answer
    laws = [c.law.number for c in received_citations(origin, decided.ruling) if c.law]
    assert "16C2" in laws and LawEntry.objects.filter(edition=edition, number="16C2").exists()
