"""The screen served in a browser (textual-serve): a session ends with its client, saved, and
lets go of the campaign; SIGTERM ends it in 5 s even when its screen is stuck.

Real processes only: gmscreen serve's server (`gmscreen.ui.web.server`) on 127.0.0.1 in a
subprocess, a websocket client speaking the browser's protocol, the gmscreen process it
starts watched in /proc.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Iterator

import aiohttp
from _serve import REPO, environment, free_port, wait_for
from _pilot import ready
from textual import events
from textual.geometry import Size

from gmscreen.campaign import load_campaign, open_session
from gmscreen.ui.app import GMScreenApp

REPO = Path(__file__).resolve().parents[2]
TICKS = os.sysconf("SC_CLK_TCK")
# gmscreen serve's server (no token: these tests are about sessions, the door has its own).
SERVER = ("import sys; from gmscreen.ui.web import guard; from gmscreen.ui.web.server import Door, WebServer; "
          "WebServer(sys.argv[1], Door(guard.Hosts()), host='127.0.0.1', port=int(sys.argv[2]), title='gmscreen', "
          "ready='listening').serve()")


def cpu_seconds(pid: int) -> float | None:
    """User + system time of a live process; None once it is gone (or a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    if fields[0] in ("Z", "X"):
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def gmscreen_processes(campaign: Path) -> list[int]:
    """The gmscreen processes (`python -m gmscreen CAMPAIGN`) running on this campaign."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[1:4] == [b"-m", b"gmscreen", str(campaign).encode()] and cpu_seconds(int(entry.name)) is not None:
            found.append(int(entry.name))
    return found


@contextlib.contextmanager
def served(campaign: Path, tmp_path: Path) -> Iterator[tuple[int, Path, subprocess.Popen[bytes]]]:
    """The screen on `campaign` served on a free loopback port: (port, log, server)."""
    port = free_port()
    command = f"{shlex.quote(sys.executable)} -m gmscreen {shlex.quote(str(campaign))}"
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-c", SERVER, command, str(port)], cwd=REPO,
                                  env=environment(tmp_path), stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        def listening() -> bool:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
            return server.poll() is not None
        assert wait_for(listening, 20, 0.05) and server.poll() is None, log.read_text(errors="replace")
        yield port, log, server
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        for pid in gmscreen_processes(campaign):      # only if a test failed: never leave one behind
            os.kill(pid, signal.SIGKILL)


async def open_and_leave(port: int) -> None:
    """What a tab closed as it loads does: connect, report the (collapsing) size, go."""
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
        await ws.send_str(json.dumps(["resize", {"width": 2, "height": 1}]))
        await ws.close()


def watch_until_gone(pid: int, timeout: float) -> tuple[bool, float]:
    """Poll a process until it ends: (ended in time, CPU seconds it used while watched)."""
    first = last = cpu_seconds(pid)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        now = cpu_seconds(pid)
        if now is None:
            break
        last = now
        time.sleep(0.05)
    used = (last or 0.0) - (first or 0.0)
    return cpu_seconds(pid) is None, used


def assert_released(campaign: Path) -> None:
    session = open_session(campaign)
    try:
        assert not session.read_only, session.read_only_reason
    finally:
        session.close()


def test_a_tab_closed_at_once_ends_its_session_saved_and_lets_go_of_the_campaign(
        campaign_file, unsaved_change, tmp_path: Path) -> None:
    campaign = campaign_file("mir")
    unsaved_change(campaign, "Alexis de passage")
    with served(campaign, tmp_path) as (port, _log, _server):
        asyncio.run(asyncio.wait_for(open_and_leave(port), 10))
        seen: list[int] = []
        assert wait_for(lambda: seen.extend(gmscreen_processes(campaign)) or seen, 10), "gmscreen never started"
        for pid in seen:
            ended, cpu = watch_until_gone(pid, 30)
            assert ended, f"gmscreen {pid} still running 30 s after its client left"
            assert cpu < 5, f"gmscreen {pid} used {cpu:.1f} s of CPU after its client left"
        assert_released(campaign)
    assert load_campaign(campaign).characters[0].name == "Alexis de passage"     # saved on its way out


def test_a_roll_typed_as_the_tab_closes_is_made_before_the_session_ends(campaign_file, tmp_path: Path) -> None:
    campaign = campaign_file("mir")
    rolls_before = len(open_session(campaign, read_only=True).rolls)
    with served(campaign, tmp_path) as (port, _log, _server):
        async def type_and_leave() -> None:
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=100&height=30")
                await ws.receive(timeout=20)            # the first frame
                for keys in ("/", "6d12 sd2", "\r"):     # as xterm.js sends them, then gone at once
                    await ws.send_str(json.dumps(["stdin", keys]))
                await ws.close()
        asyncio.run(asyncio.wait_for(type_and_leave(), 30))
        assert wait_for(lambda: not gmscreen_processes(campaign), 30), "gmscreen still running 30 s after its tab closed"
    rolls = open_session(campaign, read_only=True).rolls
    assert len(rolls) == rolls_before + 1 and rolls[-1].line.strip() == "6d12 sd2"


def test_a_session_whose_server_dies_ends_saved_and_lets_go_of_the_campaign(
        campaign_file, unsaved_change, tmp_path: Path) -> None:
    campaign = campaign_file("tedeum")
    unsaved_change(campaign, "Personne")
    with served(campaign, tmp_path) as (port, _log, server):
        async def stay_until_the_server_dies() -> tuple[bool, float]:
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=100&height=30")
                await ws.receive(timeout=20)            # the first frame: the session is up
                seen = gmscreen_processes(campaign)
                assert len(seen) == 1
                server.kill()                           # gone without a word: gmscreen's stdin ends
                return await asyncio.to_thread(watch_until_gone, seen[0], 30)
        ended, cpu = asyncio.run(asyncio.wait_for(stay_until_the_server_dies(), 60))
        assert ended, "gmscreen still running 30 s after its server died"
        assert cpu < 5, f"gmscreen used {cpu:.1f} s of CPU after its server died"
        assert_released(campaign)
    assert load_campaign(campaign).characters[0].name == "Personne"


async def test_a_screen_lays_out_for_the_terminal_size_not_a_stale_one(campaign_file) -> None:
    """The cause of the endless loop: a screen given a Resize of a size the terminal no longer
    has laid itself out for it, then answered its own new size, forever once exiting. Every
    screen of ours lays out for the terminal's size instead (`ui/terminal/steady.py`)."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.action_keys()                               # a modal screen over the main one
        await pilot.pause()
        for screen in (app.screen, app.screen_stack[0]):
            laid_out: list[Size] = []
            screen.post_message(events.Resize(Size(2, 1), Size(2, 1)))
            screen.call_later(lambda: laid_out.append(screen.outer_size))     # right after that Resize
            await pilot.pause()
            assert laid_out == [Size(80, 24)]


BUSY = textwrap.dedent("""
    import sys
    from gmscreen.ui.app import GMScreenApp
    from gmscreen.cli import main

    ready = GMScreenApp.on_ready

    async def on_ready(self):
        await ready(self)
        with self.session.edit("rename") as change:    # journalled, not yet in the state file
            change.set(("characters", 0, "name"), "Occupé jusqu'au bout")
        open(sys.argv[2], "w").close()
        while True:                                      # the screen never yields again
            pass

    GMScreenApp.on_ready = on_ready
    sys.exit(main([sys.argv[1]]))
""")


def test_sigterm_ends_a_stuck_served_session_in_5_s_saved(campaign_file, tmp_path: Path) -> None:
    """The process textual-serve starts (Textual's web driver, pipes for stdin and stdout),
    its event loop stuck for good: SIGTERM still saves and ends it in 5 s."""
    campaign = campaign_file("eclats")
    marker = tmp_path / "busy"
    env = environment(tmp_path) | {"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver", "COLUMNS": "80",
                                   "ROWS": "24"}
    process = subprocess.Popen([sys.executable, "-c", BUSY, str(campaign), str(marker)], cwd=REPO, env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert wait_for(marker.exists, 30), "the screen never came up"
        time.sleep(0.2)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        status = process.wait(10)
        elapsed = time.monotonic() - started
        errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    assert status == 128 + signal.SIGTERM
    assert elapsed < 5, f"SIGTERM took {elapsed:.1f} s"
    assert "campagne enregistrée" in errors, errors
    assert load_campaign(campaign).characters[0].name == "Occupé jusqu'au bout"
    assert_released(campaign)
