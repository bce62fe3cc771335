"""Labels in the players' languages: gettext catalogues, locale negotiation, English fallback.

The catalogues are `tarok_service/locales/<locale>/LC_MESSAGES/tarok.po`, one per locale. They
are compiled in memory when first used (Babel reads the .po and writes the .mo that the standard
library's `gettext.GNUTranslations` loads), so there is no compiled file to go stale.

Message ids are symbolic: `<vocabulary>.<id>` ("contract.beggar", "phase.bidding") and
`text.<name>` for templates with `{placeholders}`. A rule set's own word lives under the
message context of its id (msgctxt "slovenian"); a context-free entry serves every rule set.
A label missing in the requested locale falls back to English and is counted.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

LOCALES = ("en", "sl", "cs", "de", "it", "fr")
DEFAULT_LOCALE = "en"
DOMAIN = "tarok"
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locales"
MAX_LOCALE_TEXT = 200  # longer locale requests are cut (an Accept-Language list is short)

Missing = Callable[[str, str], None]  # (locale, vocabulary kind) of a label not translated

_RANGE = re.compile(
    r"^\s*([A-Za-z]{1,8})(?:[-_][A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$"
)


def negotiate(text: str) -> str | None:
    """The best supported locale for a locale or Accept-Language text; None when `text` is
    empty, English when it names no supported language ("de-AT" -> "de", "*" -> "en")."""
    text = text[:MAX_LOCALE_TEXT].strip()
    if not text:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(text.split(",")):
        found = _RANGE.match(part)
        if found is None:
            continue
        try:
            weight = float(found[2]) if found[2] else 1.0
        except ValueError:
            continue
        lang = found[1].lower()
        if lang in LOCALES and weight > 0:
            ranked.append((-weight, i, lang))
    return min(ranked)[2] if ranked else DEFAULT_LOCALE


def po_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalogue(locale: str) -> gettext.NullTranslations:
    """The compiled catalogue of a supported locale."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(locale).open("rb") as f:
        parsed = read_po(f, locale=locale, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, parsed)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def _find(locale: str, context: str, key: str) -> str | None:
    cat = catalogue(locale)
    if context:
        found = cat.pgettext(context, key)
        if found != key:
            return found
    found = cat.gettext(key)
    return found if found != key else None


MAX_CACHED = 20_000
# (locale, context, message id) -> (label or None, whether it fell back to English)
_LOOKUPS: dict[tuple[str, str, str], tuple[str | None, bool]] = {}


class Labels:
    """Renders ids for one locale and one rule set (its message context)."""

    def __init__(self, locale: str, context: str = "", missing: Missing | None = None) -> None:
        self.locale = locale if locale in LOCALES else DEFAULT_LOCALE
        self.context = context
        self.missing = missing

    def lookup(self, key: str) -> str | None:
        """The label of a message id: this locale, else English (counted as missing)."""
        cache_key = (self.locale, self.context, key)
        hit = _LOOKUPS.get(cache_key)
        if hit is None:
            own = _find(self.locale, self.context, key)
            if own is not None:
                hit = (own, False)
            elif self.locale != DEFAULT_LOCALE:
                hit = (_find(DEFAULT_LOCALE, self.context, key), True)
            else:
                hit = (None, True)
            if len(_LOOKUPS) >= MAX_CACHED:
                _LOOKUPS.clear()
            _LOOKUPS[cache_key] = hit
        found, missed = hit
        if missed and self.missing is not None:
            self.missing(self.locale, key.partition(".")[0])
        return found

    def has(self, key: str) -> bool:
        """Whether this locale itself (no fallback) has a label for the message id."""
        return _find(self.locale, self.context, key) is not None

    def term(self, kind: str, ident: str) -> str:
        """The label of an id in a vocabulary; the id itself, readable, when none exists."""
        found = self.lookup(f"{kind}.{ident}")
        return found if found is not None else ident.replace("_", " ")

    def text(self, template_name: str, /, **values: object) -> str:
        """A template (`text.<name>`) with its `{placeholders}` filled."""
        template = self.lookup(f"text.{template_name}")
        if template is None:
            return " ".join(str(v) for v in values.values())
        return template.format(**values)

    def count(self, name: str, n: int) -> str:
        """A counted phrase (`count.<name>`) in the plural form the locale uses for `n`."""
        key = f"count.{name}"
        for locale in dict.fromkeys((self.locale, DEFAULT_LOCALE)):
            found = catalogue(locale).ngettext(key, key, n)
            if found != key:
                return found.format(n=n)
            if self.missing is not None and locale == self.locale:
                self.missing(self.locale, "count")
        return str(n)


MAX_REMEMBERED = 10_000


class SeatLocales:
    """The locale each seat asked for last, used when a later call names none (in memory:
    a restarted server forgets, and the seat's next call with a locale teaches it again)."""

    def __init__(self) -> None:
        self._chosen: dict[tuple[str, int], str] = {}

    def choose(self, table_id: str, seat: int | None, requested: str) -> str | None:
        """The locale for this call: the requested one (remembered for the seat), else the
        seat's remembered one, else None (the rule set's English)."""
        locale = negotiate(requested)
        if seat is None:
            return locale
        key = (table_id, seat)
        if locale is None:
            return self._chosen.get(key)
        if key not in self._chosen and len(self._chosen) >= MAX_REMEMBERED:
            self._chosen.clear()
        self._chosen[key] = locale
        return locale
