"""A player's rating chart, drawn on the server as SVG: one point per match at the moment it was
played, the uncertainty band, and a time axis whose labels never overlap.

The picture is laid out in its own units (``WIDTH`` by ``HEIGHT``) and scaled by the browser as a
whole, text included, so labels that do not overlap here overlap at no screen width. The time axis
picks the finest calendar step (minutes to years) whose ticks leave each label its width: matches
of one evening read "18:00 · 20:00" over the day's date, a season "Mar · Apr" over its year, years
"2025 · 2026". Each point is a
link to its match with its name in a ``<title>``; ``static/ratings/chart.js`` names the tapped one
under the chart. The points come from ``ratings.selectors.change_lines``: only matches the viewer
may see.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

#: Matches a chart draws at most (the newest).
CHART_MATCHES = 200
WIDTH, HEIGHT = 480, 270
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 14, 58  # room for the rating labels and two lines of time labels
FONT = 17  # in the picture's units: about 12 px on a 390 px phone, 20 px on a wide screen
CHAR = 0.62 * FONT  # a generous width of one character (digits, Latin and Cyrillic letters)
GAP = 18  # between two labels, at the least

HOUR = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)


@dataclass(frozen=True)
class ChartPoint:
    """A match on the chart: when, the rating after it and its deviation, its link and its name."""

    at: datetime.datetime
    rating: float
    deviation: float
    url: str
    name: str


@dataclass(frozen=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # the polyline's points
    band: str  # the polygon of rating ± deviation
    dots: list[tuple[float, float, ChartPoint]]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    axis_title: str  # the date or the years the time labels are in, "" when they say it themselves
    plot: tuple[float, float, float, float]  # left, top, right, bottom


def _label_width(text: str) -> float:
    return len(text) * CHAR


# Each step: its size in minutes or months, and how its labels read.
_SUB_DAY = [(m, "H:i") for m in (15, 30, 60, 120, 180, 360, 720)]
_DAYS = [(d, "j E") for d in (1, 2, 3, 5, 7, 14)]
_MONTHS = [(m, "M") for m in (1, 2, 3, 6)]
_YEARS = [(y, "Y") for y in (1, 2, 5, 10, 20, 50)]


def _sub_day_ticks(start: datetime.datetime, end: datetime.datetime, minutes: int) -> list[datetime.datetime]:
    step = datetime.timedelta(minutes=minutes)
    t = start.replace(hour=0, minute=0, second=0, microsecond=0)
    out = []
    while t <= end:
        if t >= start:
            out.append(t)
        t += step  # wall-clock time: the ticks stay on the hour across a change of offset
    return out


def _day_ticks(start: datetime.datetime, end: datetime.datetime, days: int) -> list[datetime.datetime]:
    first = start.date() + (DAY if start.time() != datetime.time(0) else datetime.timedelta(0))
    out, day = [], first
    while day <= end.date():
        out.append(_midnight(day, start.tzinfo))
        day += datetime.timedelta(days=days)
    return out


def _month_ticks(start: datetime.datetime, end: datetime.datetime, months: int) -> list[datetime.datetime]:
    out = []
    year, month = start.year, start.month
    while (year, month) <= (end.year, end.month):
        if (month - 1) % months == 0:
            t = _midnight(datetime.date(year, month, 1), start.tzinfo)
            if start <= t <= end:
                out.append(t)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def _year_ticks(start: datetime.datetime, end: datetime.datetime, years: int) -> list[datetime.datetime]:
    out = []
    for year in range(start.year, end.year + 1):
        t = _midnight(datetime.date(year, 1, 1), start.tzinfo)
        if year % years == 0 and start <= t <= end:
            out.append(t)
    return out


def _midnight(day: datetime.date, tz) -> datetime.datetime:
    naive = datetime.datetime.combine(day, datetime.time(0))
    return timezone.make_aware(naive, tz) if tz is not None else naive


def _steps():
    """Each step from the finest: its label format, its ticks, its size in days, what the title adds."""
    for minutes, fmt in _SUB_DAY:
        yield fmt, lambda s, e, m=minutes: _sub_day_ticks(s, e, m), minutes / 1440, "day"
    for days, fmt in _DAYS:
        yield fmt, lambda s, e, d=days: _day_ticks(s, e, d), days, "year"
    for months, fmt in _MONTHS:
        yield fmt, lambda s, e, m=months: _month_ticks(s, e, m), 30 * months, "year"
    for years, fmt in _YEARS:
        yield fmt, lambda s, e, y=years: _year_ticks(s, e, y), 365 * years, ""


def time_ticks(
    start: datetime.datetime,
    end: datetime.datetime,
    to_x: Callable[[datetime.datetime], float],
) -> tuple[list[Tick], str]:
    """The finest calendar step whose labels keep their width apart, with at least two ticks
    where any step fits two, and what the axis title must add: the day for hours, the year for
    days and months."""
    days = (end - start).total_seconds() / 86400
    most = (to_x(end) - to_x(start)) / (2 * CHAR + GAP)  # more ticks than this cannot fit
    lone: tuple[list[Tick], str] | None = None
    for fmt, ticks_of, size, title in _steps():
        if days / size > most + 1:
            continue  # far too many ticks: not worth laying out
        ticks = [Tick(round(to_x(t), 1), _label(t, fmt)) for t in ticks_of(start, end)]
        if len(ticks) > 1 and _apart(ticks):
            return ticks, _axis_title(start, end, title)
        if len(ticks) == 1 and lone is None:
            lone = (ticks, _axis_title(start, end, title))
    return lone if lone is not None else ([], _axis_title(start, end, "day"))


def _label(t: datetime.datetime, fmt: str) -> str:
    """A tick's label; a month step names January by its year, so months of several years never
    read alike."""
    if fmt == "M" and t.month == 1:
        return str(t.year)
    return formats.date_format(t, fmt)


def _apart(ticks: Sequence[Tick]) -> bool:
    for a, b in zip(ticks, ticks[1:], strict=False):
        if b.pos - a.pos < (_label_width(a.label) + _label_width(b.label)) / 2 + GAP:
            return False
    return True


def _axis_title(start: datetime.datetime, end: datetime.datetime, what: str) -> str:
    if what == "day":
        first, last = formats.date_format(start, "j E Y"), formats.date_format(end, "j E Y")
        return first if first == last else f"{first} – {last}"
    if what == "year":
        return str(start.year) if start.year == end.year else f"{start.year}–{end.year}"
    return ""


def _nice_step(span: float, most: int) -> float:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= most:
            return float(step)
    return float(10 ** math.ceil(math.log10(max(span, 1.0))))


def draw(points: Sequence[ChartPoint]) -> Chart | None:
    """The chart of these points (oldest first), or None when there are none."""
    if not points:
        return None
    left, top, right, bottom = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    times = [timezone.localtime(p.at) if timezone.is_aware(p.at) else p.at for p in points]
    t0, t1 = min(times), max(times)
    if t1 - t0 < HOUR:  # one evening's single match still gets an axis around it
        middle = t0 + (t1 - t0) / 2
        t0, t1 = middle - HOUR / 2, middle + HOUR / 2
    pad = (t1 - t0) * 0.04
    t0, t1 = t0 - pad, t1 + pad
    span = (t1 - t0).total_seconds()

    def to_x(t: datetime.datetime) -> float:
        return left + (right - left) * (t - t0).total_seconds() / span

    low = min(p.rating - p.deviation for p in points)
    high = max(p.rating + p.deviation for p in points)
    step = _nice_step(max(high - low, 10.0), 4)
    y0, y1 = math.floor(low / step) * step, math.ceil(high / step) * step
    if y1 - y0 < step:
        y1 = y0 + step

    def to_y(r: float) -> float:
        return bottom - (bottom - top) * (r - y0) / (y1 - y0)

    xy = [(round(to_x(t), 1), round(to_y(p.rating), 1), p) for t, p in zip(times, points, strict=True)]
    upper = [
        f"{round(to_x(t), 1)},{round(to_y(p.rating + p.deviation), 1)}"
        for t, p in zip(times, points, strict=True)
    ]
    lower = [
        f"{round(to_x(t), 1)},{round(to_y(p.rating - p.deviation), 1)}"
        for t, p in zip(times, points, strict=True)
    ]
    x_ticks, title = time_ticks(t0, t1, to_x)
    y_ticks = [
        Tick(round(to_y(y0 + i * step), 1), f"{y0 + i * step:.0f}")
        for i in range(int(round((y1 - y0) / step)) + 1)
    ]
    return Chart(
        WIDTH,
        HEIGHT,
        " ".join(f"{x},{y}" for x, y, _p in xy),
        " ".join(upper + lower[::-1]),
        xy,
        x_ticks,
        y_ticks,
        title,
        (left, top, right, bottom),
    )


def event_words(line) -> str:
    """Where a match of a changes line was played, in the reader's language."""
    if line.event:
        if line.round_number:
            return f"{line.event}, " + _("round %(n)s") % {"n": line.round_number}
        return line.event
    return str(_("uploaded record") if line.source == "upload" else _("casual match"))


def signed(change: float) -> str:
    """A change as the pages write it: +14, −3 (a real minus), 0 (no sign: a loss the rating kept
    where it was must not read as a gain)."""
    value = round(change)
    return f"−{-value}" if value < 0 else (f"+{value}" if value > 0 else "0")


def points_of(lines) -> list[ChartPoint]:
    """The chart's points from a player's changes (``ratings.selectors.change_lines``, newest
    first), oldest first, each named as its tap names it."""
    out = []
    for line in reversed(lines):
        at = timezone.localtime(line.played_at)
        name = " · ".join(
            (
                formats.date_format(at, "j E Y, H:i"),
                event_words(line),
                f"{line.score[0]}:{line.score[1]}",
                f"{signed(line.change)} → {line.after:.0f}",
            )
        )
        out.append(
            ChartPoint(
                line.played_at,
                line.after,
                line.deviation,
                reverse("archive:match", args=[line.match_id]),
                name,
            )
        )
    return out
