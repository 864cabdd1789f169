"""Why a published case is alike, in the reader's words (issue #43): what a committee compares
first (the same irregularity or information, the same call or play after it, the same finding of
logical alternatives or not), then the laws and the kind of score; and, for the case shown beside
the first one, that it is the opposite outcome on alike facts.

``why`` reads the likeness tokens of ``national.likeness`` (``Ruler.alike``); no database."""

from django.utils.translation import gettext as _

MARKS = {
    "TEMPO": (
        lambda calls: _("The same hesitation at the same call (%(calls)s)") % {"calls": calls},
        lambda: _("The same irregularity: a hesitation"),
    ),
    "NOTE": (
        lambda calls: _("The same irregularity the director noted, at the same call (%(calls)s)") % {"calls": calls},
        lambda: _("The same irregularity: one the director noted"),
    ),
    "ALERT": (
        lambda calls: _("The same alert or explanation, of the same call (%(calls)s)") % {"calls": calls},
        lambda: _("The same irregularity: an alert or explanation"),
    ),
}


def _omission(name):
    return {
        "TRUMP": _("a trump"),
        "ENTRY": _("an entry"),
        "FINESSE": _("a finesse"),
        "SUIT": _("a suit or line of play"),
    }.get(name, name.lower())


def _calls(token):
    """``AT:TEMPO:3H-X`` -> ``3H – X`` (the bid before, then the call; ``–`` alone if none)."""
    bid, _sep, call = token.split(":", 2)[2].partition("-")
    return f"{bid} – {call}" if bid != "-" else call


def why(alike, shared_laws=(), *, subjects=(), score_kinds=(), kind="", opposite=False):
    """The reasons, most telling first: ``alike`` the tokens in common, ``shared_laws`` the case's
    citations in common as printed, ``subjects``, ``score_kinds`` and ``kind`` (of ruling) in
    common in the reader's words; ``opposite``: the case is the opposite outcome on the first
    one's facts."""
    reasons = []
    if opposite:
        reasons.append(_("The opposite outcome on alike facts: compare it with the case above"))
    calls = [t for t in alike if t.startswith("AT:") and t.count(":") == 2]
    marks = [t[3:] for t in alike if t.startswith("AT:") and t.count(":") == 1]
    for token in calls:
        reasons.append(MARKS[token.split(":")[1]][0](_calls(token)))
    for mark in marks:
        if not any(token.startswith(f"AT:{mark}:") for token in calls):
            reasons.append(MARKS[mark][1]())
    for token in alike:
        if token.startswith("OMIT:"):
            reasons.append(_("The claim left out the same: %(what)s") % {"what": _omission(token[5:])})
    if "LA:YES" in alike:
        reasons.append(_("The same finding: a logical alternative was found"))
    if "LA:NO" in alike:
        reasons.append(_("The same finding: no logical alternative"))
    if "WHO:OPENER" in alike or "WHO:OTHER" in alike:
        reasons.append(_("By the same side of the auction"))
    if shared_laws:
        reasons.append(_("The same laws: %(laws)s") % {"laws": ", ".join(shared_laws)})
    if subjects:
        reasons.append(_("The same subject: %(subjects)s") % {"subjects": ", ".join(subjects)})
    if kind:
        reasons.append(_("The same kind of ruling: %(kind)s") % {"kind": kind})
    if score_kinds:
        reasons.append(_("The same kind of score: %(kinds)s") % {"kinds": ", ".join(score_kinds)})
    return reasons
