"""Players watching the GM's screen (the log's `w`): a roll whose difficulty is hidden (`caché`,
MIR R8, Éclats R10) shows its dice and outcome but never its difficulty; a GM-only roll (`mj`)
shows nothing of itself. Every step reads the whole screen, as a player would."""

from __future__ import annotations

import random
from typing import Any

from gmscreen.play.quickroll import RollFlow, parse
from gmscreen.ui import GMScreenApp

from _pilot import press, ready, screen_text, until


def _screen(app: Any) -> str:
    return "\n".join(screen_text(app))


def _seed(campaign: Any, line: str, want: Any) -> int:
    """A seed whose roll of `line` shows what `want` asks of its flow once started."""
    draft = parse(line, campaign)
    for seed in range(500):
        flow = RollFlow(draft, random.Random(seed)).start()
        if want(flow):
            return seed
    raise AssertionError(f"no seed for {line!r}")


async def _watched(app: Any, pilot: Any) -> None:
    """The log pane on screen (the difficulty table is not: it shows every difficulty by
    design), players watching."""
    await ready(app, pilot)
    await press(pilot, "escape", "4", "w")
    assert app.players_watching


async def _type(pilot: Any, line: str) -> None:
    """`/`, then the line typed (its start inserted, its last keys pressed)."""
    await press(pilot, "slash")
    pilot.app.pane("dice-tray").line.insert_text_at_cursor(line[:-2])
    await press(pilot, *line[-2:])


def _leaks(screen: str, secrets: tuple[str, ...]) -> list[str]:
    return [s for s in secrets if s.casefold() in screen.casefold()]


