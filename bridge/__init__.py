"""The game itself, with no Django and nothing of the project: a scorer can use it alone.

- ``engine``: Law 77 contract scores, matchpoints, IMPs, cross-IMPs, Butler, VPs, rankings
  (``python -m bridge.engine < board.json``);
- ``deals``: deals, auctions' legality, double-dummy analysis (DDS through ``endplay``);
- ``pbn``: PBN files as scoring programs write them; ``pbn_record``: one board's PBN game as a
  ``BoardRecord``; ``lin``: BBO LIN strings and handviewer links;
- ``auction``: the board record, the auction with alerts and tempo, the play and claims;
- ``irregularities``, ``call_laws``, ``play_irregularities``: the auction as called and the play
  as played, with the Laws' options per edition (25-39, 49-57; docs/irregularities.md);
- ``diagrams``: hand diagrams and auctions as SVG and as rows for HTML;
- ``messages``: refusals as ``Message`` objects, translated at the Django boundary.
"""
