"""Which regulating authority's own words a stored text is read in (appeals/terms.py).

A stored text is rendered from its code and values alone, so the page (or the notice) that shows
one says around the rendering whose terms its body kinds are named in: ``with
reading_for(tournament): ...``. This module holds only that moment's authority, and imports no
model: the models (a notification's ``shown``) and the terms both read it, and neither imports
the other for it.
"""

import contextlib
import contextvars

_reading_for: contextvars.ContextVar = contextvars.ContextVar("appeal_terms_reading_for", default=None)


def authority_of(where):
    """The regulating authority of ``where`` (an authority, or a tournament)."""
    return getattr(where, "authority", where)


def reading_authority():
    """The authority whose terms the texts being rendered use; None outside ``reading_for``."""
    return _reading_for.get()


@contextlib.contextmanager
def reading_for(where):
    """Within the block, stored texts name bodies in ``where``'s terms (an authority or a tournament)."""
    token = _reading_for.set(authority_of(where))
    try:
        yield
    finally:
        _reading_for.reset(token)
