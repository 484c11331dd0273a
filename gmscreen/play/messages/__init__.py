"""Message catalogs: the text of an error comes from its code, in the language asked for.

A refusal of the rules (`RequestError`) and of the quick-roll line (`QuickRollError`) carry a
code and parameters; the catalogs `fr.toml` and `en.toml` (English over the rules' own
`errors_en.toml`) turn them into words. Nothing reads a message back. A code a catalog does
not know (a third-party system's own) falls back to the English text, then to the code itself.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Mapping

from gmscreen.rules.errors import Catalog, RequestError, english

LANGUAGES = ("fr", "en")
DEFAULT = "fr"
_FOLDER = Path(__file__).parent
_loaded: dict[str, Catalog] = {}


def catalog(lang: str) -> Catalog:
    """One language's catalog, read on first use."""
    found = _loaded.get(lang)
    if found is None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
        with open(_FOLDER / f"{lang}.toml", "rb") as handle:
            data = tomllib.load(handle)
        found = _loaded[lang] = english().merged(data) if lang == "en" else Catalog(data)
    return found


def add_messages(lang: str, *, rules: Mapping[str, str] | None = None, line: Mapping[str, str] | None = None,
                 fields: Mapping[str, str] | None = None) -> None:
    """A third-party game's own codes and field names in one language (templates)."""
    cat = catalog(lang)
    cat.rules.update(rules or {})
    cat.line.update(line or {})
    cat.fields.update(fields or {})


def field_words(field: str, lang: str = DEFAULT) -> str:
    """`opponent_chance_dice` -> "dé de chance (opposant)"; an unknown field stays as it is."""
    return catalog(lang).field(field)


def rule_reason(exc: RequestError, lang: str = DEFAULT) -> str:
    """Why the rules refused, in `lang` (the English reason when the catalog lacks the code)."""
    return catalog(lang).reason(exc)


def rule_message(exc: RequestError, lang: str = DEFAULT) -> str:
    """What the tray says about a refused request: "dés : il faut exactement 6 dés, 3 donnés"."""
    return catalog(lang).message(exc)


def line_message(code: str, params: Mapping[str, Any], lang: str = DEFAULT) -> str:
    """A quick-roll refusal in `lang`, else in English, else the code itself."""
    for name in (lang, "en"):
        text = catalog(name).text("line", code, params)
        if text is not None:
            return text
    return code
