"""How English pages write dates and times (see config/formats/__init__.py)."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j F, H:i"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
