"""Every public write service asks the policy first (issue #38, core.policy.require): called by
a user the policy refuses, it raises PermissionDenied and writes nothing, whoever calls it (a
page, the API, the admin, a task, a command).

The services are found by walking the service modules, not listed by hand: a public function
that takes who acts (``by`` or ``director``) is called with a refused user; one that does not
must be named below as a read or as a step inside another service (which asks the policy).
So a new service that forgets cannot land.
"""

import importlib
import inspect
import pkgutil

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.apps import apps
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.test import override_settings

from appeals import services as appeals_services
from appeals.models import AppealPart, Body, Deposit, Filing, FurtherAppeal, Hearing, Recommendation
from core import policy
from national.federation import receive
from scoring.models import FieldUpload, UploadFlag
from tests.roles.world import build_world

PACKAGES = ("rulings.services", "scoring.services", "appeals.services")
MODULES = (
    "rulings.revokes",
    "appeals.terms",
    "national.casebooks",
    "national.printing",
    "national.federation.receive",
    "national.federation.push",
    "national.federation.heads",
    "national.federation.carried",
)
ACTORS = ("by", "director")

# Reads and pure helpers: they write nothing.
READS = {
    "appeals.services.common.appeal_name",
    "appeals.services.common.check_score_for",
    "appeals.services.common.check_votes",
    "appeals.services.common.checked_outcome",
    "appeals.services.common.locked",
    "appeals.services.common.refuse",
    "appeals.services.common.require_chief",
    "appeals.services.common.require_director",
    "appeals.services.common.require_director_or_sitting",
    "appeals.services.common.require_hearing_begun",
    "appeals.services.common.require_national_officer",
    "appeals.services.common.require_open",
    "appeals.services.common.require_own_seat",
    "appeals.services.common.require_sitting",
    "appeals.services.common.require_text",
    "appeals.services.common.ruling_name",
    "appeals.services.common.setting",
    "appeals.services.filings.appeal_period",
    "appeals.services.lodging.extension_allowed",
    "appeals.services.lodging.request_parts",
    "appeals.terms.body_kind",
    "scoring.services.presets.authority_preset_code",
    "scoring.services.presets.preset_corrections",
    "appeals.terms.term",
    "national.casebooks.build_content",
    "national.casebooks.can_edit",
    "national.casebooks.case_content",
    "national.casebooks.decided_appeals",
    "national.casebooks.digest",
    "national.casebooks.name_problems",
    "national.casebooks.text_field_labels",
    "national.casebooks.text_of",
    "national.casebooks.visible_casebooks",
    "national.federation.carried.downloads",
    "national.federation.carried.read",
    "national.federation.heads.alarms",
    "national.federation.heads.batch",
    "national.federation.heads.form_error",
    "national.federation.push.describe",
    "national.federation.push.part_bytes",
    "national.federation.push.target",
    "national.federation.push.waiting",
    "national.federation.receive.attachment_limit",
    "national.federation.receive.digest_of",
    "national.federation.receive.key_id_of",
    "national.federation.receive.last_head",
    "national.federation.receive.origin_for",
    "national.federation.receive.upload_hours",
    "national.federation.receive.upload_state",
    "national.printing.can_print_again",
    "national.printing.latest",
    "rulings.revokes.deemed_orders",
    "rulings.revokes.play_record",
    "rulings.revokes.trick_ruling",
    "rulings.services.common.edition_in_force",
    "rulings.services.common.jsonable",
    "rulings.services.common.penalty_errors",
    "rulings.services.common.ruling_name",
    "rulings.services.common.snapshot",
    "rulings.services.common.tournament_at",
    "rulings.services.deals.board_mismatches",
    "rulings.services.deals.read_deal_source",
    "rulings.services.effect.board_penalties",
    "rulings.services.giving.nobody_at_fault",
    "rulings.services.giving.needs_check",
    "rulings.services.effect.penalty_dict",
    "rulings.services.effect.rulings_in_force",
    "rulings.services.effect.rulings_counted",
    "rulings.services.irregularities.irregularity_options",
    "rulings.services.record.named_rulings",
    "rulings.services.record.others_at_table",
    "rulings.services.offline.result_fingerprint",
    "rulings.services.penalties.approval_missing",
    "rulings.services.poll.parse_poll_lines",
    "rulings.services.record.check_screens",
    "rulings.services.scores.build_adjusted_score",
    "rulings.services.scores.describe_contract",
    "rulings.services.unauthorised.proposed_score",
    "rulings.services.unauthorised.weighting_allowed",
    "rulings.services.scores.imps_allowed",
    "rulings.services.irregularities.detected_irregularities",
    "scoring.services.scores.team_adjustment_allowed",
    "scoring.services.common.in_words",
    "scoring.services.match_penalties.check_match_penalty_unit",
    "scoring.services.scores.describe_score",
    "scoring.services.scores.validate_effective_score",
}

