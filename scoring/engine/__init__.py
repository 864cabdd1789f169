"""An alias kept for scorers' scripts: the score engine lives in ``bridge.engine``.

``python -m scoring.engine < board.json`` runs ``python -m bridge.engine`` (docs/scoring.md).
"""
