"""How Russian pages write dates and times (see config/formats/__init__.py)."""

DATE_FORMAT = "j E Y г."
DATETIME_FORMAT = "j E Y г., H:i"
SHORT_DATETIME_FORMAT = "j E, H:i"
MONTH_DAY_FORMAT = "j E"
SHORT_DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
