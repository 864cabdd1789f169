"""Old timeline notes, notifications and the audit trail's summaries of appeals, written in English before they were kept as codes, are
read back into a code and its values (appeals/texts.py), so they too are shown in the reader's
language. A note is converted only when the code says exactly what was written (its English
reading is the stored text; a moment, written in the old "21:30 on 1 May 2026 (Europe/London)"
form, is read back and checked by its parts); anything else (a person's own words, a note written
in another language) stays as written."""

import datetime
import re
import zoneinfo

from django.db import migrations

KINDS = {
    "Appeals committee": "committee",
    "Single referee": "referee",
    "Reviewer (process and reasonableness only)": "reviewer",
    "Panel of directors": "director_panel",
    "Director in charge (Law 93A)": "director_in_charge",
    "Regulating authority's appeals body (Law 93C)": "national",
}
OUTCOMES = {"Ruling upheld": "uphold", "Ruling varied": "vary", "Ruling overturned": "overturn"}
SIDES = {"N-S": "NS", "E-W": "EW"}
HOW = {
    "lodged the appeal": "lodged",
    "agreed in person": "in_person",
    "agreed in writing or by message": "in_writing",
    "absent, deemed to agree by regulation": "deemed",
}
MODES = {"in person": "in_person", "by telephone": "phone", "by video": "video", "in writing": "written"}
DEPOSIT_STATES = {"Held": "held", "Returned": "returned", "Forfeited": "forfeited"}
ORIGINS = {
    "Appeal by a contestant": "player",
    "Referral by the director": "director",
    "Referral by the appeals body": "body",
}
ACTIONS = {
    "Appeal lodged": "lodged",
    "Referred by the director": "referred",
    "Concurrence recorded": "concurrence",
    "Statement recorded": "statement",
    "Statements agreed and locked": "statements_locked",
    "Deposit received": "deposit_received",
    "Deposit returned": "deposit_returned",
    "Deposit forfeited": "deposit_forfeited",
    "Withdrawal requested": "withdrawal_requested",
    "Withdrawal accepted": "withdrawn",
    "Body formed": "body_created",
    "Member appointed": "member_appointed",
    "Interests declared": "interests_declared",
    "Member recused": "recused",
    "Body constituted": "constituted",
    "Hearing scheduled": "hearing_scheduled",
    "Attendance recorded": "attendance",
    "Hearing record": "hearing_notes",
    "Vote recorded": "vote",
    "Law part decided by the director in charge": "law_part_decided",
    "Director's decision on law appealed to the body": "law_part_to_body",
    "Decided": "decided",
    "Found without merit": "without_merit",
    "Recommendation to the director": "recommendation",
    "Director answered a recommendation": "recommendation_answered",
    "Further appeal lodged": "further_lodged",
    "Further appeal decided": "further_decided",
}
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
MOMENT = r"(\d\d):(\d\d) on (\d{1,2}) (\w+) (\d{4}) \(([^)]+)\)"


def _one_of(mapping):
    return "(" + "|".join(re.escape(key) for key in sorted(mapping, key=len, reverse=True)) + ")"


def _moment(hour, minute, day, month, year, zone):
    """The old English form read back: {"at", "zone"} as appeals.texts.moment_param writes it."""
    try:
        tz = zoneinfo.ZoneInfo(zone)
        at = datetime.datetime(int(year), MONTHS.index(month) + 1, int(day), int(hour), int(minute), tzinfo=tz)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return None
    return {"at": at.isoformat(), "zone": zone}


def _named(code, **params):
    return {"code": f"appeals.{code}", "params": params}


def _ruling(number):
    return {"code": "appeals.ruling", "params": {"number": int(number)}, "text": f"Ruling {number}"}


def _appeal(number):
    return {"code": "appeals.appeal", "params": {"number": int(number)}, "text": f"Appeal {number}"}


def _sanction(text):
    if text == "no sanction":
        return _named("no_sanction")
    if text == "no deposit was held":
        return _named("no_deposit")
    match = re.fullmatch(r"deposit of (\S+) (\S+) kept", text)
    if match:
        return _named("deposit_kept", a=match[1], c=match[2])
    match = re.fullmatch(r"procedural penalty of (\S+) on " + _one_of(SIDES), text)
    if match:
        return _named("merit_penalty", p=match[1], side=SIDES[match[2]])
    match = re.fullmatch(r"warning recorded against (.*)", text, re.S)
    if match:
        return _named("merit_warning", names=match[1])
    return None


