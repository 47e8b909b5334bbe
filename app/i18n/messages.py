"""Server messages (API errors, socket errors) in the reader's language.

A message is written in English where it is raised, marked for extraction, and worded in the
reader's language only when it is sent, by :func:`localize` with the request's or the
socket's locale: the code raising it need not know who reads it, and a message raised once
(a table's refusal) may be read by two people in two languages.

* a fixed message: ``N_("no such table")``, a plain ``str`` (N_ only marks it);
* a message with values: ``Text(N_("a name has at most {most} letters"), most=24)``, a ``str``
  whose value is the English text, which also remembers its msgid and values, so that
  :func:`localize` words it again from the translated msgid (a value that is itself a
  :class:`Text` is worded in the reader's language too);
* a message that follows a count: ``Plural("{n} minute", "{n} minutes", n=5)``, worded in the
  reader's plural form.

:func:`localize` looks any ``str`` up in the catalog: a message that was never marked, or
that the catalog lacks, is sent as it was (English). The machine-readable ``code`` beside a
message never changes (docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

from app.i18n.catalogs import translations


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction (``make extract``); it is translated when sent."""
    return msgid


class Text(str):
    """A message with ``{name}`` values: its ``str`` is the English text; :func:`localize`
    words it in another language from ``msgid`` and ``values``."""

    msgid: str
    values: dict[str, Any]

    def __new__(cls, msgid: str, **values: Any) -> Text:
        made = super().__new__(cls, msgid.format(**values))
        made.msgid = msgid
        made.values = values
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # pickled whole (a cluster's forwarded answer)
        return (_rebuild, (self.msgid, self.values))


def _rebuild(msgid: str, values: dict[str, Any]) -> Text:
    return Text(msgid, **values)


class Plural(Text):
    """A message whose words follow a count: ``Plural("{n} minute", "{n} minutes", n=3)``
    (extracted as a plural entry: ``make extract`` reads ``Plural`` as ``ngettext``); its
    ``str`` is the English form for ``n``; :func:`localize` picks the reader's language's
    form (French and Italian have three)."""

    plural: str

    def __new__(cls, singular: str, plural: str, **values: Any) -> Plural:
        english = singular if values["n"] == 1 else plural
        made = str.__new__(cls, english.format(**values))
        made.msgid = singular
        made.plural = plural
        made.values = values
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_plural, (self.msgid, self.plural, self.values))


def _rebuild_plural(singular: str, plural: str, values: dict[str, Any]) -> Plural:
    return Plural(singular, plural, **values)


def said(err: BaseException) -> str:
    """The words an exception was raised with, kept as they were given (a :class:`Text`
    stays one: ``str(err)`` would give its English only)."""
    if err.args and isinstance(err.args[0], str):
        return err.args[0]
    return str(err)


def localize(message: Any, locale: str) -> Any:
    """``message`` in ``locale``: a :class:`Text` from its translated msgid (English if a
    translation drops or misspells a value; a value that is itself a :class:`Text` worded in
    ``locale`` too), any other ``str`` as its catalog entry; anything else (a list of
    validation problems) as it is."""
    catalog = translations(locale)
    if isinstance(message, Text):
        values = {
            name: localize(value, locale) if isinstance(value, Text) else value
            for name, value in message.values.items()
        }
        try:
            if isinstance(message, Plural):
                chosen = catalog.ngettext(message.msgid, message.plural, values["n"])
                return chosen.format(**values)
            return catalog.gettext(message.msgid).format(**values)
        except (KeyError, IndexError, ValueError):
            return str(message)
    if isinstance(message, str):
        return catalog.gettext(message) if message else message
    return message
