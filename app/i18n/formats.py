"""Numbers, dates and times in a language's own forms, through Babel (CLDR): "1,234" in
English, "1.234" in Danish, Greek and Italian, "1 234" in French (a narrow no-break space).
The pseudo-locale writes them as English does."""

from __future__ import annotations

from datetime import date, datetime

from babel import dates, numbers

from app.i18n.locales import formatting_locale


def number(value: int | float, locale: str) -> str:
    """A number with the locale's grouping and decimal signs."""
    return numbers.format_decimal(value, locale=formatting_locale(locale))


def date_text(value: date | datetime, locale: str, style: str = "medium") -> str:
    """A date in the locale's ``style`` ("short", "medium", "long", "full")."""
    return dates.format_date(value, format=style, locale=formatting_locale(locale))


def datetime_text(value: datetime, locale: str, style: str = "medium") -> str:
    """A date and time in the locale's ``style`` (a naive datetime is read as UTC)."""
    return dates.format_datetime(value, format=style, locale=formatting_locale(locale))
