"""The score engine: pure Python, no Django.

- ``contract``: Law 77 contract scores;
- ``scores``: what a result is worth to each direction, and its JSON form;
- ``matchpoints``: matchpointing a board (Law 78A), Neuberg, fouled boards, the session rule;
- ``imps``: the IMP scale, team boards, cross-IMPs, Butler;
- ``vp``: victory points (WBF 2013 continuous scale, discrete scales as data);
- ``ranking``: places with ties;
- ``rounding``: exact values and the roundings rules name.

``python -m bridge.engine < board.json`` scores one JSON document (docs/scoring.md).
"""
