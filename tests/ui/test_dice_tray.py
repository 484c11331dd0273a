"""The dice tray through real key presses, one sample campaign per system: alone, then in the
whole screen at 80×24 — what the terminal shows (masked rolls, French errors on two rows, every
die of a contest, the winner's name, the grammar help), the line's keys (tab, history after a
restart, repeat from a pane) and choices waiting. What a roll decides once its keys reach the
table (the sheets spent, the timer started, undo, a roll given up) is tested without a screen in
tests/play/test_table_flows.py."""

from __future__ import annotations

import dataclasses
import random
import re
from contextlib import asynccontextmanager
from typing import Any

import pytest

from gmscreen.campaign.model import Character
from gmscreen.play.logline import name_description
from gmscreen.play.quickroll import RollFlow, parse, rule_message
from gmscreen.rules import RequestError, get_system, resolve
from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.log.roll_log import RollLog
from gmscreen.ui.widgets.tray.dice_tray import DiceTray
from gmscreen.ui.widgets.tray.grammar_help import GrammarHelp

from _pilot import GM_COLOURS, press, ready, screen_strips, type_keys


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
    """Type a line in the tray: `/` first when the line has not the focus (from a pane, as the GM
    does), then its start inserted at the cursor (fast), its last keys real presses."""
    tray = pilot.app.pane("dice-tray")
    if not tray.line.has_focus:
        await pilot.press("slash")
    tray.line.insert_text_at_cursor(text[:-3])
    await press(pilot, *text[-3:])


async def _enter(pilot, line: str) -> None:
    """Type `line` and press enter."""
    await _type(pilot, line)
    await press(pilot, "enter")


def _text(widget) -> str:
    return str(widget.render())


async def test_mir_quick_roll_odds_enter_result_and_log(pane_host, open_sample):
    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, "alexis force sd4 +1d aide loriane sans ébloui")   # her condition: tests/ui/test_conditions_tray.py
        info = _text(tray.info)
        assert "+1d, aide Loriane : 18\u202f% → 40,5\u202f%" in info     # 40.5 % is not "40 %"
        assert app.table.draft is not None and app.table.draft.odds_request["kind"] == "group" and "Alexis" in app.table.draft.label
        await press(pilot, "enter")
        record = session.rolls[-1]
        assert record.line == "alexis force sd4 +1d aide loriane sans ébloui" and record.who == "Alexis"
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


async def test_mir_extended_refused_in_a_fight_shows_r20_as_an_error(pane_host, open_sample):
    """The timer started after the fight, and its undo: test_table_flows (a day-long test)."""
    session = open_sample("mir")
    before = len(session.campaign.timers)
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _enter(pilot, "loriane guérison 8 jour max3")         # R20: not a day-long test in a fight
        assert tray.info.has_class("-error") and "R20" in _text(tray.info)
        assert len(session.campaign.timers) == before and session.rolls == []


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
        app.table.choose_difficulty(2)
        await pilot.pause()
        assert tray.line.value == "loriane éloquence sd2 +1d"
        assert app.table.draft.odds_request["difficulty"] == 2
        tray.line.value = "loriane éloquence"
        await pilot.pause()
        app.table.choose_difficulty(5)
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
        assert app.table.draft is not None and app.table.draft.odds_request["skill"] == 3
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


async def test_magisphere_impulsion_reroll_with_one_key(pane_host, open_sample):
    """Spent on the sheet and undone: test_table_flows (an Impulsion reroll)."""
    session = open_sample("magisphere")
    line = "shady négociation 30"
    async with _tray(pane_host, session, prompt_for=line) as (app, pilot, tray):
        await _type(pilot, line)
        assert "%" in _text(tray.info)
        await press(pilot, "enter")
        assert "Impulsion" in _text(tray.choice_view)
        await press(pilot, "r")
        while tray.flow is not None:
            await press(pilot, "g")
        record = session.rolls[-1]
        assert record.result["impulsions_spent"] >= 1 and tray.line.has_focus


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
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _enter(pilot, "louvensac charme 13")
        assert "Providence" in _text(tray.choice_view)
        await press(pilot, "p")                  # spent and undone: test_table_flows (Providence)
        assert tray.flow is None and session.rolls[-1].request["use_providence"] is True


