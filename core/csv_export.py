"""CSV that a spreadsheet opens as text, never as a formula (OWASP, "CSV Injection").

A cell beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula to
Excel, LibreOffice and Google Sheets, so a player named ``=HYPERLINK(...)`` could run one on an
auditor's machine. Every text cell that begins with one of them gets a leading single quote
(shown, but not evaluated), and every cell is quoted. Numbers stay numbers: a negative score is
written by the program, not typed by a user. Every CSV the project writes goes through
``writer``.
"""

import csv

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """``value`` as a CSV cell that cannot start a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _SafeWriter:
    def __init__(self, stream):
        self._writer = csv.writer(stream, quoting=csv.QUOTE_ALL)

    def writerow(self, row):
        return self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(stream):
    """A ``csv.writer`` on ``stream`` whose every cell is escaped as above."""
    return _SafeWriter(stream)
