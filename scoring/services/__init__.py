"""Every write to the competition record.

Each service validates as a user would be told (``ValidationError`` naming the field), writes
in one transaction, and leaves nothing half-written when it refuses.

The package by concern: ``record`` (authorities, tournaments, who works there, events,
sessions, tables, players, contestants, boards, matches), ``results`` (table results, their
corrections, the official score), ``scores`` (effective scores), ``presets`` (an authority's
settings from a preset), ``match_penalties`` and ``vp_scales``; ``common`` holds what they
share. Every public name is importable from here.
"""

from scoring.services.checks import accept_score_check
from scoring.services.match_penalties import (
    TEAM_PENALTY_UNITS,
    add_match_penalty,
    add_table_penalty,
    cancel_match_penalty,
    check_match_penalty_unit,
    give_match_penalty,
    withdraw_match_penalty,
)
from scoring.services.presets import (
    Correction,
    apply_preset,
    apply_preset_corrections,
    authority_preset_code,
    create_authority_with_preset,
    preset_corrections,
)
from scoring.services.record import (
    add_round,
    add_rounds,
    add_table,
    add_tables,
    appoint_auditor,
    appoint_official,
    create_authority,
    create_board,
    create_event,
    create_match,
    create_session,
    create_session_section,
    create_tournament,
    ensure_role_groups,
    enter_contestant,
    grant_role,
    register_player,
    set_authority_setting,
    update_board,
    write_setting,
)
from scoring.services.results import (
    RESULT_FIELDS,
    ResultsRefused,
    correct_result,
    post_official_scores,
    record_result,
    record_results,
)
from scoring.services.scores import (
    describe_score,
    set_effective_score,
    team_adjustment_allowed,
    validate_effective_score,
)
from scoring.services.scoring_method import METHOD_KEYS, record_program_method, set_event_scoring_method
from scoring.services.uploads import confirm_upload_flag, correct_upload_row, upload_to_field
from scoring.services.vp_scales import VP_SCALE_NAME, add_vp_scale, set_event_vp_scale

__all__ = [
    "accept_score_check",
    "confirm_upload_flag",
    "correct_upload_row",
    "upload_to_field",
    "METHOD_KEYS",
    "record_program_method",
    "set_event_scoring_method",
    "RESULT_FIELDS",
    "TEAM_PENALTY_UNITS",
    "ResultsRefused",
    "VP_SCALE_NAME",
    "add_match_penalty",
    "add_round",
    "add_rounds",
    "add_table",
    "add_table_penalty",
    "cancel_match_penalty",
    "give_match_penalty",
    "add_tables",
    "add_vp_scale",
    "Correction",
    "apply_preset",
    "apply_preset_corrections",
    "authority_preset_code",
    "preset_corrections",
    "appoint_auditor",
    "appoint_official",
    "check_match_penalty_unit",
    "correct_result",
    "create_authority",
    "create_authority_with_preset",
    "create_board",
    "create_event",
    "create_match",
    "create_session",
    "create_session_section",
    "create_tournament",
    "describe_score",
    "ensure_role_groups",
    "enter_contestant",
    "grant_role",
    "post_official_scores",
    "record_result",
    "record_results",
    "register_player",
    "set_authority_setting",
    "write_setting",
    "set_effective_score",
    "set_event_vp_scale",
    "update_board",
    "validate_effective_score",
    "team_adjustment_allowed",
    "withdraw_match_penalty",
]
