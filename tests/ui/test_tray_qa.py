"""Dice tray problems found by QA at 80×24, kept as regressions: real keys, what is on screen."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gmscreen.rules import RequestError, get_system, resolve
from gmscreen.ui import GMScreenApp
from gmscreen.play.quickroll import RollFlow, parse, rule_message
from gmscreen.ui.widgets.tray.dice_tray import DiceTray, GrammarHelp
from gmscreen.ui.widgets.log.roll_log import RollLog

from _pilot import ready

GM_COLOURS = {"gm-good": "#4EBF71", "gm-bad": "#E05252", "gm-crit": "#FFB454", "gm-fumble": "#FF6E6E",
              "gm-hidden": "#9E9EAE", "gm-current": "#FFB454"}


def on_screen(app: Any, widget: Any) -> list[str]:
    """The rows of `widget` as the terminal shows them (the compositor's lines, cropped)."""
    strips = app.screen._compositor.render_strips()
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


def dice_shown(result: dict[str, Any], system: str) -> list[str]:
    """Each group of dice as the tray writes it: label, then every face."""
    groups = get_system(system).describe(result).groups
    return [" ".join([g.label, *(str(d.face) for d in g.dice)]).strip() for g in groups]


async def _type(pilot: Any, line: str) -> None:
    """`/` from a pane (in the line it would be typed), then the line: its start inserted at the
    cursor (fast), its last keys pressed."""
    tray = pilot.app.pane("dice-tray")
    if not tray.line.has_focus:
        await pilot.press("slash")
    tray.line.insert_text_at_cursor(line[:-3])
    await pilot.press(*line[-3:])
    await pilot.pause()


async def _roll(pilot: Any, line: str) -> None:
    """Type the line and press Enter; the roll must be logged."""
    app = pilot.app
    before = len(app.session.rolls)
    await _type(pilot, line)
    await pilot.press("enter")
    await pilot.pause()
    assert len(app.session.rolls) == before + 1 and app.session.rolls[-1].line == line


# ---------------------------------------------------------------- 1. players watching


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
        # watching again, then the GM reveals the roll in the log: the tray shows it
        await pilot.press("w")
        await pilot.pause()
        assert "jet secret du MJ" in tray_text(app)
        assert app.pane("log").selected_record.seq == app.session.rolls[-1].seq
        await pilot.press("r")
        await pilot.pause()
        assert app.session.rolls[-1].revealed
        shown = tray_text(app)
        assert "jet secret du MJ" not in shown and "Alexis" in shown


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


# ---------------------------------------------------------------- 2. rules errors in French, on two rows


@pytest.mark.parametrize("system,line,words", [
    ("mir", "6d12 sd2 = 1 5 4", "il faut exactement 6 dés, 3 donnés"),
    ("mir", "20d12 sd2", "réserve : 20 hors limites : de 0 à 12"),
    ("tedeum", "louvensac charme 13 = 1 2 3 4 5", "n'est pas le maximum 12, le dé ouvert s'arrête là ; 3 de trop"),
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
    assert rule_message(nested) == "dés : test 2 : il faut exactement 5 dés, 1 donné"
    assert rule_message(RequestError("weird_field", "too_few_dice", given=2)) == \
        "weird_field : pas assez de dés : 2 donnés, il en faut plus"


# ---------------------------------------------------------------- 3. tab stays in the line


async def test_tab_with_nothing_to_complete_stays_in_the_line(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    bells: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.bell = lambda: bells.append(1)                    # type: ignore[method-assign]
        pane = app.current_pane
        await pilot.press("slash", *"6d12 sd2 = 1")
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


# ---------------------------------------------------------------- 4. contest dice all visible


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
            for group in dice_shown(record.result, system):
                assert any(group in row for row in rows), (seed, group, rows)


# ---------------------------------------------------------------- 5. history after a restart


async def test_history_is_rebuilt_from_the_roll_log_after_a_restart(campaign_file) -> None:
    path = campaign_file("mir")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await _roll(pilot, "loriane éloquence sd3")
        await _roll(pilot, "6d12 sd2")
        await pilot.press("escape")
        # a roll logged by another pane: a description, not a line to repeat
        app.record_roll(who="Alexis", line="initiative 1d10", request={"expression": "1d10"},
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


# ---------------------------------------------------------------- 6. the opponent's full name


async def test_the_winner_is_named_in_full(campaign_file) -> None:
    line = "callia infiltration contre garde instinct"
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.pane("dice-tray").rng = random.Random(
            seed_for(app.session.campaign, line, lambda r: r["winner"] == "opponent"))
        await _roll(pilot, line)
        assert app.session.rolls[-1].result["winner"] == "opponent"
        assert "Le garde de la porte l'emporte" in tray_text(app)
        await pilot.press("escape", "4")
        await pilot.pause()
        rows = on_screen(app, app.pane("log"))
        assert any("Le garde de la porte l'emporte" in row for row in rows)
        assert not any(" garde l'emporte" in row for row in rows)


# ---------------------------------------------------------------- 7. the grammar help at 80×24


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


# ---------------------------------------------------------------- 8. show_record


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
        assert "Callia : Le garde de la porte l'emporte" in shown
        assert all(group in shown for group in dice_shown(result, "mir"))
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
        app.reveal_roll(secret.seq)                            # revealed: shown to everyone
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
            assert "l'emporte" in tray_text(app) or "SD" in tray_text(app)
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
            for group in dice_shown(app.session.rolls[-1].result, "tedeum"):
                assert any(group in row for row in rows), (seed, group, rows)
            tall += tray._shown_rows > room
        assert tall                                           # at least one needed the row
