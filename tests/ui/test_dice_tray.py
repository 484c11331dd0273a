"""The dice tray through real key presses, one sample campaign per system."""

from __future__ import annotations

import dataclasses
import random
from contextlib import asynccontextmanager

from gmscreen.campaign.model import Character
from gmscreen.play.quickroll import RollFlow, parse
from gmscreen.ui.widgets.tray.dice_tray import DiceTray, GrammarHelp

from _pilot import press


def _seed_with_prompt(campaign, line: str, want_prompt: bool = True) -> int:
    """A seed for which the roll of `line` stops at a choice (or not)."""
    draft = parse(line, campaign)
    for seed in range(200):
        flow = RollFlow(draft, random.Random(seed)).start()
        if (flow.prompt is not None) == want_prompt:
            return seed
    raise AssertionError(f"no seed gives the wanted prompt for {line!r}")


def _app(pane_host, session, seed: int = 1):
    return pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(seed)))


@asynccontextmanager
async def _tray(pane_host, session, seed: int = 1, focus: bool = True, prompt_for: str | None = None):
    """The tray alone on `session` with dice seeded `seed` (or so that `prompt_for` stops at a
    choice), running; its line focused."""
    if prompt_for is not None:
        seed = _seed_with_prompt(session.campaign, prompt_for)
    app = _app(pane_host, session, seed)
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        if focus:
            tray.focus_line()
        yield app, pilot, tray


async def _type(pilot, text: str) -> None:
    """Type a line: the start is inserted at the cursor (fast), the last keys are real presses."""
    focused = pilot.app.focused
    head, tail = text[:-3], text[-3:]
    if head and focused is not None and hasattr(focused, "insert_text_at_cursor"):
        focused.insert_text_at_cursor(head)
    else:
        tail = text
    if tail:
        await press(pilot, *tail)


async def _enter(pilot, line: str) -> None:
    """Type `line` and press enter."""
    await _type(pilot, line)
    await press(pilot, "enter")


def _text(widget) -> str:
    return str(widget.render())


async def test_mir_quick_roll_odds_enter_result_and_log(pane_host, open_sample):
    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, "alexis force sd4 +1d aide loriane")
        info = _text(tray.info)
        assert "+1d, aide Loriane : 18 % → 40 %" in info
        assert app.draft is not None and app.draft["kind"] == "group" and "Alexis" in app.draft_label
        await press(pilot, "enter")
        record = session.rolls[-1]
        assert record.line == "alexis force sd4 +1d aide loriane" and record.who == "Alexis"
        assert record.result["kind"] == "group" and record.seed is not None
        shown = _text(tray.result_view)
        assert "Alexis" in shown and record.result["outcome"] in ("success", "failure")
        assert " ".join(str(f) for f in record.result["dice"]) in shown
        assert tray.line.value == ""


async def test_mir_physical_dice(pane_host, open_sample):
    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, "6d12 sd2 = 1 5 4 6 11 12")
        assert "dés de la table" in _text(tray.info)
        await press(pilot, "enter")
        record = session.rolls[-1]
        assert record.result["dice"] == [1, 5, 4, 6, 11, 12] and record.result["successes"] == 3
        assert record.seed is None
        shown = _text(tray.result_view)
        assert "réussite" in shown and "1 5 4 6 11 12" in shown


async def test_mir_extended_starts_a_timer_and_undo_removes_it(pane_host, open_sample):
    session = open_sample("mir")
    before = len(session.campaign.timers)
    async with _tray(pane_host, session) as (app, pilot, _):
        await _enter(pilot, "loriane guérison 8 jour max3")
        timer = session.campaign.timers[-1]
        assert len(session.campaign.timers) == before + 1
        assert timer.kind == "extended" and timer.who == "loriane"
        assert timer.label == "Guérison (Héritage) (1 jour, 3 max.) 8 succès"
        assert len(timer.dice["rolls"]) == 1 and len(timer.dice["rolls"][0]) == 5
        assert session.rolls[-1].result["tests"] == 1
        app.undo()
        await pilot.pause()
        assert len(session.campaign.timers) == before


async def test_errors_show_in_the_tray_and_enter_does_nothing(pane_host, open_sample):
    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, "loriane éloquence très")
        assert "Très facile" in _text(tray.info) and tray.info.has_class("-error")
        await pilot.press("enter")
        await _type(pilot, "")
        assert session.rolls == [] or session.rolls[-1].line != "loriane éloquence très"
        tray.line.value = ""
        await _enter(pilot, "loriane éloquence")
        assert "SD manquant" in _text(tray.info)
        assert not session.rolls or session.rolls[-1].line != "loriane éloquence"