# Steps inside another service, which has asked the policy for its own action (a ruling given,
# an appeal decided): the same helper serves several actions, so it does not ask again.
INSIDE = {
    "appeals.services.common.advance": "every appeal step",
    "appeals.services.common.apply_score": "the appeal decisions",
    "appeals.services.common.cancel_ruling_penalties": "the appeal decisions",
    "appeals.services.common.log_step": "every appeal step",
    "appeals.services.common.save_checked": "every appeal step",
    "appeals.services.common.settle_ruling": "the appeal decisions",
    "appeals.services.filings.attach": "lodge_appeal (from a request)",
    "appeals.services.filings.receive": "lodge_appeal, request_appeal, file_memo",
    "appeals.services.lodging.forfeit": "forfeit_deposit and find_without_merit",
    "national.federation.heads.bundle_alarm": "receive.commit (a bundle refused for its head)",
    "rulings.revokes.schedule_guide": "record_revoke, record_claim",
    "rulings.services.common.full_save": "every ruling step",
    "rulings.services.effect.apply_rulings": "give_ruling and the appeal decisions",
    "rulings.services.effect.sync_match_penalties": "give_ruling and the appeal decisions",
    "rulings.services.penalties.cancel_penalties": "the appeal decisions",
    "scoring.services.common.full_save": "every write to the competition record",
    "scoring.services.common.full_update": "every write to the competition record",
    "scoring.services.match_penalties.add_table_penalty": "give_ruling (a Law 90 penalty in a match)",
    "scoring.services.match_penalties.give_match_penalty": "add_match_penalty, an appeal judged without merit",
    "scoring.services.match_penalties.cancel_match_penalty": "withdraw_match_penalty, give_ruling",
    "scoring.services.record.write_setting": "set_authority_setting, apply_preset_corrections",
    "scoring.services.scores.set_effective_score": "give_ruling and the appeal decisions",
}

# The writes brought under the policy last (issue #38): each takes who acts and asks the policy
# first, so each is called below with a refused user. Named here so that none falls out of the
# check unseen (by losing its actor, or by being named a read).
FORMERLY_UNCHECKED = {
    "appeals.services.body.declare_conflict",
    "appeals.services.body.recuse",
    "appeals.services.hearing.record_vote",
    "appeals.services.decision.remind_decisions_due",
    "appeals.terms.set_term",
    "national.federation.push.give_up",
    "national.federation.push.run",
    "national.federation.push.set_target",
    "national.federation.receive.commit",
    "national.federation.receive.purge_stale_uploads",
    "national.federation.receive.receive_part",
    "national.printing.print_casebook",
    "scoring.services.match_penalties.add_match_penalty",
    "scoring.services.match_penalties.withdraw_match_penalty",
    "scoring.services.presets.apply_preset",
    "scoring.services.presets.create_authority_with_preset",
    "scoring.services.record.add_round",
    "scoring.services.record.add_rounds",
    "scoring.services.record.add_table",
    "scoring.services.record.add_tables",
    "scoring.services.record.appoint_auditor",
    "scoring.services.record.appoint_official",
    "scoring.services.record.create_authority",
    "scoring.services.record.create_board",
    "scoring.services.record.create_event",
    "scoring.services.record.create_match",
    "scoring.services.record.create_session",
    "scoring.services.record.create_session_section",
    "scoring.services.record.create_tournament",
    "scoring.services.record.ensure_role_groups",
    "scoring.services.record.enter_contestant",
    "scoring.services.record.grant_role",
    "scoring.services.record.register_player",
    "scoring.services.record.set_authority_setting",
    "scoring.services.record.update_board",
    "scoring.services.results.correct_result",
    "scoring.services.results.post_official_scores",
    "scoring.services.results.record_result",
    "scoring.services.results.record_results",
}


def _modules():
    found = []
    for name in PACKAGES:
        package = importlib.import_module(name)
        found += [importlib.import_module(f"{name}.{info.name}") for info in pkgutil.iter_modules(package.__path__)]
    return found + [importlib.import_module(name) for name in MODULES]


def public_functions():
    """{"module.name": function} of every public function the service modules define."""
    return {
        f"{module.__name__}.{name}": function
        for module in _modules()
        for name, function in vars(module).items()
        if inspect.isfunction(function) and function.__module__ == module.__name__ and not name.startswith("_")
    }


def actor_of(function):
    parameters = inspect.signature(function).parameters
    return next((name for name in ACTORS if name in parameters), None)


FUNCTIONS = public_functions()
CHECKED = sorted(
    name for name, function in FUNCTIONS.items() if actor_of(function) and name not in READS and name not in INSIDE
)


