"""English dates as read in the countries this project serves: the day before the month, the
month as a word so no reader mistakes 1/5 for 5 January, and the 24-hour clock of tournament
schedules. Django's own "en" formats are American (11/24/2026 2:30 p.m.)."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = r"H:i \o\n j F Y"  # "21:30 on 1 May 2026", the appeals' messages' form
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y H:i"