async def test_a_rules_refusal_is_shown_from_its_code(pane_host, open_sample):
    """Too few faces typed: the tray keeps the error as a code with the rules' own error, and
    shows the French catalog's words for it, never the English reason."""
    from gmscreen.play.messages import rule_message

    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, "alexis force sd2 = 1 5")
        error = tray.error
        assert error is not None and error.code == "rule"
        refusal = error.params["error"]
        assert (refusal.field, refusal.code) == ("dice", "exact_dice") and refusal.params["got"] == 2
        shown = " ".join(_text(tray.info).split())
        assert tray.info.has_class("-error") and error.message == rule_message(refusal)
        assert "il faut exactement" in shown and "2 donnés" in shown
        assert refusal.reason not in shown and "expected" not in shown


async def test_difficulty_chosen_elsewhere_rewrites_the_line(pane_host, open_sample):
    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, "loriane éloquence difficile +1d")
        app.choose_difficulty(2)
        await pilot.pause()
        assert tray.line.value == "loriane éloquence sd2 +1d"
        assert app.draft["difficulty"] == 2
        tray.line.value = "loriane éloquence"
        await pilot.pause()
        app.choose_difficulty(5)
        await pilot.pause()
        assert tray.line.value == "loriane éloquence sd5"


async def test_selection_completion_history_repeat_gm_only_escape(pane_host, open_sample):
    session = open_sample("mir")
    async with _tray(pane_host, session, focus=False) as (app, pilot, tray):
        app.select_character("loriane")
        await pilot.pause()
        tray.focus_line()
        await _type(pilot, "élo")
        await press(pilot, "tab")
        assert tray.line.value == "éloquence "
        await _type(pilot, "sd2")
        assert app.draft is not None and app.draft["skill"] == 3
        tray.toggle_gm_only()
        await press(pilot, "enter")
        assert session.rolls[-1].who == "Loriane" and session.rolls[-1].gm_only is True
        tray.toggle_gm_only()
        tray.repeat_last()
        await pilot.pause()
        assert len(session.rolls) == 2 and session.rolls[-1].gm_only is False
        await press(pilot, "up")
        assert tray.line.value == "éloquence sd2"
        await _enter(pilot, " mj")
        assert session.rolls[-1].gm_only is True
        await press(pilot, "escape")
        assert not tray.line.has_focus


async def test_question_mark_shows_the_grammar(pane_host, open_sample):
    session = open_sample("tedeum")
    async with _tray(pane_host, session) as (app, pilot, _):
        await press(pilot, "question_mark")
        assert isinstance(app.screen, GrammarHelp)
        assert "providence" in _text(app.screen.query_one("#grammar-text"))
        await press(pilot, "escape")
        assert not isinstance(app.screen, GrammarHelp)
        assert app.query_one(DiceTray).line.value == ""


async def test_eclats_reroll_with_one_key(pane_host, open_sample):
    session = open_sample("eclats")
    line = "ysaure emp calmer 9"
    async with _tray(pane_host, session, prompt_for=line) as (app, pilot, tray):
        await _enter(pilot, line)
        assert tray.choice_view.has_focus and "relancer" in _text(tray.choice_view)
        assert session.rolls == []                          # nothing logged before the choice
        await press(pilot, "p", "x")                         # not options here: nothing happens
        assert tray.flow is not None and tray.flow.prompt is not None and session.rolls == []
        await press(pilot, "r")
        if tray.flow is not None:
            await press(pilot, "g")
        record = session.rolls[-1]
        assert len(record.result["dice"]) >= 2 and record.request["dice"] == record.result["dice"]
        assert tray.line.has_focus


async def test_magisphere_impulsion_reroll_spent_on_sheet_and_undone(pane_host, open_sample):
    session = open_sample("magisphere")
    line = "shady négociation 30"
    shady = session.campaign.characters[0]
    assert shady.sheet["resources"]["impulsion"] == 2
    async with _tray(pane_host, session, prompt_for=line) as (app, pilot, tray):
        await _type(pilot, line)
        assert "%" in _text(tray.info)
        await press(pilot, "enter")
        assert "Impulsion" in _text(tray.choice_view)
        await press(pilot, "r")
        while tray.flow is not None:
            await press(pilot, "g")
        record = session.rolls[-1]
        spent = record.result["impulsions_spent"]
        assert spent >= 1 and len(record.request["dice"]) == spent + 1
        assert shady.sheet["resources"]["impulsion"] == 2 - spent
        assert "Impulsion" in (session.last_label or "")
        app.undo()
        await pilot.pause()
        assert session.campaign.characters[0].sheet["resources"]["impulsion"] == 2


async def test_magisphere_impulse_bonus_word_spends_a_point(pane_host, open_sample):
    session = open_sample("magisphere")
    line = "shady négociation 10 imp"
    seed = _seed_with_prompt(session.campaign, line, want_prompt=False)
    async with _tray(pane_host, session, seed) as (app, pilot, _):
        await _enter(pilot, line)
        assert session.rolls[-1].result["impulse_bonus_applied"] is True
        assert session.campaign.characters[0].sheet["resources"]["impulsion"] == 1


