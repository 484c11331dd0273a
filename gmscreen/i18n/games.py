"""A game's own words in both languages: its catalog first, then gmscreen's.

A game from outside words its outcomes, die words, unit, help, kind labels, field help and
accepted effects in its own catalog (`gmscreen.i18n.game_catalogs`, registered with its
`Plugin(catalogs=(domain, folder))`). `words_for(system_id)` looks a message up in that
game's catalog first, then in gmscreen's; every other lookup (`_`, `pgettext`) falls back to
the games' catalogs when gmscreen's has no such message, so a game's word shown anywhere is
translated.
"""

from __future__ import annotations

import gettext

from . import _ as gettext_
from . import language, ngettext, pgettext
from .game_catalogs import add_game_catalog, game_catalog, remove_game_catalog

__all__ = ["GameWords", "add_game_catalog", "remove_game_catalog", "words_for"]


def _has(catalog: gettext.NullTranslations, key: object) -> bool:
    return key in getattr(catalog, "_catalog", {})


class GameWords:
    """Lookups for one game: its own catalog first, then gmscreen's."""

    def __init__(self, system_id: str) -> None:
        self.system_id = system_id

    def _own(self) -> gettext.NullTranslations | None:
        return game_catalog(self.system_id, language())

    def gettext(self, message: str) -> str:
        own = self._own()
        if own is not None and _has(own, message):
            return own.gettext(message)
        return gettext_(message)

    def pgettext(self, context: str, message: str) -> str:
        own = self._own()
        if own is not None and _has(own, f"{context}\x04{message}"):
            return own.pgettext(context, message)
        return pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        own = self._own()
        if own is not None and _has(own, (singular, 0)):
            return own.ngettext(singular, plural, n)
        return ngettext(singular, plural, n)


def words_for(system_id: str) -> GameWords:
    """The lookups that say `system_id`'s words (its catalog first, then gmscreen's)."""
    return GameWords(system_id)
