"""The dice tray in English, through real key presses: the placeholder, the odds line, a result,
a choice asked inside a roll and the `?` help are English chrome, while the game's words ("SD 3
(Moyenne)", Providence) and the line's French keywords stay; the language may change live."""

from __future__ import annotations

import random

from gmscreen import i18n
from gmscreen.play.quickroll import RollFlow, parse
from gmscreen.ui.widgets.tray.dice_tray import DiceTray
from gmscreen.ui.widgets.tray.grammar_help import GrammarHelp
from gmscreen.ui.widgets.tray.roll_result import masked_content

from _pilot import press


def _text(widget) -> str:
    return str(widget.render())


async def _type(pilot, tray: DiceTray, text: str) -> None:
    tray.line.insert_text_at_cursor(text[:-3])
    await press(pilot, *text[-3:])


async def test_the_tray_speaks_english_odds_result_and_help(pane_host, open_sample, english) -> None:
    session = open_sample("mir")
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        tray.focus_line()
        await pilot.pause()
        assert tray.line.placeholder == "/ quick roll — ? for the grammar"
        assert tray.border_title == "Dice · MIR"
        await _type(pilot, tray, "alexis force sd4 +1d aide loriane sans ébloui")   # French keywords still read
        info = _text(tray.info)
        assert "+1d, help Loriane: 18% → 40.5%" in info and "success" in info
        assert "SD 4 (" in app.table.draft.label                                  # the game's vocabulary
        await press(pilot, "enter")
        assert _text(tray.result_view).startswith("Alexis: ")
        await press(pilot, "ctrl+g")
        assert tray.border_title == "Dice · MIR · GM only"
        await press(pilot, "question_mark")
        assert isinstance(app.screen, GrammarHelp)
        help_text = _text(app.screen.query_one("#grammar-text"))
        assert "One line = one test:" in help_text and "Moyenne 3" in help_text
        assert app.screen.query_one("VerticalScroll").border_title == "Quick rolls"


async def test_a_providence_prompt_in_english(pane_host, open_sample, english) -> None:
    session = open_sample("tedeum")
    line = "louvensac charme 13"
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(1)))
    async with app.run_test(size=(120, 30)) as pilot:
        tray = app.query_one(DiceTray)
        tray.focus_line()
        await _type(pilot, tray, line)
        await press(pilot, "enter")
        shown = _text(tray.choice_view)
        assert "Mlle de Louvensac calls on Providence? D6 (" in shown
        assert "(Enter: without)" in shown and "Providence" in shown
        assert "\u202f" not in shown
        await press(pilot, "escape")              # asked before any die: abandoned, nothing logged
        assert "roll abandoned: nothing is logged" in _text(tray.info)
        assert session.rolls == []


async def test_the_language_changes_live(pane_host, open_sample) -> None:
    session = open_sample("mir")
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        tray.focus_line()
        await _type(pilot, tray, "loriane éloquence")
        assert tray.line.placeholder.startswith("/ jet rapide") and tray.border_title.startswith("Dés")
        assert "SD manquant" in _text(tray.info)
        i18n.set_language("en")
        await pilot.pause()
        assert tray.line.placeholder.startswith("/ quick roll") and tray.border_title.startswith("Dice")
        assert "SD missing" in _text(tray.info)


def test_a_secret_roll_is_masked_in_english(english) -> None:
    assert masked_content(False).plain == "◆ GM's secret roll  (players present: dice and result hidden)"


def test_prompt_questions_and_options_follow_the_language(open_sample) -> None:
    campaign = open_sample("eclats").campaign
    draft = parse("ysaure emp calmer 9", campaign)
    seed = next(s for s in range(200) if RollFlow(draft, random.Random(s)).start().prompt is not None)
    assert "relancer ?" in RollFlow(draft, random.Random(seed)).start().prompt.question
    i18n.set_language("en")
    assert "reroll?" in RollFlow(draft, random.Random(seed)).start().prompt.question
