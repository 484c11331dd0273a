"""`--ascii`: everything the screen itself draws is ASCII (no box drawing, "…", "—", "·", "−",
"±", "×", arrows, blocks or symbols); only the campaign's own text, accented letters and « »
may be otherwise. Every sample is walked at 80×24: each pane, a typed line with its odds, a
roll and the keys help."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gmscreen.campaign import load_campaign
from gmscreen.play.games import table_for
from gmscreen.rules import SYSTEMS, get_system
from gmscreen.ui import GMScreenApp
from gmscreen.ui.glyphs import to_ascii

from _pilot import ScreenWalk, ready

FRENCH = set("àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸŒÆ«»")


def campaign_texts(path: Any) -> list[str]:
    """The campaign's own text and the game's own words: shown as written, even with --ascii."""
    campaign = load_campaign(path)
    system = get_system(campaign.system)
    texts = [campaign.name, campaign.notes, system.game]
    for character in campaign.characters:
        texts += [character.name, character.notes]
        texts += [c.name for c in character.conditions] + [c.effect for c in character.conditions]
        texts += [str(value) for group in character.sheet.values() if isinstance(group, dict)
                  for value in group.values()]
    texts += [e.name for e in campaign.encounter.entries] + [t.label for t in campaign.timers]
    return [text for text in texts if text]


def foreign_glyphs(rows: list[str], texts: list[str]) -> list[str]:
    """Tokens on screen holding a character that is neither ASCII nor French, and that are not
    a piece of the campaign's own text."""
    found = []
    for line in rows:
        for token in re.split(r"\s+", line):
            if all(ch.isascii() or ch in FRENCH for ch in token):
                continue
            if any(token in text for text in texts):
                continue
            found.append(token)
    return found


@pytest.mark.parametrize("system", tuple(SYSTEMS))
async def test_ascii_screen_draws_only_ascii(campaign_file, system: str) -> None:
    path = campaign_file(system)
    texts = campaign_texts(path)
    app = GMScreenApp(path, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        walk = ScreenWalk(app, pilot, lambda rows: foreign_glyphs(rows, texts))
        look = walk.look
        await walk.panes_and_a_line(table_for(system).line.help_examples[0][0])
        await look("rolled", "enter")
        await look("after the roll", "enter")
        await look("keys help", "escape", "escape", "question_mark")
    assert walk.seen == {}


def test_glyphs_become_ascii_of_the_same_width_and_letters_stay() -> None:
    drawn = "╭─┤ Réussite — 12\u202f% · −2 ±1 ×3 → ↶ ▍▃ … « Œuvre » ✓ 🎲"
    shown = to_ascii(drawn)
    assert shown == "+-+ Réussite - 12 % . -2 +1 x3 > < |# . « Œuvre » v ??"
    assert len(shown) == len(drawn) + 1        # the die is two cells wide: two characters
