"""`gmscreen serve`: the screen or the player view in a browser, as a real server process.

It answers HTTP on 127.0.0.1 (a free port), starts the player view for a browser's websocket,
stops on SIGTERM with its sessions; it warns when it listens beyond this machine, and says how
to install textual-serve when it is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import aiohttp
from _serve import REPO, environment, free_port, wait_for
import pytest

from gmscreen.campaign import sample_path


def listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
        return True
    return False


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "mir.toml"
    path.write_bytes(sample_path("mir").read_bytes())
    return path


@contextlib.contextmanager
def serving(tmp_path: Path, *args: str) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "gmscreen", "serve", *args, "--port", str(port)], cwd=REPO,
                                  env=environment(tmp_path), stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        assert wait_for(lambda: listening(port) or server.poll() is not None, 20), log.read_text()
        assert server.poll() is None, log.read_text()
        yield server, port, log
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


def players_views(campaign: Path) -> list[int]:
    """The `gmscreen players CAMPAIGN` processes the server started."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                argv = (entry / "cmdline").read_bytes().split(b"\0")
                if b"players" in argv and str(campaign).encode() in argv:
                    found.append(int(entry.name))
    return found


def test_serve_answers_on_localhost_starts_the_player_view_and_stops_on_sigterm(campaign: Path,
                                                                                tmp_path: Path) -> None:
    with serving(tmp_path, str(campaign), "--players") as (server, port, log):
        async def browse() -> str:
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{port}/") as page:
                    assert page.status == 200
                    html = await page.text()
                ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=100&height=30")
                frames = ""
                while "Vaskov" not in frames:            # the player view's first frames
                    message = await ws.receive(timeout=20)
                    if message.type == aiohttp.WSMsgType.BINARY:
                        frames += message.data.decode(errors="replace")
                    elif message.type == aiohttp.WSMsgType.TEXT:
                        frames += message.data
                    else:
                        break
                assert players_views(campaign), "no player view started"
                await ws.send_str(json.dumps(["stdin", "x"]))
                await ws.close()
                return html + frames
        seen = asyncio.run(asyncio.wait_for(browse(), 40))
        assert f"ws://127.0.0.1:{port}/ws" in seen and "Vaskov" in seen
        assert wait_for(lambda: not players_views(campaign), 15), "the tab closed, its view still runs"

        async def stay_while_stopped() -> None:          # SIGTERM with a tab open: the server and its view end
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
                await ws.receive(timeout=20)
                assert await asyncio.to_thread(wait_for, lambda: players_views(campaign), 20)
                server.send_signal(signal.SIGTERM)
                while (await ws.receive(timeout=15)).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    pass                                # as a browser does: it reads until the server closes
                assert await asyncio.to_thread(server.wait, 15) == 0, log.read_text()
        asyncio.run(asyncio.wait_for(stay_while_stopped(), 60))
        assert wait_for(lambda: not players_views(campaign), 15), "the server stopped, its view still runs"
        said = log.read_text()
        assert f"http://localhost:{port}" in said and "attention" not in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mir.toml", "serve.log"]


def test_serve_beyond_this_machine_warns_that_anyone_can_use_it(campaign: Path, tmp_path: Path) -> None:
    with serving(tmp_path, str(campaign), "--players", "--host", "0.0.0.0") as (server, _port, log):
        assert wait_for(lambda: "navigateur" in log.read_text(), 10)
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0
    lines = log.read_text().splitlines()
    assert any("attention" in line and "0.0.0.0" in line and "quiconque" in line for line in lines), lines


BLOCKED = """
import sys
class NoServe:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "textual_serve":
            raise ImportError(name)
sys.meta_path.insert(0, NoServe())
from gmscreen.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("args, words", [
    (["serve", "CAMPAIGN"], "pip install 'gmscreen[web]'"),
    (["serve", "--players"], "--players"),
    (["serve", "nowhere.toml", "--players"], "introuvable"),
])
def test_serve_refuses_in_one_line(args: list[str], words: str, campaign: Path, tmp_path: Path) -> None:
    args = [str(campaign) if a == "CAMPAIGN" else a for a in args]
    done = subprocess.run([sys.executable, "-c", BLOCKED, *args], cwd=tmp_path, env=environment(tmp_path),
                          capture_output=True, timeout=60)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and words in lines[0], lines
