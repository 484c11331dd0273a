"""Roll log pane: rows, new rolls, GM-only masking and reveal, search, laziness, bytes."""

from __future__ import annotations

import statistics
from typing import Any

from rich.console import Console
from textual._compositor import CompositorUpdate

from gmscreen.campaign import open_session
from gmscreen.campaign.model import RollRecord
from gmscreen.rules import get_system, resolve
from gmscreen.play.logline import compact_dice, fold, hhmm, log_line
from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.log.roll_log import RollLog

from _pilot import GM_COLOURS, ready

MIR = {"system": "mir", "kind": "simple", "pool": 5, "difficulty": 3}
HOSTILE = ("[/]", "[@click=app.quit]", "Orc [A]", "Bob\x1b]2;pwn\x07")


def _host(pane_host, session, **kwargs):
    class Host(pane_host):
        def get_theme_variable_defaults(self):
            return {**super().get_theme_variable_defaults(), **GM_COLOURS}

    return Host(session, lambda: RollLog(id="log", **kwargs))


def _record(session, n, who="Loriane", gm_only=False, line=None):
    return session.record_roll(who=who, line=line or f"loriane éloquence sd3 #{n}", request=MIR,
                               result=resolve(MIR, seed=n), gm_only=gm_only)


def _screen(log: RollLog) -> list[str]:
    return [log.render_line(y).text for y in range(log.size.height)]


def test_log_line_words():
    system = get_system("mir")
    record = RollRecord(1, "2025-03-01T21:04:11+01:00", 3, "Alexis", "alexis force vs garde force",
                        {"system": "mir", "kind": "opposed", "actor_pool": 5, "opponent_pool": 4},
                        resolve({"system": "mir", "kind": "opposed", "actor_pool": 5, "opponent_pool": 4}, seed=1))
    line = log_line(record, system)
    assert line.time == "21:04" and line.who == "Alexis"
    assert line.outcome == "Alexis l'emporte"
    assert line.dice == "2 11 10 4 6 | 6 8 10 2"
    assert hhmm("garbage") == "--:--"
    assert fold("Éloquence") == "eloquence"
    broken = RollRecord(2, "x", 1, "Bob", "bob", {}, {"outcome": "success"})
    assert log_line(broken, system).outcome == "réussite"       # undescribable: still shown
    eclats = resolve({"system": "eclats", "kind": "simple", "characteristic": 2, "threshold": 12}, seed=0)
    assert compact_dice(get_system("eclats").describe(eclats).groups) == "8→7"


def test_log_line_words_in_english(english):
    """The same row in English: the winner named in English words, the detail in English, the
    search text in both languages (a French word still finds the roll)."""
    from gmscreen.play.logline import search_text

    system = get_system("mir")
    request = {"system": "mir", "kind": "opposed", "actor_pool": 5, "opponent_pool": 4}
    record = RollRecord(1, "2025-03-01T21:04:11+01:00", 3, "Alexis", "alexis force vs garde force", request,
                        resolve(request, seed=1))
    line = log_line(record, system)
    assert line.outcome == "Alexis wins" and line.detail == "2 successes against 2 · the initiator wins a tie"
    lost = RollRecord(2, "x", 1, "Bob", "bob vs garde", {}, {**record.result, "winner": "opponent"})
    assert log_line(lost, system).outcome == "garde wins"       # the word typed (no campaign)
    assert "success" in search_text(RollRecord(3, "x", 1, "Bob", "bob", {}, {"outcome": "success"}), system)



async def _log_watched(app, pilot) -> RollLog:
    """The log pane focused, with `w` pressed: players are watching."""
    await pilot.pause()
    log = app.query_one(RollLog)
    log.focus()
    await pilot.press("w")
    await pilot.pause()
    return log

