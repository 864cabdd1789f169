"""Readers for the files directors already have (PBN; LIN and USEBIO to come).

Each reader is plain Python: it turns a file into simple objects, or raises an error naming
the line and what is wrong, and leaves saving to the importer service.
"""
