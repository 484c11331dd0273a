"""Dice shown are dice kept: a roll waiting for a choice (an Éclats reroll) survives every way
out of the real program — SIGKILL and SIGINT included — and out of the screen (quit, SIGHUP), and
is in the log exactly once, with the dice the table saw."""

from __future__ import annotations

import os
import random
import re
import signal
from pathlib import Path

import pytest

from _pilot import ready
from _pty import drain, read_until, start, stop, wait
from gmscreen.campaign import open_session
from gmscreen.campaign.pending import PendingRoll, new_pending_id, pending_path, write_pending
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.ui.app import GMScreenApp

LINE = "ysaure emp calmer 9"            # Ysaure has Empathie 3: Éclats always asks to reroll
_CSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def shown_die(screen: bytes) -> int:
    """The die the prompt shows the table: "Ysaure : dé 6, résultat 9 — relancer ?"."""
    text = _CSI.sub(b"", screen).decode("utf-8", "replace")
    found = re.findall(r"dé (\d), résultat", text)
    assert found, f"no die on screen: {text[-300:]!r}"
    return int(found[-1])


# way out -> (what is done, expected exit status); None: killed, recovered on the next opening
WAYS = {
    "SIGKILL": (signal.SIGKILL, None),
    "SIGINT": (signal.SIGINT, 128 + signal.SIGINT),
    "SIGTERM": (signal.SIGTERM, 128 + signal.SIGTERM),
    "SIGHUP": (signal.SIGHUP, 128 + signal.SIGHUP),
    "ctrl+q": (b"\x11", 0),
    "ctrl+c, then EOF": (b"\x03", 0),
}


@pytest.mark.parametrize("way", list(WAYS))
def test_every_way_out_during_a_choice_keeps_the_roll_shown(campaign_file, tmp_path: Path, way: str) -> None:
    path = campaign_file("eclats")
    action, status = WAYS[way]
    pipe = os.pipe() if way.endswith("EOF") else None
    process, master = start(path, tmp_path, stdin=pipe[0] if pipe else None)
    keys = pipe[1] if pipe else master
    if pipe:
        os.close(pipe[0])
    try:
        read_until(master, "Hantise".encode(), 20)          # the campaign is on screen
        drain(master, 0.2)
        os.write(keys, f"/{LINE}\r".encode())
        screen = read_until(master, b"relancer", 10)
        screen += drain(master, 0.3)
        die = shown_die(screen)
        assert pending_path(path).exists()                   # on disk before it was shown
        if isinstance(action, bytes):
            os.write(keys, action)
            if action == b"\x03":                            # ctrl+c asks for ctrl+q; nothing is lost
                drain(master, 0.5)
                assert process.poll() is None
                os.close(keys)                               # then standard input ends
        else:
            os.kill(process.pid, action)
        code = wait(process, master, 15)
    finally:
        stop(process, master)
        if pipe and way.endswith("EOF"):
            try:
                os.close(pipe[1])
            except OSError:
                pass
    if status is None:
        assert code == -signal.SIGKILL and pending_path(path).exists()
    else:
        assert code == status and not pending_path(path).exists()     # settled and logged on the way out
    with open_session(path) as session:                                  # the next opening
        recovered = session.recover_pending()
        assert (recovered is not None) == (status is None)
        rolls = [r for r in session.rolls if r.line == LINE]
    assert len(rolls) == 1
    assert rolls[0].request["dice"] == [die] and rolls[0].pending     # the die the table saw, kept
    assert not pending_path(path).exists()
    with open_session(path) as session:
        assert session.recover_pending() is None
        assert len([r for r in session.rolls if r.line == LINE]) == 1