async def test_tedeum_forced_dice_with_providence_word(pane_host, open_sample):
    session = open_sample("tedeum")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _enter(pilot, "louvensac charme 13 providence sans essoufflée = 12 5 4")   # her D12 whole
        assert session.rolls[-1].result["total"] == 26     # spent and earned: test_table_flows
        shown = _text(tray.result_view)
        assert "12" in shown and "5" in shown


async def test_arpeges_escape_keeps_the_rolled_action_and_parry_with_one_key(pane_host, open_sample):
    """The parry let through (`n`), a forced line: test_table_flows (the parry)."""
    session = open_sample("arpeges")
    line = "thibault baratin +3 vs marchand baratin"
    async with _tray(pane_host, session, prompt_for=line) as (app, pilot, tray):
        said: list[str] = []
        app.warn = lambda message, severity="warning": said.append(message)
        await _enter(pilot, line)
        assert "pare" in _text(tray.choice_view)
        await press(pilot, "escape")                         # the action is rolled: no abandoning it
        assert session.rolls == [] and tray.flow is not None and tray.choice_view.has_focus
        assert said == ["les dés sont jetés : choisissez (p / n)"]
        await press(pilot, "p")
        record = session.rolls[-1]
        assert record.result["kind"] == "confrontation" and record.result["parry_rolled"] is True
        assert tray.flow is None and tray.line.has_focus


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


# ---------------------------------------------------------------- in the whole screen at 80×24


def on_screen(app: Any, widget: Any) -> list[str]:
    """The rows of `widget` as the terminal shows them (the compositor's lines, cropped)."""
    strips = screen_strips(app)
    region = widget.region
    return ["".join(seg.text for seg in strips[y].crop(region.x, region.right))
            for y in range(max(0, region.y), min(region.bottom, len(strips)))]


def tray_text(app: Any) -> str:
    return "\n".join(on_screen(app, app.pane("dice-tray")))


def seed_for(campaign: Any, line: str, want: Any) -> int:
    """A seed whose roll of `line` (choices answered by Enter) gives a result `want` accepts."""
    draft = parse(line, campaign)
    for seed in range(500):
        flow = RollFlow(draft, random.Random(seed)).start()
        while flow.prompt is not None:
            flow.choose("enter")
        if want(flow.result):
            return seed
    raise AssertionError(f"no seed for {line!r}")


def dice_shown(result: dict[str, Any], system: str, record: Any = None, campaign: Any = None) -> list[str]:
    """Each group of dice as the tray writes it: label (the people's names for a logged
    `record`), then every face."""
    desc = get_system(system).describe(result)
    if record is not None:
        from gmscreen.play.tables import campaign_table

        desc = name_description(desc, result, record.who, record.line, campaign, game=campaign_table(campaign))
    groups = desc.groups
    return [" ".join([g.label, *(str(d.face) for d in g.dice)]).strip() for g in groups]


async def _roll(pilot: Any, line: str) -> None:
    """Type the line and press Enter; the roll must be logged."""
    app = pilot.app
    before = len(app.session.rolls)
    await _type(pilot, line)
    await pilot.press("enter")
    await pilot.pause()
    assert len(app.session.rolls) == before + 1 and app.session.rolls[-1].line == line


# ---------------------------------------------------------------- players watching


