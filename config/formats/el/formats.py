"""Greek dates with the 24-hour clock of tournament timetables: Django's Greek formats use the
12-hour "P", which drops the minutes on the hour ("9 μμ."). The long form names the month in
the genitive ("1 Μαΐου 2026"), as a Greek date is written."""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j E Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
