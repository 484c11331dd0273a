"""Message catalogs: the text of an error comes from its code, in the language spoken.

A refusal of the rules (`RequestError`) and of the quick-roll line (`QuickRollError`) carry a
code and parameters. The English template of each code is the msgid: the rules' own
`errors_en.toml` and, for the quick-roll line, `en.toml` here (code -> English). gettext gives
the template of the language spoken (`gmscreen/i18n/po/<lang>/errors.po`, msgctxt
`rules:<code>` / `line:<code>`) and the rules' `Catalog` renders it (plurals, conditionals,
type words). Nothing reads a message back. A code no catalog knows (a third-party system's
own) falls back to its English text, then to the code itself.
"""

from __future__ import annotations

import gettext
import tomllib
from pathlib import Path
from typing import Any, Mapping

from gmscreen import i18n
from gmscreen.rules.errors import Catalog, RequestError, english

LANGUAGES = i18n.LANGUAGES
_FOLDER = Path(__file__).parent
# Request fields as the GM knows them (msgctxt "request field"; English says the field's name).
FIELDS = ("dice", "rolls", "pool", "modifier", "penalty", "difficulty", "threshold", "skill", "voie", "stat",
          "bonus", "impulsions", "impulse_bonus", "helper_dice", "helper_pools", "helper_skills", "chance_dice",
          "malchance_dice", "providence_dice", "negative_dice", "use_providence", "characteristic",
          "simultaneous_actions", "die", "die_shift", "reroll_limit", "negative_die", "providence_die",
          "open_negative_die", "skill_level", "malus", "defender_reacts", "initiator", "interval",
          "level3_second_zero", "single_zero", "max_tests", "test_modifiers", "open_roll", "parry", "policy", "target", "system",
          "kind", "request", "hidden", "expression")
# The side of a contest, said after the field (msgctxt "request side").
SIDES = {"actor_": "actor", "opponent_": "opponent"}
# Which counts take the singular word ({n:roll|rolls}): French says "0 relance", "1 relance".
SINGULAR = {"fr": (0, 1), "en": (1,), i18n.PSEUDO: (1,)}
_loaded: dict[str, Catalog] = {}


def _english_line() -> dict[str, Any]:
    with open(_FOLDER / "en.toml", "rb") as handle:
        return tomllib.load(handle)


def _translation(lang: str) -> gettext.NullTranslations:
    if lang == i18n.language():
        return i18n._translation
    return i18n.catalog_for(lang)


def catalog(lang: str | None = None) -> Catalog:
    """The catalog of `lang` (default: the language spoken): the English templates, rendered
    through that language's gettext catalog."""
    lang = lang or i18n.language()
    if lang not in LANGUAGES and lang != i18n.PSEUDO:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    found = _loaded.get(lang)
    if found is None:
        data = _english_line()
        found = english().merged(data)
        found.fields.update({name: name for name in FIELDS})
        found.sides.update(SIDES)
        found.singular = frozenset(SINGULAR[lang])
        _loaded[lang] = found
    # The translation object is looked up each time: the language may change live.
    found.translation = _translation(lang)
    return found


def add_messages(lang: str, *, rules: Mapping[str, str] | None = None, line: Mapping[str, str] | None = None,
                 fields: Mapping[str, str] | None = None) -> None:
    """A third-party game's own codes and field names in one language (templates): the one
    door. In English they are also what `str(RequestError)` says (`rules.errors.add_english`)."""
    if lang == "en" and rules:
        from gmscreen.rules.errors import add_english

        add_english(rules)
    own = catalog(lang).own
    own["rules"].update(rules or {})
    own["line"].update(line or {})
    own["fields"].update(fields or {})


def field_words(field: str, lang: str | None = None) -> str:
    """`opponent_chance_dice` -> "dé de chance (opposant)"; an unknown field stays as it is."""
    return catalog(lang).field(field)


def rule_reason(exc: RequestError, lang: str | None = None) -> str:
    """Why the rules refused, in `lang` (default: the language spoken; the English reason when
    no catalog has the code)."""
    return catalog(lang).reason(exc) + _failed_plugins(exc)


def rule_message(exc: RequestError, lang: str | None = None) -> str:
    """What the tray says about a refused request: "dés : il faut exactement 6 dés, 3 donnés"."""
    return catalog(lang).message(exc) + _failed_plugins(exc)


def _failed_plugins(exc: RequestError) -> str:
    """An unknown system is said with the packages that failed to load (one of them may be it)."""
    if exc.code != "unknown_system":
        return ""
    from gmscreen.rules import registry

    return registry.failure_note()


def line_message(code: str, params: Mapping[str, Any], lang: str | None = None) -> str:
    """A quick-roll refusal in `lang` (default: the language spoken), else the code itself."""
    text = catalog(lang).text("line", code, params)
    return code if text is None else text