def note_code(action, note):
    """(code, params, has a moment) for an old English note, or None."""
    m = lambda pattern: re.fullmatch(pattern, note, re.S)  # noqa: E731
    if action == "body_created" and (g := m(_one_of(KINDS) + r" of (\d+)")):
        return "body_formed", {"kind": KINDS[g[1]], "n": int(g[2])}, False
    if action == "constituted" and (g := m(_one_of(KINDS) + r": (.*)")):
        return "constituted", {"kind": KINDS[g[1]], "names": g[2]}, False
    if action == "member_appointed":
        lower = {label.lower(): value for label, value in KINDS.items()}
        if g := m(r"(.+) \(chair\), " + _one_of(lower)):
            return "chair_appointed", {"member": g[1], "kind": lower[g[2]]}, False
        if g := m(r"(.+), " + _one_of(lower)):
            return "member_appointed", {"member": g[1], "kind": lower[g[2]]}, False
    if action == "interests_declared" and (g := m(r"(.+): no conflict")):
        return "no_conflict", {"member": g[1]}, False
    if action == "concurrence" and (g := m(r"(.+): " + _one_of(HOW))):
        return "concurrence", {"p": g[1], "how": HOW[g[2]]}, False
    if action == "statement":
        if note == "grounds":
            return "statement_grounds", {}, False
        if note == "respondents' statement":
            return "statement_respondents", {}, False
        if g := m(r"statements unlocked: (.*)"):
            return "statements_unlocked", {"reason": g[1]}, False
    if action == "deposit_received" and (g := m(r"(\S+) (\S+) \(" + _one_of(DEPOSIT_STATES) + r"\)")):
        return "deposit_received", {"amount": g[1], "currency": g[2], "state": DEPOSIT_STATES[g[3]]}, False
    if action == "withdrawal_requested" and (
        g := m(r"(.+?) asks to withdraw\. (.*) The body may still hear the case\.")
    ):
        return "withdrawal_requested", {"p": g[1], "reason": g[2]}, False
    if action == "hearing_scheduled" and (g := m(MOMENT + r", " + _one_of(MODES) + r"(?:, (.*))?")):
        when = _moment(*g.groups()[:6])
        if when is None:
            return None
        if g[8] is not None:
            return "hearing_at", {"when": when, "mode": MODES[g[7]], "place": g[8]}, True
        return "hearing", {"when": when, "mode": MODES[g[7]]}, True
    if action == "attendance" and (g := m(r"(.+) for " + _one_of(SIDES))):
        return "attendance", {"p": g[1], "side": SIDES[g[2]]}, False
    if action == "vote":
        lower = {label.lower(): value for label, value in OUTCOMES.items()}
        if g := m(r"(.+): " + _one_of(lower) + r"( \(dissent\))?"):
            return ("vote_dissent" if g[3] else "vote"), {"member": g[1], "vote": lower[g[2]]}, False
    if action == "law_part_decided" and (g := m(r"(.*): " + _one_of(OUTCOMES))):
        return "law_part_decided", {"question": g[1], "outcome": OUTCOMES[g[2]]}, False
    if action == "decided":
        if note == "decided by the director in charge on law":
            return "decided_on_law", {}, False
        if g := m(_one_of(OUTCOMES) + r"(?:: (.*))?"):
            if g[2] is not None:
                return "decided_score", {"outcome": OUTCOMES[g[1]], "score": g[2]}, False
            return "decided", {"outcome": OUTCOMES[g[1]]}, False
    if action == "without_merit" and (g := m(r"(.*) \(([^()]*)\)")):
        sanctions = [_sanction(part) for part in g[2].split("; ")]
        if all(sanctions):
            return "without_merit", {"reasons": g[1], "sanctions": sanctions}, False
    if action == "recommendation_answered" and (g := m(r"(accepted|declined): (.*)")):
        return f"recommendation_{g[1]}", {"response": g[2]}, False
    if action == "further_lodged" and (g := m(_one_of(ORIGINS) + r", (binding|advisory only): (.*)")):
        code = "further_lodged_binding" if g[2] == "binding" else "further_lodged_advisory"
        return code, {"origin": ORIGINS[g[1]], "grounds": g[3]}, False
    if action == "further_decided" and (g := m(_one_of(OUTCOMES) + r"( \(advisory\))?")):
        return ("further_decided_advisory" if g[2] else "decided"), {"outcome": OUTCOMES[g[1]]}, False
    if action == "referred" and (g := m(r"Ruling (\d+) referred by the director \(Law 83\)\.")):
        return "referred", {"r": _ruling(g[1])}, False
    if action == "lodged":
        pattern = (
            _one_of(SIDES) + r" \((.*?)\) appeal Ruling (\d+); lodged by (.*?)\."
            r"( The official score was not posted: the appeal clock had not started\.)?"
            r"(?: Late, within the extension to " + MOMENT + r": (.*))?"
        )
        if g := m(pattern):
            params = {"side": SIDES[g[1]], "c": g[2], "r": _ruling(g[3]), "p": g[4]}
            if g[5]:
                params["no_clock"] = True
            if g[6] is not None:
                params["until"], params["reason"] = _moment(*g.groups()[5:11]), g[12]
                return ("lodged", params, True) if params["until"] else None
            return "lodged", params, False
    return None


