"""Keys that arrive in one burst (an SSH packet, a paste, fast typing) are handled in order, each
where the one before left the focus: exactly as the same keys typed slowly."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from gmscreen.campaign import sample_path
from gmscreen.ui import GMScreenApp

from _pilot import burst, ready


async def settle(app: Any, pilot: Any) -> None:
    """Wait until every held key has gone through."""
    for _ in range(200):
        await pilot.pause()
        if app.key_gate.idle:
            await app.key_gate.settled()
            await app.workers.wait_for_complete()
            await pilot.pause()
            return
    raise AssertionError("keys still held")


def state(app: Any) -> dict[str, Any]:
    """What the GM can see of the screen and of the campaign."""
    focused = app.focused
    session = app.session
    campaign = session.campaign
    return {
        "screen": type(app.screen).__name__,
        "focused": (type(focused).__name__, focused.id) if focused is not None else None,
        "value": focused.value if isinstance(focused, Input) else None,
        "line": app.pane("dice-tray").line.value,
        "characters": [c.name for c in campaign.characters],
        "turn": (campaign.encounter.round, campaign.encounter.turn) if campaign.encounter else None,
        "rolls": [(r.line, r.request.get("dice"), r.result.get("outcome")) for r in session.rolls],
        "undo": session.last_label,
    }


async def test_what_follows_slash_goes_into_the_line(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        before = state(app)
        burst(app, "/", "n", "n")
        await settle(app, pilot)
        after = state(app)
        assert after["line"] == "nn"
        assert after["turn"] == before["turn"] and after["undo"] == before["undo"]


async def test_a_line_typed_as_the_screen_appears_is_not_taken_as_pane_keys(campaign_file) -> None:
    """`/6d12 sd2` right after start used to duplicate a character (`d` in the roster)."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        burst(app, "/", *"6d12 sd2")           # before the campaign is even on screen
        await ready(app, pilot)
        await settle(app, pilot)
        names = [c.name for c in app.session.campaign.characters]
        assert app.pane("dice-tray").line.value == "6d12 sd2"
        assert len(names) == len(set(names)) and app.session.last_label is None
        burst(app, "enter")
        await settle(app, pilot)
        assert [r.line for r in app.session.rolls] == ["6d12 sd2"]


