"""Every string on screen comes from the catalog, in the language chosen.

The screen runs in the pseudo-language, which writes every translated message with look-alike
letters (⟦Ůṅḋȯ⟧), so a translated word is recognisable even cut by a column or wrapped. A walk
through every pane, dialog, prompt, toast and help at 80×24 and 120×40 then reads the screen:
a word in plain letters must be the game's own vocabulary (from the rules, or an abbreviation
or a cut of it), text from the campaign (names, conditions, notes the GM typed), a key name or
an identifier (a file, a key id). Anything else is a string that did not come from the catalog."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gmscreen import i18n
from gmscreen.campaign import load_campaign
from gmscreen.play.games import table_for
from gmscreen.rules import SYSTEMS, get_system
from gmscreen.ui import GMScreenApp

from _pilot import ScreenWalk, load_error_shown, ready, screen_text

SIZES = ((80, 24), (120, 40))
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœ][A-Za-zÀ-ÖØ-öø-ÿŒœ'’-]+")
# Keys as the footer and the help name them.
KEY_WORDS = {"ctrl", "esc", "tab", "shift", "enter", "space", "up", "down", "left", "right", "home", "end",
             "pgup", "pgdn", "pageup", "pagedown", "backspace", "delete", "insert", "del", "ins", "f1", "super", "alt", "meta"}


def vocabulary(path: Any) -> set[str]:
    """The words the screen may show as they are: the game's and the campaign's."""
    campaign = load_campaign(path)
    system = get_system(campaign.system)
    texts: list[str] = [campaign.name, campaign.notes, system.game, system.gm, system.dice]
    texts += list(system.derived_keys)                  # Trauma, Mensonge
    rules_module = __import__(f"gmscreen.rules.{system.id}", fromlist=["_"])
    texts += [str(word) for word in getattr(rules_module, "INTERVAL_WORDS", {}).values()]
    for group in system.sheet:
        texts += [group.label, group.key]
        texts += [stat.label for stat in group.stats]
        texts += [stat.key for stat in group.stats]
    for difficulty in system.difficulties:
        texts += [difficulty.label, difficulty.note]
    for title, rows in system.extra_tables:
        texts.append(title)
        texts += [row.label for row in rows]
    texts += list(getattr(rules_module, "PROVIDENCE_LEVELS", {}).values())
    texts += list(getattr(rules_module, "PROVIDENCE_LEVELS_FEMININE", {}).values())
    for character in campaign.characters:
        texts += [character.name, character.id, character.notes]
        texts += [c.name for c in character.conditions] + [c.effect for c in character.conditions]
        for group in character.sheet.values():
            if isinstance(group, dict):
                for key, value in group.items():
                    texts.append(key)
                    if isinstance(value, dict):
                        texts += list(value)
    texts += [e.name for e in campaign.encounter.entries] + [t.label for t in campaign.timers]
    for example, _meaning in table_for(system.id).line.help_examples:
        texts.append(example)           # lines as the GM types them
    for preset in table_for(system.id).effects.presets:
        texts += [preset.name, preset.effect]      # the game's list of conditions, in its words
    words = set()
    for text in texts:
        words |= {w.casefold() for w in WORD.findall(text or "")}
    return words | KEY_WORDS | {sid.casefold() for sid in SYSTEMS}


PSEUDO_LETTERS = set(i18n.pseudo("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")[1:-1])


def _allowed(word: str, allowed: set[str]) -> bool:
    folded = word.casefold().strip("'’-")
    if PSEUDO_LETTERS & set(word) or folded in allowed:
        return True
    # a game word abbreviated by a column (Hé, Agi), cut by an edge (gentilh…) or by a dialog
    # drawn over it (…ration)
    if len(folded) >= 2 and any(folded in known for known in allowed):
        return True
    # a game's own abbreviation of a stat (Itl for Intelligence): its letters, in order
    return len(folded) <= 4 and any(_subsequence(folded, known) for known in allowed)


def _subsequence(short: str, word: str) -> bool:
    letters = iter(word)
    return short[:1] == word[:1] and all(ch in letters for ch in short)


def foreign_words(rows: list[str], allowed: set[str]) -> list[str]:
    found = []
    for line in rows:
        for token in line.split():
            if any(mark in token for mark in "./_@") or any(ch.isdigit() for ch in token):
                continue            # a file, a key id (app.quit), a number with its unit
            mixed = bool(PSEUDO_LETTERS & set(token))     # a name and its message: "garde'ṡ"
            found += [word for word in WORD.findall(token)
                      if not (mixed and len(word) < 3) and not _allowed(word, allowed)]
    return found


def _first_line(system_id: str) -> str:
    return table_for(system_id).line.help_examples[0][0]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("system", tuple(SYSTEMS))
async def test_every_screen_speaks_only_the_catalog(campaign_file, system: str, size: tuple[int, int]) -> None:
    path = campaign_file(system)
    allowed = vocabulary(path)
    i18n.set_language(i18n.PSEUDO)
    app = GMScreenApp(path)
    async with app.run_test(size=size) as pilot:
        await ready(app, pilot)
        # Wide, every pane is on screen at once: the panes and the tray are read there; the
        # dialogs and help look the same at both sizes and are read at 80×24.
        walk = ScreenWalk(app, pilot, lambda rows: foreign_words(rows, allowed), wide=size[0] >= 120)
        look = walk.look
        await walk.panes_and_a_line(_first_line(system))
        await look("rolled", "enter")
        await look("after the roll", "enter")
        await look("keys help", "escape", "escape", "question_mark", narrow_only=True)
        await look("palette", "escape", "ctrl+p", narrow_only=True)
        await look("open dialog", "escape", "ctrl+o", narrow_only=True)
        await look("add dialog", "escape", "escape", "1", "a", narrow_only=True)
        await look("undo toast", "escape", "escape", "ctrl+z", narrow_only=True)
        await look("sheet", "escape", "1", "enter", narrow_only=True)
        await look("edit form", "escape", "e", narrow_only=True)
        await look("condition dialog", "escape", "c", narrow_only=True)
        await look("new timer", "escape", "2", "t", narrow_only=True)
        await look("declare", "escape", "escape", "d", narrow_only=True)
        await look("end fight", "escape", "escape", "E", narrow_only=True)
        await look("grammar help", "escape", "slash", "question_mark", narrow_only=True)
    assert walk.seen == {}


async def test_the_load_error_screen_speaks_only_the_catalog(tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nsystem = "nope"\nformat = 1\n[[characters]]\nid = 3\n', encoding="utf-8")
    i18n.set_language(i18n.PSEUDO)
    app = GMScreenApp(bad)
    async with app.run_test(size=(80, 24)) as pilot:
        await load_error_shown(app, pilot)
        words = foreign_words(screen_text(app), KEY_WORDS | {"bad", "toml", "nope", "characters", "id", "system"}
                              | {sid.casefold() for sid in SYSTEMS})
    assert words == []