def notice_code(text):
    m = lambda pattern: re.fullmatch(pattern, text, re.S)  # noqa: E731
    if g := m(r"Appeal (\d+): you sit on it \(" + _one_of(KINDS) + r"\); the hearing is fixed next\."):
        return "notice_sits", {"n": int(g[1]), "body": KINDS[g[2]]}, False
    if g := m(r"Appeal (\d+) is heard at " + MOMENT + r"\."):
        when = _moment(*g.groups()[1:7])
        return ("notice_heard", {"n": int(g[1]), "when": when}, True) if when else None
    if g := m(r"Appeal (\d+): the body recommends a change; your answer is awaited \(Law 93B3\)\."):
        return "notice_recommendation", {"n": int(g[1])}, False
    if g := m(r"Appeal (\d+) is decided: " + _one_of(OUTCOMES) + r"\."):
        return "notice_decided", {"n": int(g[1]), "outcome": OUTCOMES[g[2]]}, False
    if g := m(r"Appeal (\d+) must be decided by " + MOMENT + r": less than an hour is left\."):
        when = _moment(*g.groups()[1:7])
        return ("notice_due", {"n": int(g[1]), "when": when}, True) if when else None
    return None


def summary_code(action, summary):
    """The audit trail's summary of an appeal's step or a request to appeal."""
    m = lambda pattern: re.fullmatch(pattern, summary, re.S)  # noqa: E731
    if action.startswith("appeal.") and (g := m(r"Appeal (\d+): " + _one_of(ACTIONS))):
        return "audit_step", {"appeal": _appeal(g[1]), "action": ACTIONS[g[2]]}, False
    if action == "appeal_request.made" and (g := m(r"(.+) asks to appeal Ruling (\d+)")):
        return "audit_request", {"p": g[1], "r": _ruling(g[2])}, False
    if action == "appeal_request.declined" and (g := m(r"request to appeal Ruling (\d+) declined")):
        return "audit_request_declined", {"r": _ruling(g[1])}, False
    return None


def _checked(found, stored):
    """The code and values if they say what was stored (in English), else None."""
    from core.texts import english

    if found is None:
        return None
    code, params, has_moment = found
    code = f"appeals.{code}"
    return (code, params) if has_moment or english(code, params) == stored else None


def forwards(apps, schema_editor):
    AppealEvent = apps.get_model("appeals", "AppealEvent")
    Notification = apps.get_model("appeals", "Notification")
    for event in AppealEvent.objects.filter(note_code="").exclude(note="").iterator():
        found = _checked(note_code(event.action, event.note), event.note)
        if found:
            event.note_code, event.note_params = found
            event.save(update_fields=["note_code", "note_params"])
    for notice in Notification.objects.filter(code="").iterator():
        found = _checked(notice_code(notice.text), notice.text)
        if found:
            notice.code, notice.params = found
            notice.save(update_fields=["code", "params"])

    # The audit trail's entries keep what is hashed; the code goes beside it (audit/models.py).
    AuditEntry = apps.get_model("audit", "AuditEntry")
    entries = AuditEntry.objects.filter(summary_code="", action__startswith="appeal")
    for entry in entries.exclude(summary="").iterator():
        found = _checked(summary_code(entry.action, entry.summary), entry.summary)
        if found:
            entry.summary_code, entry.summary_params = found
            entry.save(update_fields=["summary_code", "summary_params"])


def backwards(apps, schema_editor):
    apps.get_model("appeals", "AppealEvent").objects.update(note_code="", note_params={})
    apps.get_model("appeals", "Notification").objects.update(code="", params={})
    apps.get_model("audit", "AuditEntry").objects.filter(action__startswith="appeal").update(
        summary_code="", summary_params={}
    )


class Migration(migrations.Migration):
    dependencies = [("appeals", "0007_stored_texts_as_codes"), ("audit", "0002_stored_texts_as_codes")]

    operations = [migrations.RunPython(forwards, backwards)]