async def test_a_name_typed_fast_opens_no_dialog(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        burst(app, "1", "/", *"callia eloquence sd3 gm")
        await settle(app, pilot)
        assert type(app.screen).__name__ == "MainScreen"
        assert app.pane("dice-tray").line.value == "callia eloquence sd3 gm"
        assert app.session.last_label is None


SEQUENCES = {
    # a pane key, then the line
    "slash after a pane": ("mir", ["2", "/", *"loriane eloquence sd3"]),
    # the edit form takes what is typed after `e`
    "edit form": ("mir", ["1", "e", *"Zed", "escape", "n"]),
    # the log's search takes what is typed after `f`
    "log search": ("mir", ["4", "f", *"tir", "escape", "escape", "/", "x"]),
    # the open-campaign dialog takes the path typed after ctrl+o
    "open dialog": ("mir", ["ctrl+o", *"nowhere.toml", "escape", "/", "q"]),
    # the choice prompt takes the key after Enter, and the line the keys after the choice
    "choice prompt": ("eclats", ["/", *"ysaure emp calmer 9", "enter", "r", "g", "/", *"sd"]),
    # the keys screen opened by `?` and closed by escape, then a turn
    "keys screen": ("mir", ["question_mark", "escape", "n", "/", "x"]),
}


@pytest.mark.parametrize("name", list(SEQUENCES))
async def test_a_burst_does_what_the_same_keys_typed_slowly_do(tmp_path: Path, name: str) -> None:
    system, keys = SEQUENCES[name]
    results = []
    for fast in (False, True):
        folder = tmp_path / ("fast" if fast else "slow")
        folder.mkdir()
        path = Path(shutil.copy(sample_path(system), folder / f"{system}.toml"))
        app = GMScreenApp(path)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(app, pilot)
            app.pane("dice-tray").rng = random.Random(4)
            if fast:
                burst(app, *keys)
                await settle(app, pilot)
            else:
                await pilot.press(*keys)
                await pilot.pause()
            results.append(state(app))
            await app.workers.wait_for_complete()
    slow, fast_state = results
    assert fast_state == slow


async def test_keys_typed_while_a_long_log_loads_are_all_taken_and_the_roll_logged_once(campaign_file) -> None:
    path = campaign_file("mir")
    entry = ('\n[[roll]]\nseq = {seq}\ntime = "2025-03-01T21:04:11+01:00"\nsession = 1\nwho = "Alexis"\n'
             'line = "alexis tir sd2"\nrequest = {{ system = "mir", kind = "simple", pool = 5, difficulty = 2 }}\n'
             'result = {{ outcome = "success", successes = 2, dice = [1, 2, 3, 4, 5] }}\n')
    count = 20_000
    text = "format = 1\n" + "".join(entry.format(seq=seq) for seq in range(1, count + 1))
    path.with_name(path.stem + ".rolls.toml").write_text(text, encoding="utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        burst(app, "/", *"6d12 sd2", "enter", *"2d12")
        await settle(app, pilot)
        await ready(app, pilot)
        await settle(app, pilot)
        rolls = app.session.rolls
        assert len(rolls) == count + 1
        assert [r.seq for r in rolls[-2:]] == [count, count + 1] and rolls[-1].line == "6d12 sd2"
        assert app.pane("dice-tray").line.value == "2d12"


def test_a_burst_through_a_real_terminal(campaign_file, tmp_path: Path) -> None:
    """The real program on a pty: a whole quick roll and `/nn` written in one go as the screen
    appears; ctrl+q then saves. The roll is logged, no turn moved, no character duplicated."""
    from gmscreen.campaign import load_campaign, open_session

    import _pty

    path = campaign_file("mir")
    before = load_campaign(path)
    process, master = _pty.start(path, tmp_path)
    try:
        import os

        _pty.read_until(master, b"Vaskov", 30)
        os.write(master, b"/6d12 sd2\r/nn")
        _pty.read_until(master, b"nn", 10)
        os.write(master, b"\x11")               # ctrl+q
        assert _pty.wait(process, master, 20) == 0
    finally:
        _pty.stop(process, master)
    after = load_campaign(path)
    assert [c.name for c in after.characters] == [c.name for c in before.characters]
    assert (after.encounter.round, after.encounter.turn) == (before.encounter.round, before.encounter.turn)
    with open_session(path, read_only=True) as session:
        assert [r.line for r in session.rolls] == ["6d12 sd2"]


async def test_a_paste_right_after_slash_lands_in_the_line_in_order(campaign_file) -> None:
    from textual import events

    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        burst(app, "2", "/")
        paste = events.Paste("loriane eloquence\x1b[31m")
        paste.set_sender(app)
        app._driver.send_message(paste)
        burst(app, "space", "s", "d", "3")
        await settle(app, pilot)
        assert app.pane("dice-tray").line.value == "loriane eloquence sd3"
        assert app.session.last_label is None


async def test_keys_typed_after_q_are_dropped_quietly(campaign_file) -> None:
    path = campaign_file("mir")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        burst(app, "q", *"nnnnnnnn")
        for _ in range(20):
            await pilot.pause()
            if not app.is_running:
                break
    assert app.return_code == 0 and not app.is_running


async def test_a_path_typed_at_once_after_ctrl_o_opens_that_campaign(campaign_file) -> None:
    """The dialog opens on its list; what is typed from there is a path, and goes to its field."""
    app = GMScreenApp(campaign_file("mir"))
    other = campaign_file("eclats")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        burst(app, "ctrl+o", *str(other), "enter")
        await settle(app, pilot)
        await ready(app, pilot)
        assert app.session.path == other and app.session.campaign.system == "eclats"


@pytest.mark.parametrize("text, pieces", [
    ("\x1b2", [None, "2"]),                          # Escape then 2 (Textual alone: "™")
    ("ab\x1b/nn", ["ab", None, "/nn"]),               # Escape then a new line (Textual alone: lost)
    ("\x1b[A\x1bOB", ["\x1b[A\x1bOB"]),               # arrow keys stay sequences
    ("\x1b\x1b[A", [None, "\x1b[A"]),                 # Escape, then an arrow (as Textual reads it)
    ("\x1b[200~a\x1bb\x1b[201~\x1bf", ["\x1b[200~a\x1bb\x1b[201~", None, "f"]),   # pasted text untouched
])
def test_escape_then_a_key_in_one_packet_is_escape_then_the_key(text: str, pieces: list) -> None:
    from gmscreen.ui.terminal.escape_split import EscapeSplitter

    splitter = EscapeSplitter()
    assert list(splitter.split(text)) == pieces and not splitter.holding


@pytest.mark.parametrize("reads, pieces", [
    (["\x1b", "2"], [None, "2"]),                    # Escape, then 2 a packet later (Textual alone: alt+2)
    (["ab\x1b", "/nn"], ["ab", None, "/nn"]),
    (["\x1b", "[A"], ["\x1b[A"]),                     # a sequence cut between two reads stays one
    (["\x1b\x1b", "x"], [None, None, "x"]),
    (["\x1b[200~a\x1b", "b\x1b[201~"], ["\x1b[200~a", "\x1bb\x1b[201~"]),  # in a paste: left alone
])
def test_escape_ending_a_read_is_told_by_the_next_one(reads: list, pieces: list) -> None:
    from gmscreen.ui.terminal.escape_split import EscapeSplitter

    splitter = EscapeSplitter(delay=0.1)
    got = [piece for n, text in enumerate(reads) for piece in splitter.split(text, now=n * 0.05)]
    assert got == pieces and not splitter.holding


def test_escape_ending_a_read_with_nothing_after_it_is_the_escape_key_once_the_delay_is_past() -> None:
    from gmscreen.ui.terminal.escape_split import EscapeSplitter

    splitter = EscapeSplitter(delay=0.1)
    assert list(splitter.split("x\x1b", now=1.0)) == ["x"] and splitter.holding
    assert splitter.wait(1.04) == pytest.approx(0.06) and list(splitter.expire(1.04)) == []
    assert list(splitter.expire(1.1)) == [None] and not splitter.holding and splitter.wait(1.2) is None
    assert list(splitter.split("\x1b", now=2.0)) == [] and list(splitter.expire(2.0, final=True)) == [None]


def test_escape_then_pane_keys_in_one_write_through_a_real_terminal(campaign_file, tmp_path: Path) -> None:
    """A roll, then Escape, `2` (initiative), `n` written at once: the turn moves, nothing lands
    in the line (before: "™nn" in the line)."""
    import os

    from gmscreen.campaign import load_campaign

    import _pty

    path = campaign_file("mir")
    before = load_campaign(path).encounter
    process, master = _pty.start(path, tmp_path)
    try:
        _pty.read_until(master, b"Vaskov", 30)
        os.write(master, b"/6d12 sd2\r\x1b2n")
        _pty.read_until(master, b"Fin du tour", 10)
        os.write(master, b"\x11")
        assert _pty.wait(process, master, 20) == 0
    finally:
        _pty.stop(process, master)
    after = load_campaign(path).encounter
    assert (after.round, after.turn) != (before.round, before.turn)


# ---------------------------------------------------------------- timing, through a real terminal
# Each drives the real program on a pty with the packets as a terminal sends them (the bugs are
# timing ones): one test a bug, each waiting on what shows, with deadlines.


def _on_disk_rolls(path: Path) -> list[str]:
    from gmscreen.campaign import open_session

    with open_session(path, read_only=True) as session:
        return [r.line for r in session.rolls]


def test_enter_typed_as_the_program_starts_rolls_the_line(campaign_file, tmp_path: Path) -> None:
    """Typed before the terminal is made raw, Enter went through its cooked mode as a newline
    (ctrl+j to Textual) and was dropped (9 times in 9 within 0.5 s of launch)."""
    import os

    import _pty

    path = campaign_file("mir")
    process, master = _pty.start(path, tmp_path)
    try:
        os.write(master, b"/6d12 sd2\r")         # right after launch, before the first frame
        _pty.read_until(master, b"Vaskov", 30)
        deadline = time.monotonic() + 15
        while not path.with_name("mir.rolls.toml").exists() and time.monotonic() < deadline:
            _pty.drain(master, 0.05)
        os.write(master, b"\x11")               # ctrl+q
        assert _pty.wait(process, master, 20) == 0
    finally:
        _pty.stop(process, master)
    assert _on_disk_rolls(path) == ["6d12 sd2"]


def test_escape_then_a_pane_key_in_the_next_packet_is_escape_then_the_key(campaign_file, tmp_path: Path) -> None:
    """Escape leaving the line, then `2n` 50 ms later in another packet: Textual's parser read
    ESC 2 as Alt+2 and the keys were lost (5 times in 5); now the turn moves."""
    import os

    from gmscreen.campaign import load_campaign

    import _pty

    path = campaign_file("mir")
    before = load_campaign(path).encounter
    process, master = _pty.start(path, tmp_path)
    try:
        _pty.read_until(master, b"Vaskov", 30)
        os.write(master, b"/x")
        _pty.read_until(master, b"x", 10)
        os.write(master, b"\x1b")
        time.sleep(0.05)                         # the gap between the two packets (not a wait)
        os.write(master, b"2n")
        _pty.read_until(master, b"Fin du tour", 10)
        os.write(master, b"\x11")
        assert _pty.wait(process, master, 20) == 0
    finally:
        _pty.stop(process, master)
    after = load_campaign(path).encounter
    assert (after.round, after.turn) != (before.round, before.turn)


def test_ctrl_p_and_page_up_in_one_packet_page_the_palette(campaign_file, tmp_path: Path) -> None:
    """PageUp reaching the palette before its list of hits was laid out ended in a KeyError in
    Textual's OptionList, which took the screen down (exit 1)."""
    import os

    import _pty

    path = campaign_file("mir")
    process, master = _pty.start(path, tmp_path)
    try:
        _pty.read_until(master, b"Vaskov", 30)
        _pty.quiet(master)                         # started: the palette opens at once
        os.write(master, b"\x10\x1b[5~")          # ctrl+p, PageUp
        _pty.read_until(master, "Chercher une commande".encode(), 10)
        _pty.drain(master, 0.2)                    # its list of hits drawn: PageUp has gone through
        os.write(master, b"\x11")                 # ctrl+q: a screen still up quits cleanly
        assert _pty.wait(process, master, 20) == 0
    finally:
        _pty.stop(process, master)
