"""Every write a director makes: record a ruling, cite laws, enter the adjusted score, give the
ruling (which starts the recalculation), and change it later with a reason.

A ruling reaches the scores only through ``scoring.services.set_effective_score``.

The package by concern: ``record`` (a ruling opened, its result attached, the seating),
``citations`` (laws and clauses cited), ``scores`` (the adjusted score and the outcome),
``penalties`` (Laws 90 and 91, cancelled by an appeal), ``effect`` (what the rulings in force
at a table do to its score), ``giving`` (given, superseded, made final), ``corrections`` (Law
82C and 79C corrections, changes with a reason), ``deals`` (the deal, the auction, the
double-dummy table), ``irregularities`` (an irregular call or card and the option chosen, issue
#28), ``poll`` (Law 16B1a), ``offline`` (a ruling drafted on a phone with no network, issue #31), ``attachments``, ``form`` (the ruling form's whole
path) and ``common`` (what they share). Every public name is importable from here.
"""

from rulings.services.attachments import ATTACHMENT_MAX_BYTES, ATTACHMENT_SIGNATURES, add_attachment
from rulings.services.checking import confirm_score
from rulings.services.citations import cite_laws
from rulings.services.common import REVISED_FIELDS, edition_in_force, ruling_name, snapshot
from rulings.services.corrections import change_ruling, correct_ruling
from rulings.services.deals import (
    attach_deal_and_auction,
    board_mismatches,
    enter_auction,
    read_deal_source,
    record_call_tempo,
    record_double_dummy,
    schedule_double_dummy,
)
from rulings.services.effect import IN_FORCE, board_penalties, rulings_in_force
from rulings.services.form import DRAFT_FIELDS, rule, update_draft
from rulings.services.giving import finalise_rulings, give_ruling
from rulings.services.irregularities import detected_irregularities, irregularity_options, record_irregularity
from rulings.services.offline import rule_from_phone
from rulings.services.penalties import DISCIPLINARY_UNITS, POINT_UNITS, add_penalty, cancel_penalties
from rulings.services.poll import parse_poll_lines, record_poll
from rulings.services.record import TableRuled, link_result, others_at_table, record_ruling, record_seating
from rulings.services.scores import ARTIFICIAL_CODES, build_adjusted_score, describe_contract, imps_allowed, set_outcome
from rulings.services.unauthorised import proposed_score, record_unauthorised_information

__all__ = [
    "TableRuled",
    "detected_irregularities",
    "imps_allowed",
    "ARTIFICIAL_CODES",
    "ATTACHMENT_MAX_BYTES",
    "ATTACHMENT_SIGNATURES",
    "DISCIPLINARY_UNITS",
    "DRAFT_FIELDS",
    "IN_FORCE",
    "POINT_UNITS",
    "REVISED_FIELDS",
    "add_attachment",
    "add_penalty",
    "confirm_score",
    "attach_deal_and_auction",
    "board_mismatches",
    "board_penalties",
    "build_adjusted_score",
    "cancel_penalties",
    "change_ruling",
    "cite_laws",
    "correct_ruling",
    "enter_auction",
    "record_call_tempo",
    "describe_contract",
    "edition_in_force",
    "finalise_rulings",
    "give_ruling",
    "irregularity_options",
    "link_result",
    "others_at_table",
    "parse_poll_lines",
    "read_deal_source",
    "record_double_dummy",
    "record_irregularity",
    "record_unauthorised_information",
    "proposed_score",
    "record_poll",
    "record_ruling",
    "record_seating",
    "rule",
    "rule_from_phone",
    "ruling_name",
    "rulings_in_force",
    "schedule_double_dummy",
    "set_outcome",
    "snapshot",
    "update_draft",
]
