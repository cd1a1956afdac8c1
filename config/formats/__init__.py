"""Date and time formats, one module per language (FORMAT_MODULE_PATH): one way of writing a date
and a time in each language, always with a 24-hour clock.

Templates use the named formats only: DATE_FORMAT (a day of an event), DATETIME_FORMAT, and
SHORT_DATETIME_FORMAT / MONTH_DAY_FORMAT for times and days within the season, where the year
goes without saying. Kazakh writes the months in lower case (our Kazakh catalog names them).
"""