def test_every_public_function_of_a_service_module_is_checked_or_named():
    unnamed = sorted(
        name for name, function in FUNCTIONS.items() if not actor_of(function) and name not in READS | set(INSIDE)
    )
    assert unnamed == [], (
        "A write service takes who acts (by=) and calls core.policy.require first; a read or a "
        f"helper is named in READS or INSIDE: {unnamed}"
    )
    stale = sorted((READS | set(INSIDE) | FORMERLY_UNCHECKED) - set(FUNCTIONS))
    assert stale == [], f"No such function any more: {stale}"
    assert len(CHECKED) >= 100  # the ruling, appeal, casebook, record and federation services at least
    assert FORMERLY_UNCHECKED <= set(CHECKED), sorted(FORMERLY_UNCHECKED - set(CHECKED))


def _public_key():
    key = Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
    ):
        with transaction.atomic():
            built = build_world()
            a = built.sides["A"]
            heard, decided, further = a.appeals["heard"], a.appeals["decided"], a.appeals["further"]
            match = built.targets["match@A"].obj
            body = Body.objects.filter(appeal=a.appeals["seated"]).first()
            origin = receive.register_origin(
                name="Club", slug="club", authority=a.record.authority, public_key=_public_key(), by=policy.SYSTEM
            )
            receive.issue_token(origin, by=policy.SYSTEM)
            request = appeals_services.request_appeal(
                ruling=a.rulings["free"], player=a.players[0], by=built.users["player"], grounds="We ask"
            )
            upload = FieldUpload.objects.create(session=a.record.session, club="Riverside BC", rows=[])
            flag = UploadFlag.objects.create(upload=upload, row=0, board=1, table=1, code="far_from_field", params={})
            built.arguments = {
                "flag": flag,
                "ruling": a.rulings["draft"],
                "ruling_id": a.rulings["draft"].pk,
                "result": a.t1,
                "rows": [{"board": a.t1.board, "round": a.t1.round, "table": a.t1.table, "ns": a.t1.ns, "ew": a.t1.ew}],
                "board": a.t1.board,
                "table": a.t1.table,
                "round": a.t1.round,
                "session": a.record.session,
                "section": a.t1.table.section,
                "ns": a.t1.ns,
                "ew": a.t1.ew,
                "event": a.record.event,
                "tournament": a.record.tournament,
                "authority": a.record.authority,
                "appeal": heard,
                "player": a.players[0],
                "match": match,
                "team": match.home,
                "penalty": built.targets["match-penalty@A"].obj,
                "deposit": Deposit.objects.filter(appeal=heard).first(),
                "hearing": Hearing.objects.filter(appeal=heard).first(),
                "filing": Filing.objects.filter(appeal=heard).first(),
                "part": AppealPart.objects.filter(appeal=decided, kind="law").first(),
                "recommendation": Recommendation.objects.filter(appeal=decided).first(),
                "further_appeal": FurtherAppeal.objects.filter(appeal=further).first(),
                "request": request,
                "body": body,
                "member": body.members.first(),
                "user": built.users["outsider"],
                "casebook": built.targets["casebook:draft@A"].obj,
                "case": built.targets["case:draft@A"].obj,
                "origin": origin,
                "token": origin.tokens.get(),
            }
            yield built
            transaction.set_rollback(True)


def _rows():
    labels = {"core", "audit", "scoring", "rulings", "appeals", "national"}
    return {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models()
        if model._meta.app_label in labels
    }


# The record a step needs to reach its check of the person, where the step reads the case first
# (an appeal is judged without merit once it is decided and upheld).
OVERRIDES = {"appeals.services.decision.find_without_merit": {"appeal": "decided"}}


@pytest.mark.django_db
@pytest.mark.parametrize("name", CHECKED)
def test_a_user_the_policy_refuses_is_refused_and_nothing_is_written(world, name):
    function = FUNCTIONS[name]
    refused = world.users["outsider"]  # a player of no table, official nowhere
    arguments = {actor_of(function): refused}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name in arguments or parameter.kind in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL):
            continue
        required = parameter.default is parameter.empty
        if parameter.name in world.arguments and (required or parameter.default is None):
            arguments[parameter.name] = world.arguments[parameter.name]
        elif required:
            arguments[parameter.name] = object()  # never read: the policy refuses first
    for parameter, key in OVERRIDES.get(name, {}).items():
        arguments[parameter] = world.sides["A"].appeals[key]
    before = _rows()
    with transaction.atomic():
        with pytest.raises(PermissionDenied) as refusal:
            function(**arguments)
        assert _rows() == before
        transaction.set_rollback(True)
    assert str(refusal.value).strip(), "the refusal says why"
