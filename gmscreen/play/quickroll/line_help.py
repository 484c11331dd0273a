"""A shipped game's `?` help, kept as prose in the `help.toml` beside its line module.

The title, the examples (what to type, what it means) and the notes are prose, not code: each
game's file words them its own way, in English, as message ids of the catalog (the French is in
`gmscreen/i18n/po/fr/tray.po`; `quickroll.help` translates them as it shows them, and a test
checks each has both texts). What to type stays as the GM types it (French keywords). A
third-party game may still write them on its `LineRules` (shown as written).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .line_rules import Example


def game_help(module_file: str) -> tuple[str, tuple[Example, ...], tuple[str, ...]]:
    """(title, examples, notes) from the `help.toml` in the folder of `module_file`."""
    with open(Path(module_file).with_name("help.toml"), "rb") as handle:
        data = tomllib.load(handle)
    examples = tuple((example["line"], example["meaning"]) for example in data.get("examples", ()))
    return data.get("title", ""), examples, tuple(data.get("notes", ()))
