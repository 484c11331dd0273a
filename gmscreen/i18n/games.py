"""A game's own words in both languages: the gettext catalogs a game package ships.

A game from outside words its outcomes, die words, unit, help, kind labels, field help and
accepted effects in its own catalog (its own gettext domain, its own folder:
`<folder>/<lang>/LC_MESSAGES/<domain>.mo`), registered with its `Plugin(catalogs=(domain,
folder))`. `words_for(system_id)` looks a message up in that game's catalog first, then in
gmscreen's; every other lookup (`_`, `pgettext`) falls back to the games' catalogs when
gmscreen's has no such message, so a game's word shown anywhere is translated.
"""

from __future__ import annotations

import gettext
from pathlib import Path

_catalogs: dict[str, tuple[str, Path]] = {}          # system id -> (domain, folder)
_loaded: dict[tuple[str, str], gettext.NullTranslations | None] = {}


def add_game_catalog(system_id: str, domain: str, folder: str | Path) -> None:
    """Read `system_id`'s words from `folder`'s catalogs of `domain` from now on."""
    _catalogs[system_id] = (domain, Path(folder))
    for key in [k for k in _loaded if k[0] == system_id]:
        del _loaded[key]
    from . import _refresh_fallbacks

    _refresh_fallbacks()


def remove_game_catalog(system_id: str) -> None:
    if _catalogs.pop(system_id, None) is not None:
        for key in [k for k in _loaded if k[0] == system_id]:
            del _loaded[key]
        from . import _refresh_fallbacks

        _refresh_fallbacks()


def game_catalog(system_id: str, lang: str) -> gettext.NullTranslations | None:
    """`system_id`'s compiled catalog in `lang`, or None when it ships none."""
    key = (system_id, lang)
    if key not in _loaded:
        found = _catalogs.get(system_id)
        catalog = None
        if found is not None:
            domain, folder = found
            try:
                catalog = gettext.translation(domain, str(folder), languages=[lang])
            except OSError:          # no catalog for this language: gmscreen's words, as given
                catalog = None
        _loaded[key] = catalog
    return _loaded[key]


def catalogs(lang: str) -> list[gettext.NullTranslations]:
    """Every registered game's catalog in `lang` (for the fallback of gmscreen's)."""
    return [c for c in (game_catalog(sid, lang) for sid in _catalogs) if c is not None]


def _has(catalog: gettext.NullTranslations, key: object) -> bool:
    return key in getattr(catalog, "_catalog", {})


class GameWords:
    """Lookups for one game: its own catalog first, then gmscreen's."""

    def __init__(self, system_id: str) -> None:
        self.system_id = system_id

    def _own(self) -> gettext.NullTranslations | None:
        from . import language

        return game_catalog(self.system_id, language())

    def gettext(self, message: str) -> str:
        own = self._own()
        if own is not None and _has(own, message):
            return own.gettext(message)
        from . import _

        return _(message)

    def pgettext(self, context: str, message: str) -> str:
        own = self._own()
        if own is not None and _has(own, f"{context}\x04{message}"):
            return own.pgettext(context, message)
        from . import pgettext

        return pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        own = self._own()
        if own is not None and _has(own, (singular, 0)):
            return own.ngettext(singular, plural, n)
        from . import ngettext

        return ngettext(singular, plural, n)


def words_for(system_id: str) -> GameWords:
    """The lookups that say `system_id`'s words (its catalog first, then gmscreen's)."""
    return GameWords(system_id)
