"""The national app's stored texts (see core/texts.py): the audit trail's summaries of a
casebook's steps, shown in the reader's language. A casebook's title is its editor's words,
shown as written.

Adding one: a code here, ``texts.text("national.<code>", ...)`` where the service writes it, its
translations in every .po file, and a test that writes it in English and reads it in Hebrew or
Greek (tests/national/test_stored_texts.py).
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from core.texts import Template, register, register_actions

TEXTS = {
    "compiled": Template(ngettext_lazy("%(title)s: %(n)s case", "%(title)s: %(n)s cases", "n")),
    "published": Template(
        ngettext_lazy("%(title)s: first edition, %(n)s case", "%(title)s: first edition, %(n)s cases", "n")
    ),
    "finalised": Template(_("%(title)s: final, sha256 %(digest)s")),
    "case_appeal": Template(_("case %(position)s: appeal %(appeal)s")),
    "case_field": Template(_("case %(position)s: %(field)s")),
    "case": Template(_("case %(position)s")),
}

register("national", TEXTS)


# The labels of this app's audit actions (core.texts.action_label: the national desk's trail).
AUDIT_ACTIONS = {
    "federation.received": _("Tournament received from another instance"),
    "federation.record_version": _("Record received in a new version"),
    "federation.carried": _("Push downloaded to carry"),
}
register_actions(AUDIT_ACTIONS)
