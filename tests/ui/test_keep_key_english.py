"""Keeping a roll has the key of the language spoken: `k keep` on the English screen (the prompt,
the footer, the `?` help), `g garder` on the French one; `g` keeps in English too (habits,
scripts' `--choose g`). Magisphère's reroll through the screen, Éclats' on the play table."""

from __future__ import annotations

import random

from gmscreen import i18n
from gmscreen.campaign import open_session
from gmscreen.play import Table
from gmscreen.ui import GMScreenApp

from _pilot import press, ready, screen_text, until

LINE = "shady négociation 40"          # threshold 43 with Shady's Ivre: every d20 fails, a reroll asked


async def test_keep_is_k_on_the_english_screen(english, campaign_file) -> None:
    app = GMScreenApp(campaign_file("magisphere"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.pane("dice-tray").rng = random.Random(2)    # (no natural 20: its reward would be asked first)
        await press(pilot, "slash", *LINE, "enter")
        shown = "\n".join(screen_text(app))
        assert " k  keep" in shown and " g  keep" not in shown
        assert shown.splitlines()[-1].count("k keep") == 1          # the footer
        before = len(app.session.rolls)
        await press(pilot, "k")
        assert len(app.session.rolls) == before + 1 and len(app.session.rolls[-1].request["dice"]) == 1
        tray = app.pane("dice-tray")
        assert await until(app, pilot, lambda: tray.line.has_focus)
        await press(pilot, *LINE, "enter")                          # (bursts: test_key_bursts)
        assert await until(app, pilot, lambda: tray.flow is not None and tray.flow.prompt is not None
                           and tray.choice_view.has_focus)
        await press(pilot, "g")                                     # the French key keeps too
        assert len(app.session.rolls) == before + 2 and len(app.session.rolls[-1].request["dice"]) == 1
        await press(pilot, "question_mark")
        help_text = str(app.screen.query_one("#grammar-text").render()).replace("\xa0", " ")
        assert "k keep" in help_text and "g keep" not in help_text


def test_keep_key_follows_the_language_on_the_table(campaign_file) -> None:
    session = open_session(campaign_file("eclats"))
    table = Table(session, rng=random.Random(4))
    keys = {}
    for lang in ("fr", "en"):
        i18n.set_language(lang)
        for seed in range(40):                     # a roll that asks: reroll or keep
            table.rng = random.Random(seed)
            table.submit("ysaure emp calmer 9")
            if table.prompt is not None:
                break
        assert table.prompt is not None
        keys[lang] = [(o.key, o.label) for o in table.prompt.options]
        assert table.choose("g")                   # kept, whatever the language
    i18n.set_language("fr")
    table.close()
    session.close()
    assert keys == {"fr": [("r", "relancer"), ("g", "garder")], "en": [("r", "reroll"), ("k", "keep")]}