async def test_players_watching_masks_the_tray_as_well_as_the_log(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await _roll(pilot, "mj loriane éloquence sd3")
        secret = app.session.rolls[-1]
        dice = " ".join(str(f) for f in secret.result["dice"])
        assert secret.gm_only and dice in tray_text(app) and "Loriane" in tray_text(app)
        await pilot.press("escape", "4", "w")                  # the log: players are watching
        await pilot.pause()
        assert app.players_watching and app.pane("log").players_watching
        shown = tray_text(app)
        assert "jet secret du MJ" in shown
        assert dice not in shown and "Loriane" not in shown and "réussite" not in shown and "échec" not in shown
        # a GM-only roll made while they watch is masked at once
        await _roll(pilot, "mj alexis force sd2")
        second = app.session.rolls[-1]
        assert second.gm_only
        shown = tray_text(app)
        assert "jet secret du MJ" in shown and "Alexis" not in shown
        # an open roll is shown whole, watching or not
        await _roll(pilot, "6d12 sd2 = 1 5 4 6 11 12")
        assert "1 5 4 6 11 12" in tray_text(app)
        await _roll(pilot, "mj alexis force sd2")
        assert "jet secret du MJ" in tray_text(app)
        # players gone: the GM sees the roll again
        await pilot.press("escape", "4", "w")
        await pilot.pause()
        assert not app.players_watching
        shown = tray_text(app)
        assert "jet secret du MJ" not in shown and "Alexis" in shown
        # A reveal from the log (`r`, `y`): asked in test_players_watching, told by the table in
        # test_table_flows, shown by the tray in test_show_record_shows_a_logged_roll_masked_….


async def test_a_pending_gm_only_choice_is_masked_while_players_watch(pane_host, open_sample) -> None:
    session = open_sample("eclats")
    line = "mj ysaure emp calmer 9"
    draft = parse(line, session.campaign)
    seed = next(s for s in range(200) if RollFlow(draft, random.Random(s)).start().prompt is not None)
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(seed)))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        app.players_watching = True
        tray.focus_line()
        tray.line.insert_text_at_cursor(line)
        await pilot.press("enter")
        await pilot.pause()
        assert tray.choice_view.has_focus
        text = str(tray.result_view.render())
        assert "jet secret du MJ" in text and "Ysaure" not in text


# ---------------------------------------------------------------- rules errors in French, on two rows


@pytest.mark.parametrize("system,line,words", [
    ("mir", "6d12 sd2 = 1 5 4", "il faut exactement 6 dés, 3 donnés"),
    ("mir", "20d12 sd2", "réserve : 20 hors limites : de 0 à 12"),
    ("tedeum", "louvensac charme 13 sans essoufflée = 1 2 3 4 5", "n'est pas le maximum 12, le dé ouvert s'arrête là ; 3 de trop"),
    ("arpeges", "marchand baratin -3 = 11 1", "dé de chance : face 11 impossible : un d10 va de 1 à 10"),
    ("magisphere", "shady négociation 25 = 5 5 5 5", "3 points d'Impulsion dépensés (3 relances), 2 seulement"),
])
async def test_rules_errors_speak_french_and_wrap(campaign_file, system: str, line: str, words: str) -> None:
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await _type(pilot, line)
        tray = app.pane("dice-tray")
        assert tray.info.has_class("-error")
        rows = on_screen(app, tray.info)
        shown = " ".join(row.strip() for row in rows)
        assert words in shown                                 # whole, even across two rows
        for english in ("expected", "impossible face", "too many", "got", "available"):
            assert english not in shown
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.rolls == [] or app.session.rolls[-1].line != line


def test_unknown_rules_reasons_keep_their_english_text() -> None:
    assert rule_message(RequestError("opponent_chance_dice", "a brand new reason")) == \
        "dé de chance (opposant) : a brand new reason"
    nested = RequestError("dice", "in_test", index=2, cause=RequestError("dice", "exact_dice", n=5, why="x", got=1))
    assert nested.reason == "test 2: expected exactly 5 dice (x), got 1"
    assert rule_message(nested) == "dés : test 2 : il faut exactement 5 dés, 1 donné (x)"
    assert rule_message(RequestError("weird_field", "too_few_dice", given=2)) == \
        "weird_field : pas assez de dés : 2 donnés, il en faut plus"