async def test_the_screen_says_players_are_watching(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert "JOUEURS PRÉSENTS" not in _screen(app)
        await press(pilot, "escape", "4", "w")
        assert screen_text(app)[0].startswith(" JOUEURS PRÉSENTS ")        # first on the status line
        for pane in ("1", "2", "3", "4"):                                  # whatever pane is shown
            await press(pilot, "escape", pane)
            assert "JOUEURS PRÉSENTS" in screen_text(app)[0]
        await press(pilot, "escape", "4", "w")
        assert "JOUEURS PRÉSENTS" not in _screen(app)


async def test_a_hidden_difficulty_shows_dice_and_outcome_never_the_difficulty(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    secrets = ("sd3", "SD 3", "marge", "%")
    async with app.run_test(size=(80, 24)) as pilot:
        await _watched(app, pilot)
        await _type(pilot, "caché loriane éloquence sd3")
        screen = _screen(app)
        assert not _leaks(screen, secrets), screen                     # the line, its odds
        assert "Loriane" in screen and "difficulté secrète" in screen
        assert app.pane("difficulty") is not None and app.pane("difficulty").draft is None   # the difficulty table is told nothing
        await press(pilot, "enter")
        rec = app.session.rolls[-1]
        assert rec.result["hidden"] and not rec.gm_only
        screen = _screen(app)
        assert not _leaks(screen, secrets), screen                     # the result, the log row
        dice = " ".join(str(f) for f in rec.result["dice"])
        outcome = "réussite" if rec.result["outcome"] == "success" else "échec"
        assert dice in screen and outcome in screen                   # theirs to see
        log_row = next(row for row in screen_text(app) if "Loriane" in row and "difficulté secrète" in row)
        assert outcome in log_row
        # the GM alone again: everything shows
        await press(pilot, "escape", "4", "w")
        screen = _screen(app)
        assert "sd3" in screen and "SD 3" in screen


async def test_an_eclats_player_sees_the_die_to_decide_on_not_the_threshold(campaign_file) -> None:
    app = GMScreenApp(campaign_file("eclats"))
    line = "caché ysaure emp calmer 9"
    secrets = ("calmer 9", "seuil", "marge", "%")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        seed = _seed(app.session.campaign, line,
                     lambda f: f.prompt is not None and f.choose("r") and f.prompt is not None)
        app.pane("dice-tray").rng = random.Random(seed)
        await press(pilot, "escape", "4", "w")
        await _type(pilot, line)
        await press(pilot, "enter")
        tray = app.pane("dice-tray")
        # R5 is asked of every hidden roll (asked only when the skill suffices, it would tell),
        # in its public words and without Enter's choice (the odds' own would tell it too).
        assert tray.flow is not None and tray.flow.prompt is not None and tray.flow.result is None
        screen = _screen(app)
        assert not _leaks(screen, secrets) and "(R5)" in screen and "Entrée" not in screen, screen
        await press(pilot, "r")
        assert tray.flow is not None and tray.flow.prompt is not None
        screen = _screen(app)
        assert not _leaks(screen, secrets) and "Entrée" not in screen, screen   # the prompt, the pending result
        die = tray.flow.request["dice"][-1]
        assert f"dé {die}" in screen and "relancer" in screen          # the die they decide on
        await press(pilot, "g")
        screen = _screen(app)
        assert tray.flow is None and not _leaks(screen, secrets), screen


async def test_a_magisphere_reroll_prompt_does_not_give_the_threshold_away(campaign_file) -> None:
    app = GMScreenApp(campaign_file("magisphere"))
    line = "caché shady négociation 25"
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        seed = _seed(app.session.campaign, line,
                     lambda f: f.prompt is not None and f.result is not None and f.result["score"] != 25
                     and 25 not in f.request.get("dice", []))
        app.pane("dice-tray").rng = random.Random(seed)
        await press(pilot, "escape", "4", "w")
        await _type(pilot, line)
        await press(pilot, "enter")
        assert app.pane("dice-tray").flow.prompt is not None
        screen = _screen(app)
        assert not _leaks(screen, ("25", "seuil", "marge", "%")), screen
        assert "difficulté secrète" in screen
        await press(pilot, "enter")
        assert not _leaks(_screen(app), ("25", "seuil", "marge")), _screen(app)


async def test_a_gm_only_roll_shows_nothing_of_itself(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _watched(app, pilot)
        await _type(pilot, "mj loriane éloquence sd3")
        secrets = ("Loriane", "éloquence", "sd3", "SD 3", "%")
        screen = _screen(app)
        assert not _leaks(screen, secrets), screen
        assert "jet secret du MJ" in screen and app.pane("difficulty").draft is None
        await press(pilot, "enter")
        rec = app.session.rolls[-1]
        assert rec.gm_only
        dice = " ".join(str(f) for f in rec.result["dice"])
        screen = _screen(app)
        assert not _leaks(screen, (*secrets, dice, "réussite", "échec")), screen


async def test_a_gm_only_choice_shows_its_keys_only(campaign_file) -> None:
    app = GMScreenApp(campaign_file("eclats"))
    line = "mj ysaure emp calmer 9"
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        seed = _seed(app.session.campaign, line, lambda f: f.prompt is not None)
        app.pane("dice-tray").rng = random.Random(seed)
        await press(pilot, "escape", "4", "w")
        await _type(pilot, line)
        await press(pilot, "enter")
        screen = _screen(app)
        assert not _leaks(screen, ("Ysaure", "calmer", "seuil", "dé ", "%")), screen
        assert "jet secret du MJ : choisir" in screen and " r " in screen
        await press(pilot, "g")
        assert not _leaks(_screen(app), ("Ysaure", "calmer", "seuil")), _screen(app)


async def test_a_hidden_extended_test_shows_no_threshold_in_the_queue(campaign_file) -> None:
    """MIR R8: "in an extended test the players cannot estimate the time needed"."""
    app = GMScreenApp(campaign_file("mir"))
    secrets = ("9 succès", "/9", "sd", "marge")        # (the sample's open Guérison says 6/8: public)
    async with app.run_test(size=(80, 24)) as pilot:
        await _watched(app, pilot)
        line = "caché loriane guérison 9 tour max3"            # a first interval that decides nothing
        seed = _seed(app.session.campaign, line, lambda f: f.result is not None and f.result["outcome"] == "pending")
        app.pane("dice-tray").rng = random.Random(seed)
        await _type(pilot, line)
        await press(pilot, "enter")
        timer = app.session.campaign.timers[-1]
        assert timer.request["hidden"] and timer.request["threshold"] == 9
        screen = _screen(app)
        assert not _leaks(screen, secrets), screen                     # the tray, the log, the status line
        await press(pilot, "escape", "2")
        pane = app.pane("initiative")
        assert timer.status == "running"
        pane._cursor_to(f"t:{timer.id}")
        await press(pilot, "r")                                        # the next interval, from the queue
        assert await until(app, pilot, lambda: len(app.session.campaign.timers[-1].dice["rolls"]) == 2)
        screen = _screen(app)
        assert not _leaks(screen, secrets), screen                     # the row, its detail, the notice
        assert "difficulté secrète" in screen
        await press(pilot, "escape", "4", "w")                         # the GM alone: the test in full
        await press(pilot, "escape", "2")
        assert "9 succès" in _screen(app)


async def test_a_secret_line_that_does_not_read_is_not_quoted(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _watched(app, pilot)
        await _type(pilot, "caché loriane éloquence sd9")             # SD 9: out of the table
        tray = app.pane("dice-tray")
        assert tray.error is not None
        screen = _screen(app)
        assert not _leaks(screen, ("sd9", "SD 9", "hors limites")), screen
        assert "difficulté secrète" in screen and "ne se lit pas encore" in screen
        await press(pilot, *["backspace"] * 3, "s", "d", "3")        # fixed: odds masked as for any hidden roll
        assert tray.error is None and "ne se lit pas" not in _screen(app)
        await press(pilot, "escape", "4", "w")                        # the GM alone: the line shows again
        assert "sd3" in _screen(app)


async def test_slash_in_the_line_does_nothing_so_mj_stays_secret(campaign_file) -> None:
    """`/` is the key that brings the GM to the line: pressed again there it went into the line,
    and `/mj …` was neither read as secret nor masked while players watched."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _watched(app, pilot)
        tray = app.pane("dice-tray")
        await press(pilot, "slash", "slash")
        assert app.focused is tray.line and tray.line.value == ""       # nothing typed, no bell
        await press(pilot, *"mj", "space")
        tray.line.insert_text_at_cursor("loriane éloquence s")
        await press(pilot, "d", "3")
        assert tray.line.value == "mj loriane éloquence sd3" and tray.line.password
        screen = _screen(app)
        assert not _leaks(screen, ("Loriane", "éloquence", "sd3")), screen
        assert "jet secret du MJ" in screen
        await press(pilot, "home", "slash")                              # nor at the start of a line
        assert tray.line.value == "mj loriane éloquence sd3"


async def test_an_opposition_against_a_hidden_npc_never_names_them(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        garde = next(i for i, ch in enumerate(app.session.campaign.characters) if ch.name.startswith("Le garde"))
        with app.session.edit("caché") as b:
            b.set(("characters", garde, "hidden"), True)
        line = "callia infiltration vs garde instinct"
        seed = _seed(app.session.campaign, line, lambda f: f.result is not None and f.result["winner"] == "opponent")
        app.pane("dice-tray").rng = random.Random(seed)
        await press(pilot, "escape", "4", "w")
        await _type(pilot, line)
        assert app.pane("dice-tray").line.password                      # the line typed names the NPC
        secrets = ("garde", "instinct", "de la porte")
        assert not _leaks(_screen(app), secrets), _screen(app)
        await press(pilot, "enter")
        rec = app.session.rolls[-1]
        assert rec.result["hidden_sides"] == ["opponent"] and rec.result["winner"] == "opponent"
        screen = _screen(app)
        assert not _leaks(screen, secrets), screen                      # the band, the log row
        assert "l'opposant l'emporte" in screen.casefold() and "Callia" in screen
        await press(pilot, "escape", "4", "w")                          # the GM alone: named
        assert "GARDE DE LA PORTE" in _screen(app).upper()


async def test_a_gm_only_extended_test_and_its_undo_label_while_watching(campaign_file) -> None:
    """The timer a GM-only line starts is GM-only (its skill, threshold and progress never
    shown); the undo label stays on the status line while players watch, said as they may see it."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _watched(app, pilot)
        with app.session.edit("fin du combat") as b:     # an hour-long test waits for the fight's end (R20)
            b.set(("encounter", "round"), 0)
        line = "mj loriane investigation 7 heure max4"
        seed = _seed(app.session.campaign, line, lambda f: f.result is not None and f.result["outcome"] == "pending")
        app.pane("dice-tray").rng = random.Random(seed)
        await _type(pilot, line)
        await press(pilot, "enter")
        timer = app.session.campaign.timers[-1]
        assert timer.gm_only and timer.request["threshold"] == 7
        await press(pilot, "escape", "2")
        screen = _screen(app)
        assert not _leaks(screen, ("Investigation", "7 succès", "/7", "heure")), screen
        assert "test secret du MJ" in screen
        assert "↶ (un cha" in screen_text(app)[0]          # "un changement que les joueurs ne voient pas"
        await press(pilot, "escape", "4", "w")                          # the GM alone: in full
        await press(pilot, "escape", "2")
        assert "Investigation" in _screen(app) and "Investigation" in screen_text(app)[0]


async def test_r_asks_before_revealing_and_ctrl_z_then_says_what_it_undoes(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 24)) as pilot:     # the whole status line
        await ready(app, pilot)
        with app.session.edit("Aveuglé → Alexis") as b:
            b.set(("characters", 0, "notes"), "aveuglé")
        await _watched(app, pilot)
        await _type(pilot, "mj loriane éloquence sd3")
        await press(pilot, "enter")
        assert "↶ Aveuglé" in screen_text(app)[0]                       # visible while players watch
        await press(pilot, "escape", "4", "r")
        assert "Montrer le jet" in _screen(app) and not app.session.rolls[-1].revealed
        await press(pilot, "y")
        assert app.session.rolls[-1].revealed
        await press(pilot, "ctrl+z")                                    # the change before it, said
        assert app.session.campaign.characters[0].notes != "aveuglé"
        assert "annulé : Aveuglé → Alexis" in screen_text(app)[0]
        assert app.session.rolls[-1].revealed


async def test_a_hidden_character_has_no_name_on_the_roster_nor_in_the_turn_order(campaign_file) -> None:
    """The guard, hidden, is the current actor: while players watch, the roster row, the turn
    order's row, its header and the detail line keep his place without his name, conditions or
    stats; the GM alone sees him again."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        campaign = app.session.campaign
        garde = next(i for i, ch in enumerate(campaign.characters) if ch.name.startswith("Le garde"))
        assert campaign.encounter.entries[campaign.encounter.turn].character == campaign.characters[garde].id
        await press(pilot, "escape", "1", *["down"] * 3)                 # the cursor on his row
        await press(pilot, "H")                                          # hidden, as the GM does it
        assert campaign.characters[garde].hidden
        secrets = ("garde de la porte", "Hé1↓ Se2↑")
        await press(pilot, "escape", "4", "w")
        for pane in ("1", "2"):
            await press(pilot, "escape", pane)
            screen = _screen(app)
            assert not _leaks(screen, secrets), screen
            assert "(un personnage caché)" in screen or "(un personnage cach…" in screen
        assert "au tour de (un personnage caché)" in screen
        await press(pilot, "escape", "4", "w", "escape", "2")            # the GM alone: named
        assert "garde de la porte" in _screen(app)


async def test_a_turn_that_ends_a_hidden_characters_condition_is_not_named_while_watching(campaign_file) -> None:
    """`n` says what the turn did as the players may see it (the live table decides it): Alexis,
    hidden, sees Ébloui end at the end of their turn; the notice is there, his name is not."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "escape", "1", "H")                           # the cursor on Alexis, first
        assert [ch.name for ch in app.session.campaign.characters if ch.hidden] == ["Alexis"]
        await press(pilot, "escape", "4", "w", "n", "n")                 # the guard, then Alexis, act
        said = [n.message for n in app.notices]
        assert "(un changement que les joueurs ne voient pas)" in said, said
        assert not [m for m in said if "Alexis" in m and "Ébloui" in m], said


async def test_who_joins_the_fight_is_asked_without_naming_a_hidden_character(campaign_file) -> None:
    """`A` while players watch: the choice of who joins, and whether a late joiner acts this
    round, name Frère Anselme (hidden) "a hidden character"; the options stay told apart."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "escape", "1", *["down"] * 4, "H")           # the gaoler, hidden
        assert [ch.id for ch in app.session.campaign.characters if ch.hidden] == ["geolier"]
        before = len(app.notices)                                        # ("hidden: Frère Anselme", to the GM)
        await press(pilot, "escape", "4", "w", "escape", "2", "A")
        screen = _screen(app)
        assert "Anselme" not in screen and "personnage caché" in screen, screen
        await press(pilot, "enter")                                      # the first group: the NPCs
        screen = _screen(app)
        assert "Anselme" not in screen, screen
        said = [n.message for n in list(app.notices)[before:]]
        assert said and not [m for m in said if "Anselme" in m], said
