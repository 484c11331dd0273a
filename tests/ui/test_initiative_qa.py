"""Initiative problems found in QA runs, kept as regressions (real keys, what is shown or saved)."""

from __future__ import annotations

from typing import Any

import pytest

from gmscreen.campaign.model import Condition
from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.initiative import pane as initiative_module
from gmscreen.ui.widgets.initiative.pane import STATUS_WORDS, InitiativePane

from _initiative import current, initiative_pane, make, order
from _pilot import ready


def table_lines(pane: InitiativePane) -> list[str]:
    """The table as drawn (cut at the pane's right edge, as the GM sees it)."""
    return [pane.table.render_line(y).text for y in range(pane.table.size.height)]


def fixed_initiative(monkeypatch: pytest.MonkeyPatch, values: dict[str, int]) -> None:
    """`I` rolls these instead of dice (by name), so the order it makes is known."""
    monkeypatch.setattr(initiative_module, "roll_initiative", lambda app, session, who: values[who])


# ---------------------------------------------------------------- 1. `I` mid-round is fair


async def test_reroll_mid_round_nobody_skipped_or_twice(open_sample, pane_host, monkeypatch) -> None:
    session = open_sample("mir")      # round 2: Callia has acted, the guard plays, Loriane waits
    app, notes = make(pane_host, session)
    c = session.campaign
    fixed_initiative(monkeypatch, {"Callia": 1, "Le garde de la porte": 2, "Alexis": 3, "Loriane": 10,
                                   "Chien de garde": 20})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("I")
        await pilot.pause()
        # Callia keeps her place and her mark, the guard stays current, the rest sorted after him.
        assert order(session) == ["callia", "garde", "chien", "loriane", "alexis"]
        assert current(session) == "garde" and c.encounter.entries[0].acted
        assert "nouvel ordre complet au round 3" in notes[-1]
        played = ["callia"]
        while c.encounter.round == 2:
            played.append(current(session))
            await pilot.press("n")
            await pilot.pause()
        assert played == ["callia", "garde", "chien", "alexis"]      # each once; Loriane still waits
        # Round 3: the new order in full, its first one plays.
        assert order(session) == ["chien", "loriane", "alexis", "garde", "callia"]
        assert current(session) == "chien" and not any(e.acted for e in c.encounter.entries)
        pane = app.query_one(InitiativePane)
        pane._cursor_to("e:callia")
        await pilot.press("+", "p")                                # a change, then back: that sort undone
        await pilot.pause()
        assert c.encounter.round == 2 and current(session) == "alexis"
        assert order(session) == ["callia", "garde", "chien", "loriane", "alexis"]
        await pilot.press("n")                                     # and made again at the round's end
        await pilot.pause()
        assert c.encounter.round == 3 and order(session)[:2] == ["chien", "loriane"]
        # Between rounds (nobody has acted yet) `I` just sorts, and the new first one plays.
        fixed_initiative(monkeypatch, {"Callia": 30, "Le garde de la porte": 2, "Alexis": 3, "Loriane": 10,
                                       "Chien de garde": 20})
        await pilot.press("I")
        await pilot.pause()
        assert order(session) == ["callia", "chien", "loriane", "alexis", "garde"]
        assert current(session) == "callia"


async def test_sort_before_the_fight_sorts_everything(open_sample, pane_host, monkeypatch) -> None:
    session = open_sample("tedeum")
    with session.edit("pas de combat") as b:
        b.set(("encounter", "round"), 0)
        b.set(("encounter", "entries", 0, "acted"), False)
    app, _ = make(pane_host, session)
    fixed_initiative(monkeypatch, {"Mlle de Louvensac": 1, "le capitaine de Saint-Gelais": 5,
                                   "le gentilhomme huguenot": 9})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("I")
        await pilot.pause()
        assert order(session) == ["gentilhomme", "saint-gelais", "louvensac"]


async def test_sort_mid_round_keeps_who_acted_and_the_current_actor(pane_app) -> None:
    # round 1: Thibault has acted, Gorlois plays
    async with pane_app("arpeges", initiative_pane, size=(80, 24)) as (session, app, pilot, _):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        pane._cursor_to("e:garde-marche")
        await pilot.press(*["+"] * 8)                              # the guard: 2 -> 10, above everyone
        await pilot.press("s")
        await pilot.pause()
        assert order(session) == ["thibault", "gorlois", "garde-marche", "sibylle"]
        assert current(session) == "gorlois" and c.encounter.entries[0].acted
        await pilot.press("n", "n", "n")                           # Gorlois, the guard, Sibylle
        await pilot.pause()
        assert c.encounter.round == 2
        assert order(session) == ["garde-marche", "thibault", "gorlois", "sibylle"]
        assert current(session) == "garde-marche"


