"""Choices in the tray through real key presses at 80×24: the defender's Providence asked after
the attacker's roll is typed, Magisphère's natural-20 reward and the GM's bonus for a helper
without the skill, reroll options showing their chances, the odds line saying what it assumes
only where it leaves the difficulty whole; and a burst of keys with no pause between them. What
each key decides (the sheets spent, the undo, the dice) is the table's, tested without a screen in
tests/play/test_table_flows.py."""

from __future__ import annotations

import random
from contextlib import asynccontextmanager

from gmscreen.play.choice_odds import assumes_forms
from gmscreen.play.quickroll import RollFlow, parse
from gmscreen.ui.widgets.tray.choice_prompt import prompt_content
from gmscreen.ui.widgets.tray.dice_tray import DiceTray

from _pilot import press


@asynccontextmanager
async def _tray(pane_host, session, seed: int = 1, size: tuple[int, int] = (80, 24)):
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(seed)))
    async with app.run_test(size=size) as pilot:
        tray = app.query_one(DiceTray)
        tray.focus_line()
        await pilot.pause()
        yield app, pilot, tray


async def _type(pilot, tray, text: str) -> None:
    tray.line.insert_text_at_cursor(text[:-2])
    await press(pilot, *text[-2:])


def _text(widget) -> str:
    return str(widget.render())


async def test_the_defender_is_asked_for_providence_with_one_key(pane_host, open_sample):
    session = open_sample("tedeum")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, tray, "saint-gelais escrime attaque vs louvensac escrime")
        await press(pilot, "enter")
        shown = _text(tray.choice_view)
        assert "Mlle de Louvensac se défend avec la Providence" in shown and " p " in shown
        view = tray.choice_view
        assert len(prompt_content(tray.flow.prompt).wrap(view.size.width)) <= view.size.height   # nothing cut
        await press(pilot, "p")                  # spent, undone: test_table_flows (the defender's Providence)
        assert tray.flow is None and session.rolls[-1].request["opponent_use_providence"] is True


async def test_a_burst_of_keys_answers_both_sides_in_order(pane_host, open_sample):
    session = open_sample("tedeum")
    session.campaign.character("saint-gelais").side = "party"
    async with _tray(pane_host, session) as (app, pilot, tray):
        tray.line.insert_text_at_cursor("saint-gelais étiquette vs louvensac étiquett")
        await pilot.press("e", "enter", "n", "p")                          # no pause between them
        await pilot.pause()
        record = session.rolls[-1]
        assert "actor_use_providence" not in record.request and record.request["opponent_use_providence"] is True
        assert session.campaign.character("louvensac").sheet["resources"]["providence"] == 4
        assert session.campaign.character("saint-gelais").sheet["resources"]["providence"] == 4


async def test_a_natural_20_offers_its_reward_in_the_tray(pane_host, open_sample):
    session = open_sample("magisphere")
    session.campaign.character("shady").sheet["resources"]["impulsion"] = 1
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, tray, "shady négo 25 = 20")
        await press(pilot, "enter")
        shown = _text(tray.choice_view)
        assert "20 naturel" in shown and " i " in shown and " a " in shown
        view = tray.choice_view
        assert len(prompt_content(tray.flow.prompt).wrap(view.size.width)) <= view.size.height   # nothing cut
        await press(pilot, "i")
        assert tray.flow is None and session.campaign.character("shady").sheet["resources"]["impulsion"] == 2


async def test_a_helper_in_a_test_no_skill_fits_asks_the_bonus_by_a_digit(pane_host, open_sample):
    """R24: PRE alone, helped by Granok: the GM's bonus asked, each digit with the chance it
    leaves (the typed die 14: +3 reaches 25 + Ivre's 3), Enter's +0 the odds' own."""
    session = open_sample("magisphere")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, tray, "shady pre 25 aide granok = 14")
        await press(pilot, "enter")
        shown = _text(tray.choice_view)
        assert "R24" in shown and "+0 0" in shown and "+3 100" in shown, shown
        view = tray.choice_view
        assert len(prompt_content(tray.flow.prompt).wrap(view.size.width)) <= view.size.height
        await press(pilot, "3")                  # the score it makes: test_table_flows
        assert tray.flow is None and session.rolls[-1].request["bonus"] == 3


async def test_reroll_options_show_their_chances(pane_host, open_sample):
    session = open_sample("magisphere")
    line = "shady négo 25"
    draft = parse(line, session.campaign)
    seed = next(s for s in range(200) if RollFlow(draft, random.Random(s)).start().prompt is not None)
    async with _tray(pane_host, session, seed) as (app, pilot, tray):
        await _type(pilot, tray, line)
        await press(pilot, "enter")
        prompt = tray.flow.prompt
        assert prompt is not None and all("%" in o.text for o in prompt.options)
        shown = _text(tray.choice_view).replace("\n", " ")
        # Enter takes what the odds assume: a failing score rerolls while points remain.
        assert all(o.text in shown for o in prompt.options) and "(Entrée : relancer (1 Impulsion))" in shown
        view = tray.choice_view
        assert len(prompt_content(prompt).wrap(view.size.width)) <= view.size.height == 2      # nothing cut
        await press(pilot, "g")
        assert tray.flow is None


async def test_the_odds_line_says_what_it_assumes_and_keeps_the_difficulty(pane_host, open_sample):
    session = open_sample("magisphere")
    session.campaign.character("shady").conditions.clear()      # Ivre would take the row's room
    draft = parse("shady négo 25", session.campaign)
    async with _tray(pane_host, session, size=(140, 24)) as (app, pilot, tray):
        await _type(pilot, tray, "shady négo 25")
        assert assumes_forms(draft)[0].strip() in _text(tray.info)          # room: the full words
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, tray, "shady négo 25")
        text, width = _text(tray.info), tray.info.size.width
        assert "(2 relances)" in text and text.endswith("seuil 25") and len(text) <= width   # short form, whole
        for line in ("shady négociation 25 +2 malus 5", "granok puissance vs shady puissance"):
            tray.line.value = ""
            await _type(pilot, tray, line)
            text = _text(tray.info)
            assert "relance" not in text                                    # no room left: nothing added


async def test_eclats_asks_whether_to_roll_when_the_skill_suffices_and_enter_takes_the_odds_choice(
        pane_host, open_sample):
    """R5 (001, l.50): Calmer 3 against 3 needs no die: asked before any, Enter settles for the
    skill (100 %). Against 12 a failing die: Enter rerolls, the choice the odds assume, never a
    keep that leaves 0 %."""
    session = open_sample("eclats")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, tray, "ysaure emp calmer 3")
        await press(pilot, "enter")
        shown = _text(tray.choice_view)
        assert "R5" in shown and " n  aucun dé 100" in shown and "(Entrée : aucun dé)" in shown, shown
        assert session.rolls == [] and tray.flow.result is None          # no die on the table yet
        await press(pilot, "enter")
        record = session.rolls[-1]
        assert record.request["dice"] == [] and record.result["outcome"] == "success"

        await _type(pilot, tray, "ysaure emp calmer 12")
        await press(pilot, "enter")
        assert tray.flow.result["outcome"] != "success"
        shown = _text(tray.choice_view)
        assert " g  garder 0" in shown and "(Entrée : relancer)" in shown, shown     # Enter's reroll: test_table_flows
