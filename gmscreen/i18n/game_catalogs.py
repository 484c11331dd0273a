"""The gettext catalogs game packages ship, by system id: where they are, loaded once.

A plugin registers its catalogs (`Plugin(catalogs=(domain, folder))`, compiled as
`<folder>/<lang>/LC_MESSAGES/<domain>.mo`). This module imports nothing of gmscreen's: the
package (`gmscreen.i18n`) listens for changes to chain the catalogs behind its own, and
`gmscreen.i18n.games` says one game's words from them.
"""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import Callable

_catalogs: dict[str, tuple[str, Path]] = {}          # system id -> (domain, folder)
_loaded: dict[tuple[str, str], gettext.NullTranslations | None] = {}
_listeners: list[Callable[[], None]] = []


def on_change(listener: Callable[[], None]) -> None:
    """Call `listener` after a game's catalog is added or removed."""
    _listeners.append(listener)


def _changed(system_id: str) -> None:
    for key in [k for k in _loaded if k[0] == system_id]:
        del _loaded[key]
    for listener in _listeners:
        listener()


def add_game_catalog(system_id: str, domain: str, folder: str | Path) -> None:
    """Read `system_id`'s words from `folder`'s catalogs of `domain` from now on."""
    _catalogs[system_id] = (domain, Path(folder))
    _changed(system_id)


def remove_game_catalog(system_id: str) -> None:
    if _catalogs.pop(system_id, None) is not None:
        _changed(system_id)


def any_registered() -> bool:
    return bool(_catalogs)


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
