"""Which victory-point scales a regulating authority's events may use, and what a scale's name
stands for (docs/scoring.md, "Victory points").

A name is one of the engine's shipped scales (``authority_settings.VP_SCALES``: the WBF 2013
continuous scales and the ACBL discrete ones) or an authority's own discrete scale
(``VictoryPointScale``), named "<authority code>:<name>" so that it can never be taken for a
shipped scale nor for another body's. The authority's ``vp_scale`` setting and an event's own
choice (``Event.vp_scale``) take the same names; the recalculation asks :func:`engine_scale`
for what to give the engine.
"""

from django.utils.translation import gettext as _

from bridge.engine import vp as engine_vp
from scoring.authority_settings import VP_SCALES, vp_scale_choices
from scoring.models import Event, RegulatingAuthority, VictoryPointScale


def own_scales(authority: RegulatingAuthority):
    return VictoryPointScale.objects.filter(authority=authority).select_related("authority", "created_by")


def choices(authority: RegulatingAuthority | None) -> tuple[str, ...]:
    """The names ``authority``'s setting and events may choose: the shipped scales, then its own."""
    return vp_scale_choices(authority)


def _own(authority: RegulatingAuthority, name: str) -> VictoryPointScale | None:
    code, colon, own_name = name.partition(":")
    if not colon or code != authority.code:
        return None
    return VictoryPointScale.objects.filter(authority=authority, name=own_name).first()


def engine_scale(authority: RegulatingAuthority, name: str):
    """What the engine is given for ``name``: a shipped scale's name, or the authority's own
    scale as a ``DiscreteScale`` read from its stored tables (checked when it was added)."""
    if name in VP_SCALES:
        return name
    own = _own(authority, name)
    if own is None:
        return name  # the engine refuses it, naming the field vp_scale
    return engine_vp.parse_scale({"name": own.choice, "max_vp": own.max_vp, "tables": own.tables})


def source(authority: RegulatingAuthority, name: str) -> str:
    """Where the numbers of the scale ``name`` come from."""
    if name in ("wbf2013-20", "wbf2013-30"):
        text = _("WBF 2013 continuous scale (Technical Report of the WBF Scoring Panel, 2013)")
        return text if name == "wbf2013-20" else _("%(scale)s, times 1.5 for 30 VPs") % {"scale": text}
    if name in engine_vp.SHIPPED_DISCRETE:
        return engine_vp.load_scale(engine_vp.DATA_DIR / engine_vp.SHIPPED_DISCRETE[name]).source
    own = _own(authority, name)
    return own.source if own else ""


def in_force(event: Event) -> dict[str, object]:
    """The event's scale: its name, its source, and whether the event chose it (else the
    authority's setting gives it)."""
    authority = event.tournament.authority
    name = event.regulations()["vp_scale"]
    return {"name": name, "source": source(authority, name), "chosen_by_event": bool(event.vp_scale)}
