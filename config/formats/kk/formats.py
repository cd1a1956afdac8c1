"""How Kazakh pages write dates and times (see config/formats/__init__.py)."""

DATE_FORMAT = "j E Y ж."
DATETIME_FORMAT = "j E Y ж., H:i"
SHORT_DATETIME_FORMAT = "j E, H:i"
MONTH_DAY_FORMAT = "j E"
SHORT_DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
