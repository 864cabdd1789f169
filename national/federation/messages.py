"""What publishing says, as codes and parameters (issue #32): a refusal of the national body, a
push cut on the way or ended. Both ends keep and send the code and its parameters, never the
text; each reader sees it rendered in their own language (``render``). The codes are stable: a
newer end may add some, and an older end shows the text the other end sent with it.
"""

from __future__ import annotations

from typing import Any

from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

MESSAGES: dict[str, Any] = {
    # The national body's refusals (verify.py, receive.py, api.py).
    "form": _("The bundle is not of the form this desk reads (%(format)s)."),
    "head_key": _("The tree head is signed with key %(key)s, not the key registered for %(origin)s (%(registered)s)."),
    "head_signature": _("The tree head's signature does not verify with the key registered for %(origin)s."),
    "head_older": _(
        "The tree head (%(size)s entries) is older than the last head received from %(origin)s (%(last)s entries)."
    ),
    "consistency_from": _(
        "The consistency proof starts from a head of %(from)s entries; the last head received from "
        "%(origin)s has %(last)s."
    ),
    "consistency": _(
        "The tree head of %(size)s entries is not consistent with the last head received from %(origin)s "
        "(%(last)s entries): the origin's trail was rewritten."
    ),
    # Tree heads witnessed (heads.py, issue #41).
    "head_fork": _(
        "The tree head of %(size)s entries differs from the head of %(size)s entries received before from "
        "%(origin)s: its trail forked."
    ),
    "head_rollback": _(
        "The tree head of %(size)s entries was signed after the head of %(last)s entries received from %(origin)s: "
        "its trail was rolled back."
    ),
    "heads_gap": _(
        "The tree head of %(size)s entries extends a head of %(from)s entries; the last head received from "
        "%(origin)s has %(last)s: send the heads after it."
    ),
    "heads_form": _("Head %(index)s: its %(field)s is missing or not valid (at most %(most)s heads a request)."),
    "entry_tournament": _("Entry #%(sequence)s (%(action)s): it is not an entry of this tournament."),
    "entry_hash": _("Entry #%(sequence)s (%(action)s): its content does not match its hash."),
    "entry_inclusion": _("Entry #%(sequence)s (%(action)s): it is not in the signed tree head of %(size)s entries."),
    "entry_differs": _("Entry #%(sequence)s (%(action)s): it differs from the entry #%(sequence)s received before."),
    "attachment_content": _('Attachment "%(name)s" of ruling %(ruling)s: the bundle holds no content for it.'),
    "attachment_size": _(
        'Attachment "%(name)s" of ruling %(ruling)s is %(size)s: the national body takes attachments of at most '
        "%(limit)s."
    ),
    "attachment_hash": _('Attachment "%(name)s" of ruling %(ruling)s: its content does not match its SHA-256.'),
    "signature": _(
        "The bundle's signature does not verify with the key registered for %(origin)s: it was changed on the way."
    ),
    "digest": _("The bundle's parts do not add up to its digest."),
    "record_target": _("Record %(model)s %(pk)s: it names %(target)s %(target_pk)s, which the bundle does not hold."),
    "record_clause_authority": _(
        "Record %(model)s %(pk)s: it cites %(document)s %(clause)s of the regulating authority %(code)s, which "
        "this desk does not know."
    ),
    "record_law": _(
        "Record %(model)s %(pk)s: it cites Law %(number)s (%(edition)s), which this desk's catalogue does not hold."
    ),
    "record_model": _("Record %(model)s %(pk)s: this desk does not receive such records."),
    "record_unaudited": _(
        "Record %(model)s %(pk)s: its %(field)s is not what its last audit entry (#%(sequence)s) says: the record "
        "was changed without an entry, or its entries were left out of the bundle."
    ),
    "entries_omitted": _(
        "Entries received before for this tournament are missing from the bundle: %(sequences)s. Every entry "
        "of the tournament must be sent."
    ),
    "no_tournament": _("The bundle holds no tournament %(tournament)s."),
    "no_part": _("No part of this bundle has arrived."),
    "parts_missing": _("Parts still missing: %(parts)s."),
    "token_missing": _("Give the organiser's token: Authorization: Bearer <token>."),
    "token_unknown": _("This token is not one the national body issued."),
    "token_revoked": _("This token was revoked."),
    "rate": _("Too many requests from this organiser: wait a minute."),
    "digest_form": _("A bundle is named by its SHA-256 in hex."),
    "parts_count": _("Say how many parts the bundle has: ?of=<parts>."),
    "part_bytes": _("A part may hold at most %(bytes)s bytes."),
    "bundle_bytes": _("A bundle may hold at most %(bytes)s bytes."),
    # The organiser's end (push.py, bundle.py): why a push stopped, and whether it is tried again.
    "connection_lost": _("%(step)s: the connection to the national body was lost (%(error)s); it is tried again."),
    "http_retry": _("%(step)s: the national body answered HTTP %(status)s; it is tried again."),
    "http_refused": _("%(step)s: the national body answered HTTP %(status)s."),
    "gave_up": ngettext_lazy(
        "%(step)s: stopped after %(attempts)s attempt. Publish it again to resume where it stopped (the parts "
        "the national body holds are not sent again).",
        "%(step)s: stopped after %(attempts)s attempts. Publish it again to resume where it stopped (the parts "
        "the national body holds are not sent again).",
        "attempts",
    ),
    "rebuilt": _("The national body holds a newer tree head than this bundle's: the bundle is built again."),
    "attachment_missing": _(
        'Attachment "%(name)s" of ruling %(ruling)s: its file %(file)s is missing from this instance\'s storage.'
    ),
    "trail_broken": _("This instance's audit trail does not verify (entry #%(sequence)s): nothing can be sent."),
    "head_ahead": _("The national body holds a head of %(known)s entries, more than this trail's %(size)s."),
    "national_text": _("The national body refused it: %(text)s"),
}

STEPS: dict[str, Any] = {
    "head": _("Asking the national body for its last tree head"),
    "heads": _("Sending the tree heads signed since the last one it holds"),
    "uploads": _("Asking which parts arrived"),
    "part": _("Sending part %(part)s of %(parts)s"),
    "commit": _("Having the bundle verified and stored"),
}

# Parameters given in bytes (``size_bytes`` for ``%(size)s``...), shown as a size in the reader's
# language.
SIZES = ("size", "limit")


def render(code: str, params: dict[str, Any] | None = None) -> str:
    """The message of ``code`` in the active language ("" for none). A code this end does not
    know shows the text sent with it (``params["text"]``)."""
    if not code:
        return ""
    values = dict(params or {})
    for name in SIZES:
        if isinstance(values.get(f"{name}_bytes"), int):
            values[name] = filesizeformat(values.pop(f"{name}_bytes"))
    if "step" in values:
        step = dict(values["step"]) if isinstance(values["step"], dict) else {"code": values["step"]}
        template = STEPS.get(step.pop("code", ""))
        values["step"] = str(template) % step if template is not None else ""
    template = MESSAGES.get(code)
    if template is None:
        return str(values.get("text", code))
    try:
        return str(template % values)  # a plural picks its form by the number in ``values``
    except (KeyError, TypeError, ValueError):
        return str(values.get("text", code))


def answer(code: str, **params: Any) -> dict[str, Any]:
    """An error answer of the national body: the text (in its language) for any client, and the
    code and parameters the organiser's instance keeps."""
    return {"error": render(code, params), "reason": code, "params": params}