async def test_tedeum_providence_called_with_one_key(pane_host, open_sample):
    session = open_sample("tedeum")
    louvensac = session.campaign.characters[0]
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _enter(pilot, "louvensac charme 13")
        assert "Providence" in _text(tray.choice_view)
        await press(pilot, "p")
        record = session.rolls[-1]
        assert record.request["use_providence"] is True and len(record.result["providence_dice"]) == 1
        assert louvensac.sheet["resources"]["providence"] == 4
        app.undo()
        await pilot.pause()
        assert session.campaign.characters[0].sheet["resources"]["providence"] == 6


async def test_tedeum_forced_dice_with_providence_word(pane_host, open_sample):
    session = open_sample("tedeum")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _enter(pilot, "louvensac charme 13 providence = 12 5 4")
        record = session.rolls[-1]
        assert record.result["total"] == 26 and record.result["outcome"] == "critical_success"
        assert record.result["xp"] == 1
        sheet = session.campaign.characters[0].sheet
        assert sheet["resources"]["providence"] == 4 and sheet["xp"]["entregent"] == 1
        shown = _text(tray.result_view)
        assert "12" in shown and "5" in shown


async def test_arpeges_parry_with_one_key(pane_host, open_sample):
    session = open_sample("arpeges")
    line = "thibault baratin +3 vs marchand baratin"
    async with _tray(pane_host, session, prompt_for=line) as (app, pilot, tray):
        await _enter(pilot, line)
        assert "pare" in _text(tray.choice_view)
        await press(pilot, "p")
        record = session.rolls[-1]
        assert record.result["kind"] == "confrontation" and record.result["parry_rolled"] is True
        assert len(record.request["opponent_chance_dice"]) == 1


async def test_arpeges_simple_and_escape_cancels_a_choice(pane_host, open_sample):
    session = open_sample("arpeges")
    line = "thibault baratin +3 vs marchand baratin"
    async with _tray(pane_host, session, prompt_for=line) as (app, pilot, tray):
        await _enter(pilot, "marchand baratin -3 = 6 5")
        assert session.rolls[-1].result["margin"] == 3
        await _enter(pilot, line)
        await press(pilot, "escape")                         # the action is rolled: no abandoning it
        assert len(session.rolls) == 1 and tray.flow is not None and tray.choice_view.has_focus
        await press(pilot, "n")
        assert len(session.rolls) == 2 and tray.flow is None and tray.line.has_focus


async def test_hostile_names_in_the_tray(pane_host, open_sample):
    session = open_sample("mir")
    for n, name in enumerate(["[/]", "[@click=app.quit]", "Orc [A]", "Bob\x1b]2;pwn\x07"]):
        session.campaign.characters.append(Character(id=f"h{n}", name=name, side="npc",
                                                     sheet={"voies": {"peur": 3}, "skills": {"tir": 2}}))
    async with _tray(pane_host, session, focus=False) as (app, pilot, tray):
        for typed, shown in (("[/] tir sd2", "[/]"), ("[@click tir sd2", "[@click=app.quit]"),
                             ("orc tir sd2", "Orc [A]"), ("bob tir sd2", "Bob\ufffd]2;pwn\ufffd")):
            tray.focus_line()
            await _type(pilot, typed)
            assert shown in _text(tray.info)
            await press(pilot, "enter")
            assert shown in _text(tray.result_view)
            assert "\x1b" not in _text(tray.result_view)
        assert [r.who for r in session.rolls][-1] == "Bob\x1b]2;pwn\x07"
        assert app.is_running


def test_the_tray_variant_only_styles_what_the_renderer_says() -> None:
    """The tray's result is the one renderer's plain layout, each piece in the style of its role."""
    from gmscreen.play.render import DescriptionRenderer
    from gmscreen.rules import get_system, resolve
    from gmscreen.ui.widgets.tray.roll_result import DIE_STYLES, TRAY, ShownRoll, dice_lines, headline_content

    request = {"system": "mir", "kind": "opposed", "actor_pool": 3, "opponent_pool": 3,
               "actor_dice": [7, 8, 1], "opponent_dice": [2, 3, 12]}
    desc = get_system("mir").describe(resolve(request))
    plain = DescriptionRenderer()
    assert [TRAY.group(g).plain for g in desc.groups] == [plain.group(g) for g in desc.groups]
    assert [line.plain for line in dice_lines(desc.groups, 80)] == [plain.groups(desc.groups)]
    assert len(dice_lines(desc.groups, 12)) == len(desc.groups)            # cut between the sides
    critical = TRAY.die(desc.groups[1].dice[2])
    assert critical.plain == "12" and [s.style for s in critical.spans] == [DIE_STYLES["critical"]]
    shown = ShownRoll(who="Ana", headline=desc.headline, detail=desc.detail, good=desc.good, groups=desc.groups,
                      gm_only=True, secret=True)
    head = headline_content(shown)
    assert head.plain == f"MJ Ana : {desc.headline}  {desc.detail}"
    assert "bold $warning" in [s.style for s in head.spans]
    pending = headline_content(dataclasses.replace(shown, pending=True, gm_only=False))
    assert pending.plain.startswith("Ana : en cours")