# ---------------------------------------------------------------- 2. the status word once


@pytest.mark.parametrize("status", sorted(STATUS_WORDS))
async def test_timer_status_word_shown_once(open_sample, pane_host, status: str) -> None:
    session = open_sample("magisphere")     # an opposition (gagné, perdu, égalité) and a countdown
    app, _ = make(pane_host, session)
    with session.edit("statut") as b:
        b.set(("timers", 0, "status"), status)
        b.set(("timers", 1, "status"), status)
        b.set(("timers", 1, "rounds"), 0 if status == "done" else 2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        word = STATUS_WORDS[status]
        rows = [line for line in table_lines(app.query_one(InitiativePane)) if "⧗" in line]
        assert len(rows) == 2
        for row in rows:
            assert row.count(word) == 1, row


async def test_countdown_run_down_reads_termine_once(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, _):
        pane = app.query_one(InitiativePane)
        pane._cursor_to("t:releve")
        await pilot.press("-", "-", "-")
        await pilot.pause()
        assert session.campaign.timers[1].status == "done"
        row = next(line for line in table_lines(pane) if "Relève" in line)
        assert row.count("terminé") == 1 and "0 round" in row
        detail = str(pane.query_one("#initiative-detail").render())
        assert detail.count("terminé") == 1


async def test_finished_extended_test_status_once(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        pane = app.query_one(InitiativePane)
        await pilot.press("E", "o")                                # out of the fight (R20)
        await pilot.pause()
        pane._cursor_to("t:guerison-callia")
        await pilot.press("r")                                     # the last test
        await pilot.pause()
        timer = session.campaign.timers[0]
        word = STATUS_WORDS[timer.status]
        assert timer.status in ("success", "failure")
        row = next(line for line in table_lines(pane) if "Guérison" in line)
        assert row.count(word) == 1
        await pilot.press("r")
        await pilot.pause()
        assert notes[-1].count(word) == 1


# ---------------------------------------------------------------- 3. the interval's dice in the tray


async def test_interval_roll_shown_in_the_dice_tray(campaign_file, monkeypatch) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        shown: list[Any] = []
        monkeypatch.setattr(app.pane("dice-tray"), "show_record", shown.append, raising=False)
        notes: list[str] = []
        monkeypatch.setattr(app, "warn", lambda message, severity="warning": notes.append(message))
        await pilot.press("2")                                     # the initiative pane
        await pilot.pause()
        await pilot.press("E", "o")                                # out of the fight (R20)
        await pilot.pause()
        app.pane("initiative")._cursor_to("t:guerison-callia")
        await pilot.press("r")
        await pilot.pause()
        record = app.session.rolls[-1]
        assert record.line.endswith("· test 3")
        assert shown == [record]                                   # the logged roll, in the tray
        assert any("Guérison" in n and ("réussi" in n or "échoué" in n) for n in notes)   # and the notice


# ---------------------------------------------------------------- 4. columns fit the pane


async def test_wide_layout_shows_conditions_and_actions(campaign_file) -> None:
    app = GMScreenApp(campaign_file("arpeges"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        pane = app.pane("initiative")
        await pilot.pause()
        lines = table_lines(pane)
        assert pane.table.size.width < 50                          # the narrow top-right cell
        assert "États" in lines[0]
        thibault = next(line for line in lines if "Thibault" in line)
        sibylle = next(line for line in lines if "Sibylle" in line)
        assert "2 actions −3" in thibault                          # was off the right edge
        assert "Étourdie (1)" in sibylle
        assert "Le garde du ma…" in next(line for line in lines if "⧗" in line)


async def test_long_notes_cut_at_the_edge_and_whole_in_the_detail(open_sample, pane_host) -> None:
    session = open_sample("arpeges")
    with session.edit("états") as b:
        for name, rounds in (("Empoisonné par la lame du marchand", 3), ("Aveuglé par la farine", 2)):
            b.insert(("characters", 0, "conditions"), None, Condition(name=name, rounds=rounds))
    app, _ = make(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.query_one(InitiativePane)
        thibault = next(line for line in table_lines(pane) if "Thibault" in line)
        assert "(3)" in thibault and "(2)" in thibault and "−3" in thibault   # rounds and malus kept
        assert "…" in thibault
        pane._cursor_to("e:thibault")
        await pilot.pause()
        detail = str(pane.query_one("#initiative-detail").render())
        assert "Empoisonné par la lame du marchand (3 rounds)" in detail
        assert "• Baratiner maître Gorlois" in detail


async def test_columns_follow_a_resize(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, _):
        pane = app.query_one(InitiativePane)
        assert "Ébloui par la lanterne (1)" in next(line for line in table_lines(pane) if "Alexis" in line)
        await pilot.resize_terminal(46, 24)
        await pilot.pause()
        await pilot.pause()
        alexis = next(line for line in table_lines(pane) if "Alexis" in line)
        assert "(1)" in alexis and len(alexis.rstrip()) <= 46
        assert "Fièvre grise" in next(line for line in table_lines(pane) if "Callia" in line)


# ---------------------------------------------------------------- 5. `p` gives ticks back step by step


async def test_previous_turns_give_back_ticks_across_other_changes(pane_app) -> None:
    # round 2, the guard plays; Alexis: Ébloui (1); Relève: 3 rounds
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        c = session.campaign
        pane = app.query_one(InitiativePane)
        with session.edit("états") as b:                           # the guard: Sonné (2)
            b.insert(("characters", 3, "conditions"), None, Condition(name="Sonné", rounds=2))
        app.refresh_views()
        await pilot.press("n")                                     # the guard acts: Sonné 2 -> 1
        await pilot.pause()
        pane._cursor_to("e:chien")
        await pilot.press("+")                                     # another change in between
        await pilot.press("n")                                     # Alexis acts: Ébloui expires
        await pilot.pause()
        await pilot.press("+")                                     # and another
        await pilot.press("n")                                     # the dog: new round, Relève 3 -> 2
        await pilot.pause()
        assert c.encounter.round == 3 and c.timers[1].rounds == 2
        assert c.character("alexis").conditions == [] and c.character("garde").conditions[0].rounds == 1
        pane._cursor_to("e:chien")
        await pilot.press("-")                                     # a change after the last `n`
        await pilot.pause()
        await pilot.press("p")                                     # back to the dog in round 2
        await pilot.pause()
        assert c.encounter.round == 2 and current(session) == "chien"
        assert c.timers[1].rounds == 3                             # the countdown tick comes back
        await pilot.press("p")                                     # back to Alexis: Ébloui comes back
        await pilot.pause()
        assert current(session) == "alexis"
        assert [(x.name, x.rounds) for x in c.character("alexis").conditions] == [("Ébloui par la lanterne", 1)]
        assert "Ébloui par la lanterne revient : Alexis" in notes
        await pilot.press("p")                                     # back to the guard: Sonné 2 again
        await pilot.pause()
        assert current(session) == "garde" and c.character("garde").conditions[-1].rounds == 2
        chien = next(e for e in c.encounter.entries if e.id == "chien")
        assert chien.initiative == 3                               # the other changes are kept
        await pilot.press("n", "n")                                # and playing again ticks again
        await pilot.pause()
        assert c.character("garde").conditions[-1].rounds == 1 and c.character("alexis").conditions == []
        app.undo()                                                 # ctrl+z still goes step by step
        await pilot.pause()
        assert [(x.name, x.rounds) for x in c.character("alexis").conditions] == [("Ébloui par la lanterne", 1)]


async def test_previous_turn_keeps_what_the_gm_changed_since(pane_app) -> None:
    async with pane_app("mir", initiative_pane, size=(80, 24)) as (session, app, pilot, notes):
        c = session.campaign
        await pilot.press("n", "n")                                # the guard, then Alexis: Ébloui expires
        await pilot.pause()
        with session.edit("le MJ le remet") as b:                  # the GM puts Ébloui back by hand
            b.insert(("characters", 0, "conditions"), None, Condition(name="Ébloui par la lanterne", rounds=4))
        app.refresh_views()
        await pilot.press("p")
        await pilot.pause()
        assert current(session) == "alexis"
        assert [(x.name, x.rounds) for x in c.character("alexis").conditions] == [("Ébloui par la lanterne", 4)]
        assert "changé depuis" in notes[-1]