async def test_rows_show_rolls_newest_last_with_separators(pane_host, open_sample):
    session = open_sample("mir")
    for n in range(3):
        _record(session, n)
    app = _host(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(RollLog)
        screen = _screen(log)
        assert "Session 3" in screen[0] and "─" in screen[0]
        assert "#0" in screen[1] and "#2" in screen[3]
        desc = get_system("mir").describe(session.rolls[2].result)
        assert desc.headline in screen[3] and "Loriane" in screen[3]
        # a new roll is appended at the bottom and only its row is built (no cursor
        # is drawn without focus: the GM is typing in the dice tray)
        app.set_focus(None)
        await pilot.pause()
        _screen(log)
        built = log.rows_built
        app.table.record_roll(who="Callia", line="callia infiltration sd2", request=MIR, result=resolve(MIR, seed=9))
        await pilot.pause()
        assert "callia infiltration sd2" in _screen(log)[4]
        assert log.rows_built == built + 1
        # a new session gets its separator
        session.campaign.session = 4
        app.table.record_roll(who="Callia", line="callia perception sd1", request=MIR, result=resolve(MIR, seed=3))
        await pilot.pause()
        screen = _screen(log)
        assert "Session 4" in screen[5] and "callia perception" in screen[6]


async def test_hostile_names_are_literal(pane_host, open_sample):
    session = open_sample("mir")
    for n, name in enumerate(HOSTILE):
        _record(session, n, who=name, line=f"{name} force sd2")
    app = _host(pane_host, session)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(RollLog)
        screen = "\n".join(_screen(log))
        for name in HOSTILE[:3]:
            assert f"{name} force sd2" in screen
        assert "Bob\ufffd]2;pwn\ufffd" in screen
        assert "\x1b" not in screen and "\x07" not in screen
        log.focus()
        await pilot.press("f", *"orc [")
        await pilot.pause()
        assert "Orc [A]" in log.selected_record.who
        assert app.is_running


async def test_gm_only_masked_when_players_watch_and_reveal_persists(pane_host, open_sample):
    session = open_sample("mir")
    _record(session, 0)
    secret = _record(session, 1, who="Garde", gm_only=True, line="garde vigilance sd4")
    path = session.path
    app = _host(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(RollLog)
        assert _screen(log)[2].split()[1] == "◆" and "garde vigilance" in _screen(log)[2]
        log.focus()
        await pilot.press("w")
        await pilot.pause()
        assert log.players_watching
        row = _screen(log)[2]
        assert "jet secret" in row and "Garde" not in row and "vigilance" not in row
        assert "loriane" in _screen(log)[1]
        # the cursor is on the newest roll, the secret one: reveal it
        assert log.selected_record.seq == secret.seq
        await pilot.press("r")
        await pilot.pause()
        assert not session.rolls[-1].revealed, "revealed before the GM said yes"
        await pilot.press("n")                          # no: nothing shown, nothing appended
        await pilot.pause()
        assert not session.rolls[-1].revealed and "jet secret" in _screen(log)[2]
        await pilot.press("r", "y")
        await pilot.pause()
        assert session.rolls[-1].revealed
        row = _screen(log)[2]
        assert "garde vigilance" in row and "◇" in row
        # revealing a normal roll is refused with a notice, nothing appended
        await pilot.press("up", "r")
        await pilot.pause()
        assert not session.rolls[0].revealed
    session.close()
    again = open_session(path, read_only=True)
    try:
        assert [r.revealed for r in again.rolls] == [False, True]
    finally:
        again.close()


async def test_search_jumps_filters_and_keeps_keys_to_itself(pane_host, open_sample):
    session = open_sample("mir")
    for n in range(12):
        _record(session, n, who="Callia" if n % 3 == 0 else "Loriane", gm_only=n == 5)
    app = _host(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(RollLog)
        log.start_search()
        await pilot.pause()
        assert log.search_query == "" and log.has_focus
        await pilot.press(*"cal")
        await pilot.pause()
        assert log.selected_record.seq == 10          # newest Callia roll (n=9)
        assert "/cal" in _screen(log)[-1] and "4 trouvé" in _screen(log)[-1]
        await pilot.press("enter")
        await pilot.pause()
        assert log.selected_record.seq == 7
        await pilot.press("down")
        await pilot.pause()
        assert log.selected_record.seq == 10
        # letters typed in the search are not bindings: "r" and "w" go to the query
        await pilot.press("backspace", "backspace", "backspace", *"rw")
        await pilot.pause()
        assert log.search_query == "rw" and not log.players_watching
        await pilot.press("ctrl+u", *"eloq", "tab")           # accents optional; tab filters
        await pilot.pause()
        assert log.row_count == 12
        await pilot.press("ctrl+u", *"callia")
        await pilot.pause()
        assert log.row_count == 4
        assert all("Callia" in line for line in _screen(log)[:4])
        await pilot.press("up", "escape")
        await pilot.pause()
        assert log.search_query is None
        assert log.row_count == 13                    # 12 rolls and the session separator
        assert log.selected_record.seq == 7           # the cursor stays on the roll found
        await pilot.press("w")                        # bindings work again
        await pilot.pause()
        assert log.players_watching


async def test_hundred_thousand_rolls_render_only_visible_rows(pane_host, open_sample):
    session = open_sample("mir")
    result = resolve(MIR, seed=1)
    records = session.rolls
    for seq in range(1, 100_001):
        records.append(RollRecord(seq, "2025-03-01T21:04:11+01:00", 1 + seq // 25_000, "Loriane",
                                  f"loriane éloquence sd3 #{seq}", MIR, result, seq % 97 == 0))
    app = _host(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(RollLog)
        assert log.row_count == 100_000 + 5
        assert "#100000" in _screen(log)[-1]
        assert log.rows_built <= 24
        log.focus()
        await pilot.press("home")
        await pilot.pause()
        assert "Session 1" in _screen(log)[0] and "#1 " in _screen(log)[1]
        assert log.rows_built <= 24 * 3
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        assert log.rows_built <= 24 * 5


async def test_jump_scroll_leaves_the_other_rows_alone(pane_host, open_sample):
    session = open_sample("mir")
    app = _host(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(RollLog)
        console = Console(color_system="256", force_terminal=True, width=80)
        sizes: list[int] = []
        original = app._display

        def display(screen, renderable):
            if isinstance(renderable, CompositorUpdate):
                sizes.append(len(renderable.render_segments(console).encode()))
            return original(screen, renderable)

        app._display = display
        per_roll: list[int] = []
        for n in range(40):
            sizes.clear()
            app.table.record_roll(who="Loriane", line=f"loriane éloquence sd3 #{n}", request=MIR,
                            result=resolve(MIR, seed=n))
            await pilot.pause()
            per_roll.append(sum(sizes))
        assert "#39" in "\n".join(_screen(log))
        top, virtual = log.scroll_offset.y, log.virtual_size
        # the newest roll sits above blank rows, and the next one lands there without scrolling
        assert _screen(log)[-1].strip() == "" or log.max_scroll_y == top
        steady = per_roll[24:]
        assert statistics.median(steady) < 400       # one row; stock RichLog repaints ~6 KB a line
        assert statistics.mean(steady) < 1500
        if top + 23 > log.row_count:
            app.table.record_roll(who="Loriane", line="one more", request=MIR, result=resolve(MIR, seed=99))
            await pilot.pause()
            assert log.scroll_offset.y == top and log.virtual_size == virtual


async def test_a_roll_with_a_secret_difficulty_is_masked_and_revealed_like_a_gm_only_one(pane_host, open_sample):
    """Not GM-only, but its difficulty is secret (`hidden`): while players watch, its row shows
    the dice and the outcome but not the line that names the difficulty (issue 12: only the
    difficulty is hidden), and `r` reveals it (the key was refused: it looked at `gm_only` alone)."""
    session = open_sample("mir")
    request = {**MIR, "hidden": True}
    session.record_roll(who="Garde", line="garde vigilance sd4", request=request, result=resolve(request, seed=2))
    app = _host(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        log = await _log_watched(app, pilot)
        row = _screen(log)[1]
        assert "difficulté secrète" in row and "sd4" not in row and "SD 4" not in row
        assert "12! 12! 1 2 11" in row and "réussite" in row
        await pilot.press("r", "y")
        await pilot.pause()
        assert session.rolls[-1].revealed
        assert "garde vigilance" in _screen(log)[1]


def log_rows(app: Any) -> list[str]:
    log = app.pane("log")
    return [log.render_line(y).text for y in range(log.size.height)]


async def test_initiative_rolls_show_their_total_and_die_in_the_log(campaign_file) -> None:
    app = GMScreenApp(campaign_file("tedeum"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("2", "I")                         # roll everybody's initiative (1d10)
        await pilot.pause()
        rolls = app.session.rolls
        assert [r.line for r in rolls] == ["initiative 1d10"] * 3
        await pilot.press("4")
        await pilot.pause()
        rows = [row for row in log_rows(app) if "initiative 1d10" in row]
        assert len(rows) == 3
        for row, record in zip(rows, rolls):
            total = record.result["total"]
            assert "?" not in row                           # was "initiative 1d10  ?"
            assert f"= {total}" in row


async def test_the_log_in_english_and_switched_live(pane_host, open_sample):
    """The log's own words (a masked row, the search prompt, the notices) in the language
    spoken, redrawn when it changes; a secret row is found by its words in either language."""
    from gmscreen import i18n

    session = open_sample("mir")
    _record(session, 0)
    _record(session, 1, who="Garde", gm_only=True, line="garde vigilance sd4")
    app = _host(pane_host, session)
    notes: list[str] = []
    app.warn = lambda message, severity="warning": notes.append(message)
    async with app.run_test(size=(80, 24)) as pilot:
        log = await _log_watched(app, pilot)
        assert "jet secret du MJ" in _screen(log)[2]
        i18n.set_language("en")
        log.show_campaign(session)                 # what the app does on a change of language
        await pilot.pause()
        assert "GM's secret roll" in _screen(log)[2] and "jet secret" not in _screen(log)[2]
        await pilot.press("up")
        await pilot.pause()
        log.action_reveal()                        # a roll everyone saw: nothing to reveal
        assert notes[-1] == f"roll {session.rolls[0].seq} is not a GM-only roll: nothing to reveal"
        await pilot.press("f", *"secret")
        await pilot.pause()
        prompt = _screen(log)[-1]
        assert "/secret" in prompt and "1 found" in prompt and "enter/↑↓ next · tab filter · esc" in prompt
        assert log.selected_record.seq == session.rolls[1].seq
        await pilot.press("escape", "f", *"jet secret")     # the French words find it too
        await pilot.pause()
        assert "1 found" in _screen(log)[-1]


async def test_search_finds_any_word_on_a_row(pane_host, open_sample):
    """`f` then a word the row shows but the line typed does not (its dice, its detail, its time,
    the opponent named in the outcome): the row is found."""
    session = open_sample("mir")
    for n in range(6):
        _record(session, n, line=f"loriane éloquence sd3 x{n}")
    lines = [log_line(r, session.system) for r in session.rolls]
    target = max(range(6), key=lambda i: len(lines[i].dice))
    assert sum(lines[target].dice == line.dice for line in lines) == 1
    app = _host(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(RollLog)
        log.focus()
        await pilot.press("f", *lines[target].dice)
        await pilot.pause()
        assert "1 trouvé" in _screen(log)[-1]
        assert log.selected_record.seq == session.rolls[target].seq
        await pilot.press("ctrl+u", *"pour sd 3")                   # the detail's words
        await pilot.pause()
        assert "6 trouvés" in _screen(log)[-1]
        await pilot.press("ctrl+u", *lines[0].time)                   # the time shown
        await pilot.pause()
        assert "6 trouvés" in _screen(log)[-1]
        await pilot.press("ctrl+u", *"zzz")
        await pilot.pause()
        assert " 0 trouvé" in _screen(log)[-1]
