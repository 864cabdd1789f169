"""The settings the Laws leave to a regulating authority, with their defaults and checks.

Each setting is data (see ``AuthoritySetting``): a value with the date it applies from, so that
a body can change its regulations without rewriting the history of earlier tournaments.
The defaults are the Laws' own where the Laws give one.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.kinds import EventKind

LAWS_EDITIONS = ("1997", "2007", "2017")
# bridge.engine.vp.scale_names(); the WBF's discrete 20-VP scale is data in scoring/vp_scales.py,
# registered with the engine when the app is ready.
VP_SCALES = ("wbf2013-20", "wbf2013-30", "wbf2013-discrete-20", "acbl-20", "acbl-30")
ROUNDINGS = ("exact", "0.1-half-to-average", "0.01-half-up")
WITHOUT_MERIT_SANCTIONS = ("none", "deposit", "deposit_and_penalty", "warning", "penalty")
RANKINGS = ("by-direction", "one-list")  # pairs that sat one way ranked by direction, or all together
CROSS_IMP_TOTALS = ("mean", "sum")  # bridge.engine.imps.cross_imps: per comparison, or over them all
BUTLER_ROUNDINGS = ("half-up", "half-down", "half-even", "half-away")  # half-away: the Scandinavian programs' rule
APPEALS_BODIES = ("committee", "referee", "reviewer", "director_panel", "none")
FURTHER_APPEAL = ("none", "binding", "advisory")
CARD_RANK_LETTERS = ("international", "national")  # core/i18n.py: A K Q J 10, or the reader's language's
CASEBOOK_NAMES = ("seats", "masterpoints", "names")
CHECKING_LEVELS = ("own_results", "full_travellers", "hand_records")  # scoring.deadlines.CHECKING_LEVELS
CLAIM_SUIT_ORDERS = ("top_down",)  # bridge.claims.SUIT_ORDERS: Law 70E2
TEAM_PENALTY_UNITS = ("vps", "imps", "vps_or_imps")  # scoring.models.MatchPenalty: VPs, IMPs, or either
# Law 92B gives the appeal period to the regulating authority and no one the power to extend it:
# whether the director in charge may (for a reason, after it has run) is the authority's to say.
APPEAL_EXTENSIONS = ("none", "director_in_charge")
# Law 40B2(a)(i): the regulating authority may allow, disallow or allow conditionally any special
# partnership understanding: it has a regulation of them, or allows any (no regulation).
SPECIAL_AGREEMENTS = ("regulated", "unrestricted")
MATCHPOINT_SCALES = ("2/1", "1/half")  # bridge.engine.matchpoints.SCALES: top 2(n-1), or n-1
# A board played fewer times than the session's most played: scaled with Neuberg, each missing
# result an average (ScoreBridge), or the board on its own top (BriAn).
FEWER_PLAYED = ("neuberg", "average", "own-top")
TOTALS = ("exact", "rounded-lines")  # a session's total: of the exact lines, or of the lines as rounded
PERCENT_ROUNDINGS = ("exact", "0.01-half-up")  # a session's percentage as ranked (EBUScore: two places)
ARTIFICIAL_SCORES = ("session-rule", "as-awarded")  # AVE+/AVE- under Law 12C2c, or as the program awarded them


def _int_range(low, high):
    def check(value):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValidationError(
                _("must be a whole number from %(low)s to %(high)s"), params={"low": low, "high": high}
            )

    return check


def _decimal_range(low, high):
    def check(value):
        try:
            number = Decimal(str(value))
        except (InvalidOperation, ValueError):
            raise ValidationError(_("must be a number")) from None
        if not Decimal(low) <= number <= Decimal(high):
            raise ValidationError(_("must be from %(low)s to %(high)s"), params={"low": low, "high": high})

    return check


def _butler_drop(value):
    """A number 0-10 at each end, or a named convention (bridge.engine.imps.BUTLER_TRIMS)."""
    from bridge.engine.imps import butler_trim_count
    from bridge.engine.scores import EngineInputError

    if isinstance(value, int) and not isinstance(value, bool):
        return _int_range(0, 10)(value)
    try:
        if not isinstance(value, str):
            raise EngineInputError("", "", "")
        butler_trim_count(value, 100)
    except EngineInputError:
        raise ValidationError(
            _("must be one of %(choices)s"),
            params={"choices": "0-10, none, one-each-end, one-each-end-from-3, field-size, 10%"},
        ) from None
    if value.endswith("%") and float(value[:-1]) > 50:
        raise ValidationError(_("must be from %(low)s to %(high)s"), params={"low": "0%", "high": "50%"})


def _choice(choices):
    def check(value):
        if value not in choices:
            raise ValidationError(_("must be one of %(choices)s"), params={"choices": ", ".join(choices)})

    return check


def _bool(value):
    if not isinstance(value, bool):
        raise ValidationError(_("must be true or false"))


VP_EVENT_KINDS = (EventKind.TEAMS_ROUND_ROBIN, EventKind.TEAMS_SWISS)


def _mapping_of_amounts(value):
    """``{"mp_pairs": "25%", "ko_teams": "6", "teams_rr": "1 VP"}``: a penalty per kind of event,
    in its units; "1 VP" (a penalty against the team in its match) at events scored in VPs."""
    if not isinstance(value, dict):
        raise ValidationError(_('must look like {"mp_pairs": "25%", "teams_rr": "6"}'))
    for kind, amount in value.items():
        if kind not in EventKind.values:
            raise ValidationError(_("'%(kind)s' is not a kind of event"), params={"kind": kind})
        text = str(amount).strip()
        if text.upper().endswith("VP"):
            if kind not in VP_EVENT_KINDS:
                raise ValidationError(
                    _("'%(kind)s' is not scored in VPs: give its penalty in its own units"), params={"kind": kind}
                )
            text = text[:-2]
        _decimal_range("0", "100")(text.strip().rstrip("%"))


def _further_deposit(value):
    if not isinstance(value, dict) or set(value) - {"currency", "amount"}:
        raise ValidationError(_('must look like {"currency": "GBP", "amount": "75.00"}'))
    if value.get("amount"):
        if not value.get("currency"):
            raise ValidationError(_("a deposit needs a currency"))
        _decimal_range("0", "100000")(value["amount"])


def _deposits(value):
    """``{"currency": "GBP", "amounts": {"teams_rr": "30.00", ...}}``; an empty mapping means none."""
    if not isinstance(value, dict) or set(value) - {"currency", "amounts"}:
        raise ValidationError(_('must look like {"currency": "GBP", "amounts": {"mp_pairs": "20.00"}}'))
    amounts = value.get("amounts", {})
    if amounts and not value.get("currency"):
        raise ValidationError(_("a deposit needs a currency"))
    for kind, amount in amounts.items():
        if kind not in EventKind.values:
            raise ValidationError(_("'%(kind)s' is not a kind of event"), params={"kind": kind})
        _decimal_range("0", "100000")(amount)


def _la_threshold(value):
    """``{"share": "1/5", "more_than": false, "counts": "considered", "table_action": ""}`` (Law
    16B1(b)'s "significant proportion" as the authority sets it: bridge.polls.Threshold); {} for
    none, the Laws' words alone."""
    from bridge.polls import COUNTS, fraction

    keys = {"share", "more_than", "counts", "table_action"}
    if not isinstance(value, dict) or set(value) - keys or not value.get("share"):
        raise ValidationError(
            _('must look like {"share": "1/5", "more_than": false, "counts": "considered", "table_action": "3/4"}')
        )
    for key in ("share", "table_action"):
        if value.get(key) in (None, "") and key == "table_action":
            continue
        try:
            fraction(value[key])
        except ValueError:
            raise ValidationError(_("%(key)s must be a share from 0 to 1, such as 1/5"), params={"key": key}) from None
    if not isinstance(value.get("more_than", False), bool):
        raise ValidationError(_("must be true or false"))
    _choice(COUNTS)(value.get("counts", "considered"))


def _measure_name(value):
    """The name of a lesser disciplinary measure (Law 91), as the regulation calls it."""
    if not isinstance(value, str) or len(value.strip()) > 100:
        raise ValidationError(_("must be a name of at most 100 characters"))


# The folder of the regulating-authority presets (scoring/presets/, one YAML file a body): the
# ``preset`` setting names one of its files. Read here, for the presets package imports this
# module to check each preset against the settings.
PRESETS_DIRECTORY = Path(__file__).resolve().parent / "presets"


def preset_codes():
    """The codes of the presets shipped in ``PRESETS_DIRECTORY``, "laws" (the Laws' defaults) first."""
    codes = sorted(path.stem for path in PRESETS_DIRECTORY.glob("*.yaml"))
    return sorted(codes, key=lambda code: code != "laws")


def _preset(value):
    if value != "" and value not in preset_codes():
        raise ValidationError(
            _("must be one of %(choices)s, or empty for none"), params={"choices": ", ".join(preset_codes())}
        )


def vp_scale_choices(authority):
    """The names ``authority``'s setting and events may choose: the shipped scales, then its own
    (``VictoryPointScale``, read through the authority's ``vp_scales``: the models import this
    module)."""
    if authority is None:
        return VP_SCALES
    own = authority.vp_scales.order_by("name").values_list("name", flat=True)
    return VP_SCALES + tuple(f"{authority.code}:{name}" for name in own)


NO_EMPTY = object()


@dataclass(frozen=True)
class SettingSpec:
    key: str
    label: str | Promise  # lazy: each reader's language
    default: object
    check: Callable[[Any], object]
    # What an empty value is stored as when the regulation may say "none" (no deposit, no
    # penalty, no preset); NO_EMPTY where a setting always needs a value.
    empty: object = NO_EMPTY
    # Where a body adds choices of its own (its VP scales): ``choices_for(authority)`` is every
    # choice that body may take, checked instead of ``check`` when the authority is known.
    choices_for: Callable[[Any], Sequence[str]] | None = None

    @property
    def may_be_empty(self):
        return self.empty is not NO_EMPTY


SPECS = {
    spec.key: spec
    for spec in [
        SettingSpec("laws_edition", _("Edition of the Laws in force"), "2017", _choice(LAWS_EDITIONS)),
        SettingSpec(
            "appeal_period_minutes",
            _("Appeal period after the official score (Law 92B), minutes"),
            30,
            _int_range(0, 7 * 24 * 60),
        ),
        SettingSpec(
            "correction_period_minutes",
            _("Correction period after the official score (Law 79C), minutes"),
            30,
            _int_range(0, 7 * 24 * 60),
        ),
        SettingSpec(
            "checking_requires",
            _(
                "What every player of the session must be able to see for its official score to count as made "
                "available for checking, which starts the correction and appeal periods (Laws 79C, 92B): their "
                "own results, the full travellers and standings, or those and the hand records"
            ),
            "full_travellers",
            _choice(CHECKING_LEVELS),
        ),
        SettingSpec(
            "second_director_check",
            _(
                "A director's adjusted score reaches the standings only once a second director of the tournament "
                "confirms it (who entered it, who confirmed it)"
            ),
            False,
            _bool,
        ),
        SettingSpec(
            "average_plus_percent", _("Average plus, percent of a top (Law 12C2)"), "60", _decimal_range("50", "100")
        ),
        SettingSpec(
            "average_minus_percent", _("Average minus, percent of a top (Law 12C2)"), "40", _decimal_range("0", "50")
        ),
        SettingSpec("average_plus_imps", _("Average plus at IMPs (Law 86A)"), 3, _int_range(0, 24)),
        SettingSpec("average_minus_imps", _("Average minus at IMPs, as a deduction (Law 86A)"), 3, _int_range(0, 24)),
        SettingSpec("weighted_scores_allowed", _("Weighted adjusted scores allowed (Law 12C1c)"), True, _bool),
        SettingSpec("weighted_max_components", _("Most components of a weighted score"), 5, _int_range(1, 10)),
        SettingSpec(
            "weight_decimals",
            _("Decimals allowed in a weight (fractions such as 1/3 always allowed)"),
            2,
            _int_range(0, 6),
        ),
        SettingSpec("deposits", _("Appeal deposits by kind of event"), {}, _deposits, empty={}),
        SettingSpec(
            "without_merit_sanction",
            _("Sanction for an appeal without merit (Law 92A)"),
            "none",
            _choice(WITHOUT_MERIT_SANCTIONS),
        ),
        SettingSpec("appeals_committee_size", _("Members of an appeals committee"), 3, _int_range(1, 9)),
        SettingSpec("butler_drop", _("Butler datum: results dropped at each end"), 1, _butler_drop),
        SettingSpec(
            "butler_rounding", _("Butler datum: how a 5 is rounded to 10"), "half-up", _choice(BUTLER_ROUNDINGS)
        ),
        SettingSpec(
            "ranking",
            _("Ranking: pairs that sat one way all session by direction (two fields), or all in one list"),
            "by-direction",
            _choice(RANKINGS),
        ),
        SettingSpec(
            "cross_imps",
            _("Cross-IMPs of a result: the mean over the comparisons, or their sum"),
            "mean",
            _choice(CROSS_IMP_TOTALS),
        ),
        SettingSpec(
            "vp_scale", _("Victory-point scale"), "wbf2013-20", _choice(VP_SCALES), choices_for=vp_scale_choices
        ),
        SettingSpec("rounding", _("Rounding of matchpoints"), "exact", _choice(ROUNDINGS)),
        SettingSpec(
            "fewer_played",
            _(
                "A board played fewer times: scaled with Neuberg, each missing result counted as an average, "
                "or scored on its own top"
            ),
            "neuberg",
            _choice(FEWER_PLAYED),
        ),
        SettingSpec(
            "totals",
            _("A session's total: the sum of the exact matchpoints, or of each line as rounded"),
            "exact",
            _choice(TOTALS),
        ),
        SettingSpec(
            "percent_rounding",
            _("A session's percentage: exact, or rounded to two places (a half up) and ranked so"),
            "exact",
            _choice(PERCENT_ROUNDINGS),
        ),
        SettingSpec(
            "artificial_scores",
            _(
                "Average plus and minus: raised or lowered to the side's session percentage (Law 12C2c), "
                "or kept as awarded"
            ),
            "session-rule",
            _choice(ARTIFICIAL_SCORES),
        ),
        SettingSpec(
            "appeals_body",
            _("Who hears appeals at the event (Law 93; none: the director in charge, 93A)"),
            "committee",
            _choice(APPEALS_BODIES),
        ),
        SettingSpec(
            "further_appeal", _("Further appeal to the regulating authority (Law 93C)"), "none", _choice(FURTHER_APPEAL)
        ),
        SettingSpec(
            "further_appeal_period_minutes",
            _("Further appeal period after the event's decision, minutes"),
            7 * 24 * 60,
            _int_range(0, 365 * 24 * 60),
            empty="",  # the EBU's: "no specific time limit of general application"
        ),
        SettingSpec(
            "decision_period_minutes",
            _(
                "Time to decide an appeal, minutes after it is lodged (empty: before the event's next session "
                "starts, a case of the last session at once)"
            ),
            "",
            _int_range(1, 30 * 24 * 60),
            empty="",  # the Laws set no time: the system's rule, the next session's start
        ),
        SettingSpec("further_appeal_deposit", _("Further appeal deposit"), {}, _further_deposit, empty={}),
        SettingSpec(
            "without_merit_penalty",
            _("Score penalty for an appeal without merit, by kind of event"),
            {},
            _mapping_of_amounts,
            empty={},
        ),
        SettingSpec(
            "casebook_names",
            _("Players, teams and captains in published casebooks: seats only, masterpoint rank, or names"),
            "seats",
            _choice(CASEBOOK_NAMES),
        ),
        SettingSpec(
            "absent_partner_deemed_to_agree",
            _("An absent partner is deemed to concur in an appeal (92D)"),
            False,
            _bool,
        ),
        SettingSpec(
            "card_rank_letters",
            _(
                "Card ranks shown as international letters (A K Q J 10) or national ones "
                "(those of the reader's language)"
            ),
            "international",
            _choice(CARD_RANK_LETTERS),
        ),
        SettingSpec(
            "matchpoint_scale",
            _("Matchpoint scale: 2 for each score beaten and 1 for each tie, or 1 and a half"),
            "2/1",
            _choice(MATCHPOINT_SCALES),
        ),
        SettingSpec(
            "team_penalty_units",
            _(
                "Procedural penalties against a team in a match: in VPs, in IMPs, or either "
                "(the director chooses; a knockout match always takes IMPs)"
            ),
            "vps_or_imps",
            _choice(TEAM_PENALTY_UNITS),
        ),
        SettingSpec(
            "late_corrections_allowed",
            _(
                "A score may be corrected after the correction period when the director and the organiser "
                "are satisfied beyond reasonable doubt that the record is wrong (Law 79C2; 2007 and 2017)"
            ),
            False,
            _bool,
        ),
        SettingSpec(
            "disciplinary_lesser_measure",
            _("A lesser disciplinary measure the regulations name (Law 91; empty: none)"),
            "",
            _measure_name,
            empty="",
        ),
        SettingSpec(
            "claim_suit_order",
            _(
                "Order in which the director deems a suit played when a claim statement did not give it "
                "(Law 70E2; 2007 and 2017; empty: none specified)"
            ),
            "",
            _choice(("", *CLAIM_SUIT_ORDERS)),
            empty="",
        ),
        SettingSpec(
            "appeal_period_extension",
            _(
                "Who may extend the appeal period after it has run (Law 92B gives the period to the regulating "
                "authority): no one, or the director in charge, with a reason"
            ),
            "director_in_charge",
            _choice(APPEAL_EXTENSIONS),
        ),
        SettingSpec(
            "special_agreements",
            _(
                "Special partnership understandings (Law 40B2(a)): restricted by the authority's regulation, "
                "or any allowed"
            ),
            "regulated",
            _choice(SPECIAL_AGREEMENTS),
        ),
        SettingSpec(
            "team_adjustment_in_imps",
            _(
                "In a team match, an adjusted score may be given as the board's result in IMPs or total points "
                "instead of a table score (Law 86D)"
            ),
            True,
            _bool,
        ),
        SettingSpec(
            "logical_alternative_threshold",
            _(
                "Logical alternatives from a poll (Law 16B1b): the share of the player's peers polled who must "
                "seriously consider (or choose) an action, and the share choosing the table action above which "
                "there is no other (empty: the Laws give no number)"
            ),
            {},
            _la_threshold,
            empty={},
        ),
        SettingSpec(
            "preset", _("Preset the regulations started from (scoring/presets; empty: none)"), "", _preset, empty=""
        ),
    ]
}


def clean_value(key, value, authority=None):
    """``value`` as setting ``key`` stores it; raise ValidationError (on ``value``) if it is not
    allowed. The one place that says whether a setting may be empty: an empty value (None, blank
    text, {} or [], as a form, the API or a preset file may send "none") is stored as the spec's
    own empty form where the spec allows one ("no deposit"), and refused elsewhere."""
    spec = SPECS.get(key)
    if spec is None:
        raise ValidationError({"key": _("'%(key)s' is not a setting") % {"key": key}})
    if _is_empty(value):
        if not spec.may_be_empty:
            raise ValidationError({"value": [f"{spec.label}: {_('cannot be empty: the regulation needs a value')}"]})
        return spec.empty
    check = spec.check
    if spec.choices_for is not None and authority is not None:
        check = _choice(spec.choices_for(authority))
    try:
        check(value)
    except ValidationError as error:
        raise ValidationError({"value": [f"{spec.label}: {message}" for message in error.messages]}) from None
    return value


def validate_setting(key, value):
    """Raise ValidationError (on ``value``) if ``value`` is not allowed for setting ``key``."""
    clean_value(key, value)


def _is_empty(value):
    return value is None or (
        isinstance(value, str | dict | list) and not (value.strip() if isinstance(value, str) else value)
    )


def defaults():
    return {key: spec.default for key, spec in SPECS.items()}