# ---------------------------------------------------------------- tab stays in the line


async def test_tab_with_nothing_to_complete_stays_in_the_line(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    bells: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.bell = lambda: bells.append(1)                    # type: ignore[method-assign]
        pane = app.current_pane
        await pilot.press("slash")
        await type_keys(app, pilot, "6d12 sd2 = 1")
        await pilot.press("tab")
        await pilot.pause()
        tray = app.pane("dice-tray")
        assert tray.line.has_focus and tray.line.value == "6d12 sd2 = 1" and bells
        assert app.current_pane == pane
        await pilot.press("tab", "tab")
        await pilot.pause()
        assert tray.line.has_focus
        # with a candidate, tab completes
        tray.line.value = ""
        await pilot.press(*"lor", "tab")
        await pilot.pause()
        assert tray.line.value == "loriane " and tray.line.has_focus
        await pilot.press("escape")                           # escape still leaves
        await pilot.pause()
        assert not tray.line.has_focus


# ---------------------------------------------------------------- contest dice all visible


@pytest.mark.parametrize("system,line", [
    ("arpeges", "thibault baratin +3 vs marchand baratin"),
    ("mir", "callia infiltration vs garde instinct"),
    ("tedeum", "louvensac comédie vs gentilhomme perspicacité"),
    ("magisphere", "granok force vs bob force"),
])
async def test_every_die_of_a_contest_is_on_screen(campaign_file, system: str, line: str) -> None:
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        campaign = app.session.campaign
        tray = app.pane("dice-tray")
        if system == "arpeges":                               # the action succeeds, the parry is rolled
            seeds = [seed_for(campaign, line, lambda r, n=n: r.get("actor_margin", -1) >= n) for n in (0, 4, 8)]
        else:
            seeds = [1, 3, 7, 11]
        for seed in seeds:
            tray.rng = random.Random(seed)
            await _type(pilot, line)
            await pilot.press("enter")
            await pilot.pause()
            for _ in range(6):                                # any choice: its default (parry, keep…)
                if tray.flow is None:
                    break
                await pilot.press("enter")
                await pilot.pause()
            record = app.session.rolls[-1]
            rows = on_screen(app, tray)
            for group in dice_shown(record.result, system, record, campaign):
                assert any(group in row for row in rows), (seed, group, rows)


# ---------------------------------------------------------------- history after a restart


async def test_history_is_rebuilt_from_the_roll_log_after_a_restart(campaign_file) -> None:
    path = campaign_file("mir")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await _roll(pilot, "loriane éloquence sd3")
        await _roll(pilot, "6d12 sd2")
        await pilot.press("escape")
        # a roll logged by another pane: a description, not a line to repeat
        app.table.record_roll(who="Alexis", line="initiative 1d10", request={"expression": "1d10"},
                        result={"expression": "1d10", "total": 4, "dice": [4]})
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    again = GMScreenApp(path)
    async with again.run_test(size=(80, 24)) as pilot:
        await ready(again, pilot)
        assert len(again.session.rolls) == 3
        tray = again.pane("dice-tray")
        await pilot.press("slash", "up")
        await pilot.pause()
        assert tray.line.value == "6d12 sd2"
        await pilot.press("up")
        await pilot.pause()
        assert tray.line.value == "loriane éloquence sd3"
        await pilot.press("down", "down", "escape")
        await pilot.pause()
        await pilot.press("full_stop")                        # `.` repeats the newest line of the log
        await pilot.pause()
        assert len(again.session.rolls) == 4 and again.session.rolls[-1].line == "6d12 sd2"


async def test_history_is_capped_newest_last(pane_host, open_sample) -> None:
    session = open_sample("mir")
    request = {"system": "mir", "kind": "simple", "pool": 5, "difficulty": 3}
    for n in range(130):
        session.record_roll(who="Loriane", line=f"loriane éloquence sd{n % 7 + 1}", request=request,
                            result=resolve(request, seed=n))
    app = pane_host(session, lambda: DiceTray(id="dice-tray"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tray = app.query_one(DiceTray)
        assert len(tray.history) == 100 and tray.history[-1] == "loriane éloquence sd4"   # n = 129
        tray.focus_line()
        await pilot.press("up")
        assert tray.line.value == "loriane éloquence sd4"


# ---------------------------------------------------------------- the opponent's full name


async def test_the_winner_is_named_in_full(campaign_file) -> None:
    line = "callia infiltration contre garde instinct"
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.pane("dice-tray").rng = random.Random(
            seed_for(app.session.campaign, line, lambda r: r["winner"] == "opponent"))
        await _roll(pilot, line)
        assert app.session.rolls[-1].result["winner"] == "opponent"
        assert "Callia perd contre le garde de la porte" in tray_text(app)      # not "Callia : Le garde… l'emporte"
        await pilot.press("escape", "4")
        await pilot.pause()
        rows = on_screen(app, app.pane("log"))
        assert any("Le garde de la porte l'emporte" in row for row in rows)
        assert not any(" garde l'emporte" in row for row in rows)


# ---------------------------------------------------------------- the grammar help at 80×24


async def test_grammar_help_fits_80_columns_with_aligned_examples(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("slash", "question_mark")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, GrammarHelp)
        text = app.screen.query_one("#grammar-text")
        width = text.size.width
        lines = str(text.render()).splitlines()
        assert max(len(line) for line in lines) <= width          # nothing cut at the right edge
        rows = on_screen(app, text)
        # the meanings start in one column, whether the example is short or long
        starts = {row.index(meaning) for row in rows for meaning in ("test simple", "pool brut", "+1d/−1d")
                  if meaning in row}
        assert len(starts) == 1
        assert any(row.strip() == "callia infiltration vs garde instinct" for row in rows)
        assert not any("Échap sort de la ligne" in row for row in rows)
        await pilot.press("pagedown", "pagedown")                  # the keys scroll it to its end
        await pilot.pause()
        assert any("Échap sort de la ligne" in row for row in on_screen(app, app.screen))
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, GrammarHelp)


# ---------------------------------------------------------------- show_record


async def test_show_record_shows_a_logged_roll_masked_when_players_watch(pane_host, open_sample) -> None:
    session = open_sample("mir")
    request = {"system": "mir", "kind": "opposed", "actor_pool": 5, "opponent_pool": 4}
    result = next(r for r in (resolve(request, seed=n) for n in range(100)) if r["winner"] == "opponent")
    record = session.record_roll(who="Callia", line="callia infiltration vs garde instinct",
                                 request=request, result=result)
    secret = session.record_roll(who="Garde", line="garde vigilance sd4", gm_only=True,
                                 request={"system": "mir", "kind": "simple", "pool": 3, "difficulty": 4},
                                 result=resolve({"system": "mir", "kind": "simple", "pool": 3,
                                                 "difficulty": 4}, seed=2))
    timer_roll = session.record_roll(who="Alexis", line="initiative 1d10", request={"expression": "1d10"},
                                     result={"expression": "1d10", "total": 7, "dice": [7]})
    class Host(pane_host):
        def get_theme_variable_defaults(self) -> dict[str, str]:
            return {**super().get_theme_variable_defaults(), **GM_COLOURS}

    app = Host(session, lambda: DiceTray(id="dice-tray"), lambda: RollLog(id="log"))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        tray.show_record(record)
        await pilot.pause()
        shown = str(tray.result_view.render())
        assert "Callia perd contre le garde de la porte" in shown
        assert all(group in shown for group in dice_shown(result, "mir", record, session.campaign))
        tray.show_record(timer_roll)
        await pilot.pause()
        assert "Alexis" in str(tray.result_view.render()) and "= 7" in str(tray.result_view.render())
        tray.show_record(secret)
        await pilot.pause()
        dice = " ".join(str(f) for f in secret.result["dice"])
        assert "MJ" in str(tray.result_view.render()) and dice in str(tray.result_view.render())
        app.query_one(RollLog).focus()
        await pilot.press("w")                                 # players watching: masked
        await pilot.pause()
        shown = str(tray.result_view.render())
        assert "jet secret du MJ" in shown and dice not in shown and "Garde" not in shown
        app.table.reveal(secret.seq)                            # revealed: shown to everyone
        await pilot.pause()
        shown = str(tray.result_view.render())
        assert "jet secret du MJ" not in shown and dice in shown


async def test_a_short_result_takes_its_place_without_moving_the_rest(campaign_file) -> None:
    """A roll that fits beside the (emptied) odds row leaves the row where it is: the result
    is not resized, so the terminal gets it once, not laid out and sent a second time. (A
    contest taller than the room takes the row: test_every_die_of_a_contest_is_on_screen.)"""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        before = tray.result_view.region
        for line in ("6d12 sd2", "callia infiltration vs garde instinct", "loriane éloquence sd3"):
            await _type(pilot, line)
            assert tray.result_view.region == before
            await pilot.press("enter")
            await pilot.pause()
            assert tray.result_view.region == before and tray.info.display, line
            assert "l'emporte" in tray_text(app) or "perd contre" in tray_text(app) or "SD" in tray_text(app), tray_text(app)
        assert len(app.session.rolls) == 3


async def test_a_result_unmasked_later_still_gets_the_row_it_needs(campaign_file) -> None:
    """A GM-only contest rolled while players watch shows one masked row, so the odds row
    stays; when the players stop watching, the whole contest comes back and the odds row
    must give way again or the last dice are cut off at 80×24."""
    line = "louvensac comédie vs gentilhomme perspicacité mj"
    app = GMScreenApp(campaign_file("tedeum"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        room = tray.content_size.height - 2
        tall = 0
        for seed in (1, 3, 7, 11, 13, 17):
            app.toggle_players_watching()
            tray.rng = random.Random(seed)
            await _type(pilot, line)
            await pilot.press("enter")
            await pilot.pause()
            for _ in range(6):                                # any choice: its default
                if tray.flow is None:
                    break
                await pilot.press("enter")
                await pilot.pause()
            assert tray.info.display                          # one masked row: the odds row stays
            app.toggle_players_watching()
            await pilot.pause()
            rows = on_screen(app, tray)
            for group in dice_shown(app.session.rolls[-1].result, "tedeum", app.session.rolls[-1],
                                    app.session.campaign):
                assert any(group in row for row in rows), (seed, group, rows)
            tall += tray.result_view.rows > room
        assert tall                                           # at least one needed the row


# ---------------------------------------------------------------- repeat, escape and undo around a roll


async def test_repeat_from_a_pane_keeps_focus_there_and_the_typed_line(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        await pilot.press("slash")
        await type_keys(app, pilot, "6d12 sd2", "enter")
        await pilot.pause()
        assert len(app.session.rolls) == 1
        await type_keys(app, pilot, "loriane sd3")         # a line being typed
        await pilot.press("escape", "4")                   # off to the log
        await pilot.pause()
        assert app._pane_of(app.focused).id == "log"
        await pilot.press("full_stop")                     # repeat the last roll from the log
        await pilot.pause()
        assert len(app.session.rolls) == 2 and app.session.rolls[-1].line == "6d12 sd2"
        assert app._pane_of(app.focused).id == "log"       # still in the log...
        assert tray.line.value == "loriane sd3"            # ...and the typed line is kept
        await pilot.press("z")                             # a pane key, not text in the line
        await pilot.pause()
        assert app.screen.maximized is app.pane("log")
        assert tray.line.value == "loriane sd3"


async def test_escape_after_the_dice_are_rolled_does_not_drop_the_roll(campaign_file) -> None:
    """Éclats: Ysaure rolls, rerolls, then escape — the dice shown must end in the log."""
    import random

    app = GMScreenApp(campaign_file("eclats"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        tray.rng = random.Random(4)
        await pilot.press("slash")
        await type_keys(app, pilot, "ysaure emp calmer 9", "enter")
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None     # reroll or keep?
        await pilot.press("r")
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None     # one roll left: asked again
        dice = list(tray.flow.request["dice"])
        await pilot.press("escape")
        await pilot.pause()
        assert tray.flow is not None and app.session.rolls == []           # still asked, not dropped
        await pilot.press("g")
        await pilot.pause()
        assert len(app.session.rolls) == 1 and tray.flow is None
        assert app.session.rolls[-1].result["dice"] == dice == [3, 4]


async def test_undo_waits_while_an_impulsion_choice_is_pending(campaign_file) -> None:
    """Undo under a pending reroll would let the roll spend Impulsion the sheet no longer
    holds: ctrl+z says to answer first, and works again once the roll is settled."""
    app = GMScreenApp(campaign_file("magisphere"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        tray.rng = random.Random(3)
        await pilot.press("1", "+")                             # a change to undo: a resource up
        await pilot.pause()
        revision = app.session.campaign.revision
        assert app.session.can_undo
        await pilot.press("slash")
        await type_keys(app, pilot, "shady discr 35", "enter")
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert tray.flow is not None and app.session.campaign.revision == revision
        assert any("un jet attend un choix" in n.message for n in app.notices)
        await pilot.press("g")                                  # keep: the roll is logged (undo works
        await pilot.pause()                                     # again: test_table_flows)
        assert tray.flow is None and len(app.session.rolls) == 1


# ---------------------------------------------------------------- people, not roles (issue 12)


@pytest.mark.parametrize("system,line,names", [
    ("arpeges", "thibault baratin vs marchand baratin", ("Thibault perd contre Maître Gorlois, marchand",
                                                        "Thibault l'emporte")),
    ("mir", "callia infiltration vs garde instinct", ("Callia l'emporte", "Callia perd contre le garde de la porte")),
    ("tedeum", "louvensac comédie vs gentilhomme perspicacité",
     ("Mlle de Louvensac l'emporte", "Mlle de Louvensac perd contre le gentilhomme huguenot", "égalité")),
    ("magisphere", "granok force vs bob force", ("Granok l'emporte", "Granok perd contre le gros Bob")),
])
async def test_a_contest_in_the_tray_names_people_not_roles(pane_host, open_sample, system, line, names) -> None:
    """What the terminal shows of an opposed roll: the winner by name, each side's dice by name,
    no "acteur" / "opposant" anywhere; the log row says the same."""
    session = open_sample(system)
    async with _tray(pane_host, session, seed=3) as (app, pilot, tray):
        await _enter(pilot, line)
        for _ in range(6):                                    # any choice: its default
            if tray.flow is None:
                break
            await press(pilot, "enter")
        shown = _text(tray.result_view)
        assert any(name in shown for name in names), shown
        assert not re.search(r"\b(acteur|opposant)\b", shown), shown
        record = session.rolls[-1]
        assert all(group in shown for group in dice_shown(record.result, system, record, session.campaign))


async def test_mir_help_dice_carry_the_helpers_name(pane_host, open_sample) -> None:
    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _enter(pilot, "alexis force sd4 aide loriane")
        shown = _text(tray.result_view)
        faces = " ".join(str(f) for f in session.rolls[-1].result["helper_dice"][0])
        assert f"aide Loriane {faces}" in shown and "aide 1" not in shown


async def test_a_line_error_shows_no_offset(pane_host, open_sample) -> None:
    """"▲16 « 3d » : …" was a character offset: the message quotes the word instead."""
    session = open_sample("mir")
    async with _tray(pane_host, session) as (app, pilot, tray):
        await _type(pilot, "alexis force sd4 aide 3d")
        info = _text(tray.info)
        assert "« 3d »" in info and not re.search(r"[▲^]\d", info), info
