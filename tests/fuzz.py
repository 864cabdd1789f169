"""How hard the property-based fuzz tests of the readers try.

``make test`` runs each with the bounded number of examples its ``@fuzz(n)`` names;
``make fuzz`` sets ``HYPOTHESIS_PROFILE=fuzz`` and each runs ``FUZZ_FACTOR`` times as many
(hypothesis's explicit ``max_examples`` would otherwise win over any profile).
"""

import os

from hypothesis import HealthCheck, settings

FUZZ = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
FUZZ_FACTOR = int(os.environ.get("FUZZ_FACTOR", "10"))


def examples(bounded):
    """``bounded`` examples in ``make test``, ``FUZZ_FACTOR`` times as many in ``make fuzz``."""
    return bounded * FUZZ_FACTOR if FUZZ else bounded


def fuzz(bounded, **extra):
    """``@settings`` for a fuzz test: no deadline (a slow machine is not a failure), and the
    example count above."""
    return settings(
        max_examples=examples(bounded),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        **extra,
    )
