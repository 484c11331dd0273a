"""A screen opened while another process held the campaign (`gmscreen line`, another terminal,
another browser tab) is read-only only while it is held: it names the process holding it now,
takes the lock as soon as it is let go, says so, and its keys then write."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign
from gmscreen.ui import GMScreenApp

from _pilot import ready

REPO = Path(__file__).resolve().parents[2]

# Holds the campaign's lock; on "swap" hands it to a child that names itself in the lock file
# (the lock is never let go in between) and ends, so the holder first named has exited; the
# child holds it until its standard input ends.
HOLDER = textwrap.dedent("""
    import os, sys
    from gmscreen.campaign.lock import CampaignLock, holder_text
    lock = CampaignLock(sys.argv[1])
    lock.acquire()
    print("held", os.getpid(), flush=True)
    sys.stdin.readline()
    if os.fork():
        os._exit(0)
    os.ftruncate(lock.fd, 0)
    os.pwrite(lock.fd, (holder_text() + "\\n").encode(), 0)
    print("swapped", os.getpid(), flush=True)
    sys.stdin.read()
""")


def holder(path: Path) -> tuple[subprocess.Popen, int]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=env)
    word, pid = process.stdout.readline().split()
    assert word == "held"
    return process, int(pid)


async def until(pilot, condition, seconds: float) -> float:
    """Let the screen run until `condition()` holds; the seconds it took (fails past `seconds`)."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < seconds, "never happened"
        await pilot.pause(0.02)
    return time.monotonic() - start


def notified(app, words: str) -> bool:
    return any(words in n.message for n in app.notices)


@pytest.mark.usefixtures("english")
async def test_a_read_only_screen_names_the_holder_now_and_takes_the_lock_once_let_go(campaign_file):
    path = campaign_file("mir")
    process, first = holder(path)
    host = socket.gethostname()
    try:
        app = GMScreenApp(path)
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await ready(app, pilot)
            session = app.session
            assert session.read_only and session.lock_holder == f"{first}@{host}"
            process.stdin.write("swap\n")
            process.stdin.flush()
            word, second = process.stdout.readline().split()
            assert word == "swapped" and int(second) != first
            await until(pilot, lambda: app.session.lock_holder == f"{second}@{host}", 10)
            assert app.session is session and str(second) in session.read_only_reason
            assert str(first) not in session.read_only_reason              # it has exited
            process.stdin.close()                                           # the child lets go
            await until(pilot, lambda: not app.session.read_only, 10)      # (0.5 s here: one retry)
            await until(pilot, lambda: notified(app, "is no longer open elsewhere"), 10)   # said just after
            await until(pilot, lambda: app.session.rolls_loaded, 10)
            turn = app.session.campaign.encounter.turn
            await pilot.press("n")                                          # the keys write now
            await pilot.pause()
            assert app.session.campaign.encounter.turn != turn and app.session.dirty
            moved = app.session.campaign.encounter.turn
        assert load_campaign(path).encounter.turn == moved
    finally:
        if not process.stdin.closed:
            process.stdin.close()                   # a child still holding it ends too
        process.wait()
