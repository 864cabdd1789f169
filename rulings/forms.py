"""The director's ruling form: the common cases in under a minute, on a phone."""

import re
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from rulings.models import Penalty, Ruling
from scoring.models import SEAT_CHOICES

SEATS = [("", "—"), *SEAT_CHOICES]
ARTIFICIAL = [("AVE+", _("Average plus")), ("AVE", _("Average")), ("AVE-", _("Average minus"))]
WEIGHT_ROWS = 5

# One result as rulings.services.scores.describe_contract words it: "3NT N +1", "4SX E =", "passed out".
RESULT_WORDS = re.compile(r"(\d)(NT|[CDHS])(X{0,2}) ([NESW]) (=|[+-]\d+)|passed out")


def _rows_of(words):
    """The (contract, declarer, tricks) rows a description names, in order."""
    rows: list[dict[str, Any]] = []
    for match in RESULT_WORDS.finditer(words or ""):
        if match.group(0) == "passed out":
            rows.append({"contract": "PASS", "declarer": "", "tricks": None})
            continue
        level, strain, doubled, declarer, over = match.groups()
        tricks = int(level) + 6 + (0 if over == "=" else int(over))
        rows.append({"contract": f"{level}{strain}{doubled}", "declarer": declarer, "tricks": tricks})
    return rows


def score_initial(ruling):
    """The adjusted score's fields of the form, as the director entered them, from a recorded
    ruling (to correct it, or to complete a draft): the contracts, declarers and tricks are read
    back from its description (written by rulings.services.scores), the weights from its score."""
    kind, score = ruling.score_kind, ruling.score or {}
    words = ruling.score_description or ""
    if kind == Ruling.ScoreKind.WEIGHTED:
        words = words.split("; E-W ")[0]  # the form weighs N-S's results
    rows = _rows_of(words)
    fields = {}
    if kind == Ruling.ScoreKind.ARTIFICIAL:
        return {"ns_artificial": score.get("ns"), "ew_artificial": score.get("ew")}
    if kind == Ruling.ScoreKind.IMPS:
        return {"imps": (score.get("ns") or {}).get("imps")}
    if kind in (Ruling.ScoreKind.ASSIGNED, Ruling.ScoreKind.SPLIT) and rows:
        fields.update({key: rows[0][key] for key in ("contract", "declarer", "tricks")})
        if len(rows) > 1:
            fields.update({f"ew_{key}": rows[1][key] for key in ("contract", "declarer", "tricks")})
    elif kind == Ruling.ScoreKind.WEIGHTED:
        weights = [weight for _points, weight in score.get("ns") or []]
        for index, (row, weight) in enumerate(zip(rows, weights, strict=False), start=1):
            fields.update({f"w{index}_{key}": row[key] for key in ("contract", "declarer", "tricks")})
            fields[f"w{index}_weight"] = weight
    elif kind == Ruling.ScoreKind.REDRESS and len(rows) == 3:
        for prefix, row in zip(("rd_table", "rd_normal", "rd_without"), rows, strict=True):
            fields.update({f"{prefix}_{key}": row[key] for key in ("contract", "declarer", "tricks")})
        fields["rd_non_offending"] = (score.get("ns") or {}).get("non_offending", "")
    return fields


# The choices of two fields, which a form narrows or widens by the regulations in force.
SCORE_KINDS = [("", "—"), *Ruling.ScoreKind.choices]
PENALTY_MEASURES = [
    ("points", _("points off the score (Law 91A)")),
    (Penalty.Unit.WARNING, _("warning")),
    (Penalty.Unit.FINE, _("fine")),
    (Penalty.Unit.SUSPENSION, _("suspension from the session")),
    (Penalty.Unit.DISQUALIFICATION, _("disqualification (with the tournament organiser's approval, Law 91B)")),
]


class RulingForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind of ruling"), choices=Ruling.Kind.choices)
    called_by = forms.ChoiceField(label=_("Called by"), choices=SEATS, required=False)
    # In the tournament's time zone (the views make it the current one while the form is read).
    called_at = forms.DateTimeField(
        label=_("Director called at"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    facts = forms.CharField(
        label=_("Facts"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text=_("Who called, when, what happened at the table."),
    )
    statement_ns = forms.CharField(label=_("N-S statement"), widget=forms.Textarea(attrs={"rows": 2}), required=False)
    statement_ew = forms.CharField(label=_("E-W statement"), widget=forms.Textarea(attrs={"rows": 2}), required=False)
    laws = forms.CharField(
        label=_("Laws"),
        help_text=_("e.g. 16B1a, 12C1c"),
        required=False,
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "list": "law-list"}),
    )
    ruling_text = forms.CharField(label=_("Ruling"), widget=forms.Textarea(attrs={"rows": 2}), required=False)
    reasoning = forms.CharField(label=_("Reasoning"), widget=forms.Textarea(attrs={"rows": 3}), required=False)
    outcome = forms.ChoiceField(
        label=_("Outcome"),
        choices=Ruling.Outcome.choices,
        widget=forms.RadioSelect,
        initial=Ruling.Outcome.RESULT_STANDS,
    )
    offending_side = forms.ChoiceField(
        label=_("Offending side"), required=False, choices=[("", "—"), ("NS", _("N-S")), ("EW", _("E-W"))]
    )
    score_kind = forms.ChoiceField(label=_("Adjusted score"), required=False, choices=SCORE_KINDS)
    # Assigned (and split: a second result for E-W)
    contract = forms.CharField(label=_("Contract"), required=False, max_length=6)
    declarer = forms.ChoiceField(label=_("Declarer"), choices=SEATS, required=False)
    tricks = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=13)
    ew_contract = forms.CharField(label=_("E-W contract"), required=False, max_length=6)
    ew_declarer = forms.ChoiceField(label=_("E-W declarer"), choices=SEATS, required=False)
    ew_tricks = forms.IntegerField(label=_("E-W tricks"), required=False, min_value=0, max_value=13)
    # Law 86D (a team match, where the authority allows): the board's result in IMPs
    imps = forms.CharField(
        label=_("IMPs to the team sitting N-S at this table"),
        required=False,
        max_length=8,
        help_text=_("E-W's team loses them; e.g. 5 or -3."),
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
    )
    # Artificial
    ns_artificial = forms.ChoiceField(label=_("N-S"), choices=ARTIFICIAL, required=False)
    ew_artificial = forms.ChoiceField(label=_("E-W"), choices=ARTIFICIAL, required=False)
    # Redress after a serious error (Law 12C1b): three results and the non-offending side.
    rd_table_contract = forms.CharField(label=_("Contract"), required=False, max_length=6)
    rd_table_declarer = forms.ChoiceField(label=_("Declarer"), choices=SEATS, required=False)
    rd_table_tricks = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=13)
    rd_normal_contract = forms.CharField(label=_("Contract"), required=False, max_length=6)
    rd_normal_declarer = forms.ChoiceField(label=_("Declarer"), choices=SEATS, required=False)
    rd_normal_tricks = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=13)
    rd_without_contract = forms.CharField(label=_("Contract"), required=False, max_length=6)
    rd_without_declarer = forms.ChoiceField(label=_("Declarer"), choices=SEATS, required=False)
    rd_without_tricks = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=13)
    rd_non_offending = forms.ChoiceField(
        label=_("Non-offending side"), required=False, choices=[("", "—"), ("NS", _("N-S")), ("EW", _("E-W"))]
    )
    # Penalty: procedural (Law 90, in the scores) or disciplinary (Law 91, no score value)
    penalty_kind = forms.ChoiceField(
        label=_("Penalty"),
        widget=forms.RadioSelect,
        initial=Penalty.Kind.PROCEDURAL,
        choices=Penalty.Kind.choices,
        required=False,
    )
    penalty_side = forms.ChoiceField(
        label=_("Penalty on"), required=False, choices=[("", "—"), ("NS", _("N-S")), ("EW", _("E-W"))]
    )
    penalty_amount = forms.DecimalField(label=_("Amount"), required=False, min_value=0, decimal_places=2)
    penalty_unit = forms.ChoiceField(
        label=_("Unit"),
        required=False,
        choices=[
            (Penalty.Unit.PERCENT_OF_TOP, _("percent of a top")),
            (Penalty.Unit.MATCHPOINTS, _("matchpoints")),
            (Penalty.Unit.IMPS, _("IMPs")),
            (Penalty.Unit.VPS, _("VPs")),  # at teams scored in VPs: off the team's match
        ],
    )
    penalty_measure = forms.ChoiceField(
        label=_("Measure"),
        required=False,
        choices=PENALTY_MEASURES,
    )
    penalty_fine = forms.DecimalField(label=_("Fine"), required=False, min_value=0, decimal_places=2)
    # Law 91B: who approved the disqualification for the tournament organiser, and when.
    penalty_approved_by = forms.CharField(
        label=_("Approved by the tournament organiser"), required=False, max_length=100
    )
    penalty_approved_at = forms.DateTimeField(
        label=_("Approved at"),
        required=False,
        help_text=_("Empty: now."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    penalty_player = forms.ChoiceField(label=_("Player"), required=False, choices=[("", "—")])
    penalty_offence = forms.CharField(label=_("Offence"), required=False, max_length=300)
    # The table's facts (Laws 84, 85), screens (the tray's delay and which side noticed it) and
    # the colleagues the director consulted.
    facts_agreed = forms.ChoiceField(
        label=_("The facts"),
        required=False,
        widget=forms.RadioSelect,
        initial="agreed",
        choices=[("agreed", _("agreed by both sides (Law 84)")), ("disputed", _("disputed (Law 85)"))],
    )
    screens = forms.BooleanField(label=_("Screens in use"), required=False)
    tray_delay_seconds = forms.IntegerField(
        label=_("Tray delay (seconds)"),
        required=False,
        min_value=0,
        max_value=600,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    noticed_by = forms.ChoiceField(
        label=_("Delay noticed by"), required=False, choices=[("", "—"), ("NS", _("N-S")), ("EW", _("E-W"))]
    )
    colleagues_consulted = forms.CharField(
        label=_("Colleagues consulted"),
        required=False,
        max_length=300,
        help_text=_("Who the director consulted before ruling, and on what."),
    )
    # Law 16B1a poll
    poll_question = forms.CharField(label=_("Question put to the players polled"), required=False, max_length=500)
    poll_votes = forms.CharField(
        label=_("Players polled and their actions"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "A. Cohen: pass; also double, 3S; peer"}),
        help_text=_(
            "One player a line: name, a colon, the action chosen; then, after a semicolon, 'also' and the other "
            "actions they seriously considered; then their level: peer, stronger, weaker or director (peer if not "
            "given)."
        ),
    )
    poll_table_action = forms.CharField(label=_("Action the partner chose"), required=False, max_length=40)
    # Law 83
    appeal_notice = forms.ChoiceField(
        label=_("Right to appeal (Law 83)"),
        required=False,
        widget=forms.RadioSelect,
        choices=Ruling.AppealNotice.choices,
        initial="",
    )
    # One ruling per table unless a director says otherwise (issue #41): shown where another
    # director has ruled at the table.
    further_ruling = forms.BooleanField(
        label=_("A further ruling on this table"),
        required=False,
        help_text=_("Recorded beside the ruling already given at this table, which stays as it is."),
    )
    # Attachment
    attachment = forms.FileField(
        label=_("Photo, system card or screenshot (image or PDF, at most 5 MB)"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": "image/*,application/pdf"}),
    )
    attachment_description = forms.CharField(label=_("What it shows"), required=False, max_length=200)
    # Deal and auction
    deal_source = forms.CharField(
        label=_("Deal and auction (BBO link, LIN or PBN)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false"}),
    )
    deal_file = forms.FileField(label=_("or a PBN or LIN file"), required=False)
    deal_override = forms.CharField(
        label=_("Accept a deal whose board, dealer or vulnerability differs, because"), required=False, max_length=500
    )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        upload = data.get("deal_file")
        if upload and not data.get("deal_source"):
            raw = upload.read(200_000)
            try:
                data["deal_source"] = raw.decode("utf-8")
            except UnicodeDecodeError:
                data["deal_source"] = raw.decode("latin-1")  # older programs write Latin-1
        return data

    def __init__(self, *args, players=(), lesser_measure="", imps_allowed=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not imps_allowed:  # Law 86D: only in a team match, where the authority allows it
            cast(forms.ChoiceField, self.fields["score_kind"]).choices = [
                choice for choice in SCORE_KINDS if choice[0] != Ruling.ScoreKind.IMPS
            ]
            del self.fields["imps"]
        cast(forms.ChoiceField, self.fields["penalty_player"]).choices = [
            ("", "—"),
            *[(str(p.pk), str(p)) for p in players],
        ]
        if lesser_measure:  # the regulations in force name one (Law 91)
            cast(forms.ChoiceField, self.fields["penalty_measure"]).choices = [
                *PENALTY_MEASURES[:2],
                (Penalty.Unit.LESSER, lesser_measure),
                *PENALTY_MEASURES[2:],
            ]
        self.players = {str(p.pk): p for p in players}
        for i in range(1, WEIGHT_ROWS + 1):
            self.fields[f"w{i}_contract"] = forms.CharField(required=False, max_length=6, label=_("Contract"))
            self.fields[f"w{i}_declarer"] = forms.ChoiceField(choices=SEATS, required=False, label=_("Declarer"))
            self.fields[f"w{i}_tricks"] = forms.IntegerField(
                required=False, min_value=0, max_value=13, label=_("Tricks")
            )
            self.fields[f"w{i}_weight"] = forms.CharField(
                required=False, max_length=10, label=_("Weight"), widget=forms.TextInput(attrs={"inputmode": "decimal"})
            )

    def decision(self):
        """What the form says, as rulings.services.rule takes it."""
        data = self.cleaned_data
        ns, ew = self.score_input()
        return dict(
            kind=data["kind"],
            laws=data["laws"],
            outcome=data["outcome"],
            score_kind=data["score_kind"],
            ns=ns,
            ew=ew,
            offending_side=data["offending_side"],
            penalty=self.penalty_input(),
            poll=self.poll_input(),
            deal_source=data["deal_source"],
            deal_override=data["deal_override"],
            called_by=data["called_by"],
            called_at=data["called_at"],
            facts=data["facts"],
            statement_ns=data["statement_ns"],
            statement_ew=data["statement_ew"],
            ruling_text=data["ruling_text"],
            reasoning=data["reasoning"],
            appeal_notice=data["appeal_notice"] or "",
            **self.table_input(),
        )

    def weight_rows(self):
        """The bound fields of each weighted row, for the template."""
        return [
            [self[f"w{i}_{part}"] for part in ("contract", "declarer", "tricks", "weight")]
            for i in range(1, WEIGHT_ROWS + 1)
        ]

    # The redress's three results: (prefix of the fields, key in the service's input, heading).
    REDRESS_ROWS = (
        ("rd_table", "table", _("The table result")),
        ("rd_normal", "normal_play", _("The result after normal play (the serious error included)")),
        ("rd_without", "without_infraction", _("The likely result without the infraction")),
    )

    def redress_rows(self):
        """Each redress row's heading and bound fields (contract, declarer, tricks), for the template."""
        return [
            (heading, [self[f"{prefix}_{part}"] for part in ("contract", "declarer", "tricks")])
            for prefix, _key, heading in self.REDRESS_ROWS
        ]

    def redress_input(self):
        data = self.cleaned_data
        redress: dict[str, Any] = {
            key: {part: data.get(f"{prefix}_{part}") for part in ("contract", "declarer", "tricks")}
            for prefix, key, _heading in self.REDRESS_ROWS
        }
        redress["non_offending"] = data.get("rd_non_offending") or ""
        return redress

    def weighted_input(self):
        rows = []
        for i in range(1, WEIGHT_ROWS + 1):
            data = {
                part: self.cleaned_data.get(f"w{i}_{part}") for part in ("contract", "declarer", "tricks", "weight")
            }
            if any(v not in (None, "") for v in data.values()):
                rows.append(data)
        return rows

    def score_input(self):
        """(ns, ew) in the form rulings.services.build_adjusted_score takes."""
        kind, data = self.cleaned_data.get("score_kind"), self.cleaned_data
        if kind == Ruling.ScoreKind.WEIGHTED:
            return self.weighted_input(), None
        if kind == Ruling.ScoreKind.ARTIFICIAL:
            return data.get("ns_artificial"), data.get("ew_artificial")
        if kind == Ruling.ScoreKind.REDRESS:
            return self.redress_input(), None
        if kind == Ruling.ScoreKind.IMPS:
            return data.get("imps"), None
        ns = {"contract": data.get("contract"), "declarer": data.get("declarer"), "tricks": data.get("tricks")}
        ew = None
        if data.get("ew_contract"):
            ew = {"contract": data["ew_contract"], "declarer": data.get("ew_declarer"), "tricks": data.get("ew_tricks")}
        return ns, ew

    def penalty_input(self):
        """The penalty as rulings.services.add_penalty takes it, or None."""
        data = self.cleaned_data
        if not data.get("penalty_side"):
            return None
        kind = data.get("penalty_kind") or Penalty.Kind.PROCEDURAL
        penalty = {
            "kind": kind,
            "side": data["penalty_side"],
            "offence": data.get("penalty_offence") or str(dict(Penalty.Kind.choices)[kind]),
        }
        if kind == Penalty.Kind.DISCIPLINARY:
            unit = data.get("penalty_measure") or Penalty.Unit.SUSPENSION
            penalty.update(unit=unit, player=self.players.get(data.get("penalty_player") or ""))
            if unit == Penalty.Unit.FINE:
                penalty["amount"] = data.get("penalty_fine")
            elif unit == "points":  # Law 91A: in the board's units, as a Law 90 penalty
                penalty.update(unit=data.get("penalty_unit"), amount=data.get("penalty_amount"))
            elif unit == Penalty.Unit.DISQUALIFICATION:
                penalty.update(
                    approved_by=data.get("penalty_approved_by") or "", approved_at=data.get("penalty_approved_at")
                )
        else:
            penalty.update(unit=data.get("penalty_unit"), amount=data.get("penalty_amount"))
        return penalty

    def table_input(self):
        """The table's facts, screens and consultation as the ruling services take them."""
        data = self.cleaned_data
        screens = bool(data.get("screens"))
        return {
            "facts_agreed": data.get("facts_agreed") != "disputed",
            "screens": screens,
            "tray_delay_seconds": data.get("tray_delay_seconds"),
            "noticed_by": data.get("noticed_by") or "",
            "colleagues_consulted": data.get("colleagues_consulted") or "",
        }

    def poll_input(self):
        from rulings.services import parse_poll_lines

        data = self.cleaned_data
        if not (data.get("poll_question") or data.get("poll_votes")):
            return None
        return {
            "question": data.get("poll_question", ""),
            "votes": parse_poll_lines(data.get("poll_votes")),
            "table_action": data.get("poll_table_action") or "",
        }

    def field_for(self, name):
        """The form field a service's refusal belongs to, so that it shows at the field the
        director sees (ns -> the contract, ns[2] -> the second weighted row, ...)."""
        kind = self.cleaned_data.get("score_kind") if hasattr(self, "cleaned_data") else ""
        penalty_kind = self.cleaned_data.get("penalty_kind") if hasattr(self, "cleaned_data") else ""
        measure = self.cleaned_data.get("penalty_measure") if hasattr(self, "cleaned_data") else ""
        if name in ("penalty_amount", "amount") and penalty_kind == Penalty.Kind.DISCIPLINARY and measure != "points":
            return "penalty_fine"  # a Law 91 fine's amount
        if name in self.fields:
            return name
        redress_keys = {f"ns.{key}": f"{prefix}_contract" for prefix, key, _heading in self.REDRESS_ROWS}
        if kind == Ruling.ScoreKind.REDRESS and (name in redress_keys or name == "ns"):
            return redress_keys.get(name, "rd_non_offending")
        if name.startswith("ns[") or name.startswith("ew["):
            return f"w{name[3:-1]}_contract" if name[3:-1].isdigit() else "score_kind"
        if kind == Ruling.ScoreKind.IMPS and name in ("ns", "ns.imps", "score") and "imps" in self.fields:
            return "imps"
        if name in ("ns", "ew"):
            if kind == Ruling.ScoreKind.ARTIFICIAL:
                return f"{name}_artificial"
            if kind == Ruling.ScoreKind.WEIGHTED:
                return "w1_contract"
            return "contract" if name == "ns" else "ew_contract"
        if name.startswith("ns.") or name == "score":
            return "score_kind"
        if name in ("penalties", "amount"):
            return "penalty_amount"
        if name == "unit":
            return "penalty_unit"
        return None


class CorrectionForm(RulingForm):
    """The ruling form again, for the correction of a ruling given: with its ground and reason."""

    correction_basis = forms.ChoiceField(
        label=_("Ground for the correction"), widget=forms.RadioSelect, choices=Ruling.CorrectionBasis.choices
    )
    correction_reason = forms.CharField(
        label=_("Why the ruling is corrected"), widget=forms.Textarea(attrs={"rows": 2})
    )
    # Law 79C2: after the correction period, where the regulations allow it.
    late_director = forms.CharField(label=_("Director"), required=False, max_length=100)
    late_organiser = forms.CharField(label=_("Tournament organiser"), required=False, max_length=100)
    late_statement = forms.CharField(
        label=_("Their statement"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Both are satisfied beyond reasonable doubt that the record is wrong, because..."),
    )

    def late_input(self):
        """The Law 79C2 statement as rulings.services.correct_ruling takes it, or None."""
        late = {key: self.cleaned_data.get(f"late_{key}") for key in ("director", "organiser", "statement")}
        return late if any(late.values()) else None


class TableJumpForm(forms.Form):
    """Board and table number, straight to the ruling form (during the auction, too)."""

    session = forms.ChoiceField(label=_("Session"))
    board = forms.IntegerField(label=_("Board"), min_value=1, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    section = forms.CharField(label=_("Section"), required=False, max_length=20)
    table = forms.IntegerField(label=_("Table"), min_value=1, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    round = forms.IntegerField(
        label=_("Round"), min_value=1, required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )

    def __init__(self, *args, sessions=(), **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["session"]).choices = [
            (str(s.pk), f"{s.event.tournament.name} · {s.event.name} · {s}") for s in sessions
        ]
