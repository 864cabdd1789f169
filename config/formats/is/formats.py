"""Django's Icelandic formats leave out the date-and-time ones, which then fall back to the
American defaults (11/24/2026 2:30 p.m.): the Icelandic order with the 24-hour clock instead."""

DATETIME_FORMAT = "j. F Y H:i"
SHORT_DATETIME_FORMAT = "j.n.Y H:i"
