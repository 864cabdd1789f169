"""Results files in and out: ``session_import`` reads a PBN, USEBIO, LIN or Bridgemate file and
records it in an event (all or nothing, with a preview) through ``session_store``; ``export``
writes a session as PBN or USEBIO.

The readers themselves are plain Python in ``bridge/`` (pbn, usebio, bridgemate, interchange):
each turns a file into simple objects, or raises an error naming the line (or element, or row)
and what is wrong, and leaves saving to the importer service. See docs/formats.md.
"""