async def test_the_screen_logs_a_kept_roll_on_opening_and_says_so(campaign_file) -> None:
    path = campaign_file("eclats")
    roll = PendingRoll(new_pending_id(), "2026-12-01T21:00:00+00:00", 4, "Ysaure", LINE,
                       {"system": "eclats", "kind": "simple", "characteristic": 3, "skill": 3, "threshold": 9,
                        "dice": [7]},
                       {"system": "eclats", "kind": "simple", "outcome": "success", "result": 10, "kept_die": 7,
                        "dice": [7]}, campaign="eclats.toml", game="eclats")
    write_pending(pending_path(path), roll)
    app = GMScreenApp(path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await ready(app, pilot)
        assert any("noté tel qu'il était" in n.message and LINE in n.message for n in app.notices)
        assert app.session.rolls[-1].pending == roll.id
        assert app.pane("log").row_count >= 1
        assert not pending_path(path).exists()
    assert [r.pending for r in RollLog.load(rolls_path(path)).records] == [roll.id]


async def test_a_roll_ended_after_the_dice_closes_the_prompt_and_says_it_is_logged(pane_host, open_sample) -> None:
    """A rules error at a choice ends the roll (`Table.cancel_roll`): the dice shown are logged
    as they stood (test_table_flows: the dice shown end in the log, a rules error at a choice);
    the tray closes the prompt and says so."""
    from gmscreen.ui.widgets.tray.dice_tray import DiceTray

    session = open_sample("eclats")
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(1)))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        tray.focus_line()
        tray.line.value = LINE
        await pilot.press("enter")
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None and tray.choice_view.has_focus
        die = tray.flow.request["dice"][0]
        app.table.cancel_roll()
        await pilot.pause()
        assert tray.flow is None and not tray.choice_view.has_class("-active") and tray.line.has_focus
        assert "choix impossible : le jet est noté tel qu'il était" in str(tray.info.render())
        assert session.rolls[-1].request["dice"] == [die]


def _seed(campaign, line: str, keys: tuple[str, ...]) -> int:
    """A seed for which `line`, after `keys`, still waits for a choice."""
    from gmscreen.play.quickroll import RollFlow, parse

    draft = parse(line, campaign)
    for seed in range(500):
        flow = RollFlow(draft, random.Random(seed)).start()
        if flow.prompt is not None and all(flow.choose(k) and flow.prompt is not None for k in keys):
            return seed
    raise AssertionError(f"no seed keeps {line!r} waiting after {keys}")


@pytest.mark.parametrize("system,line,keys", [
    ("arpeges", "thibault baratin +3 vs marchand baratin", ()),      # the default parry rolls new dice
    ("magisphere", "shady négociation 30", ("r",)),                  # an Impulsion already spent
])
async def test_the_kept_roll_is_exactly_what_quitting_logs(pane_host, open_sample, system: str, line: str,
                                                           keys: tuple[str, ...]) -> None:
    from gmscreen.campaign.pending import read_pending
    from gmscreen.ui.widgets.tray.dice_tray import DiceTray

    session = open_sample(system)
    seed = _seed(session.campaign, line, keys)
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(seed)))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        tray.focus_line()
        tray.line.value = line
        await pilot.press("enter", *keys)
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None
        kept = read_pending(pending_path(session.path))
        assert kept is not None
        if system == "magisphere":
            assert [s.path[-1] for s in kept.spends] == ["impulsion"]
        app.table.settle()                              # what q, ctrl+q and every signal do
        await pilot.pause()
    record = session.rolls[-1]
    assert (record.request, record.result, record.pending) == (kept.request, kept.result, kept.id)
    for spend in kept.spends:
        sheet = session.campaign.characters[spend.path[1]].sheet
        assert sheet[spend.path[3]][spend.path[4]] == spend.after
    assert not pending_path(session.path).exists()


@pytest.mark.parametrize("leave", ["quit", "sighup"])
async def test_quitting_while_an_impulsion_choice_waits_keeps_the_roll(campaign_file, leave: str) -> None:
    path = campaign_file("magisphere")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        tray.rng = random.Random(3)
        await pilot.press("slash", *"shady discr 35", "enter")   # only a natural 20 succeeds
        await pilot.pause()
        assert tray.flow is not None and tray.flow.prompt is not None   # "r relancer / g garder"
        face = tray.flow.result["natural"]
        if leave == "quit":
            await pilot.press("ctrl+q")
        else:
            app._on_signal(signal.SIGHUP)
        await pilot.pause()
    session = open_session(path)
    try:
        lines = [(r.line, r.result.get("natural")) for r in session.rolls]
    finally:
        session.close()
    assert ("shady discr 35", face) in lines       # was lost: the table saw the die, the log did not
