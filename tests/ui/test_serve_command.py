"""`gmscreen serve`: the screen or the player view in a browser, as a real server process.

It answers HTTP on 127.0.0.1 (a free port), starts the player view for a browser's websocket,
stops on SIGTERM with its sessions; it warns when it listens beyond this machine, and says how
to install textual-serve when it is missing. The GM's screen opens only through the address it
prints (its token), draws its symbols in the page's font, and is refused beyond this machine
unless told; the player view takes a token when asked. The door itself (every check, against a
stand-in for the screen): `test_serve_door.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import aiohttp
from _fonts import shown
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
    """`gmscreen serve ARGS` on a free port, once it said the address to open."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "gmscreen", "serve", *args, "--port", str(port)], cwd=REPO,
                                  env=environment(tmp_path), stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        assert wait_for(lambda: "navigateur" in log.read_text() or server.poll() is not None, 20), log.read_text()
        assert server.poll() is None and listening(port), log.read_text()
        yield server, port, log
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


def printed_address(log: Path) -> str:
    found = re.findall(r"ouvrez (http://\S+) dans un navigateur", log.read_text())
    assert len(found) == 1, log.read_text()
    return found[0]


def get(port: int, path: str, host: str | None = None) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host} if host else {})
        return connection.getresponse().status
    finally:
        connection.close()


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


def test_the_gm_screen_opens_only_through_the_address_it_prints_its_symbols_in_the_page_s_font(
        campaign: Path, tmp_path: Path) -> None:
    with serving(tmp_path, str(campaign)) as (server, port, log):
        address = printed_address(log)
        token = re.fullmatch(rf"http://localhost:{port}/\?token=([A-Za-z0-9_-]{{40,}})", address).group(1)
        assert get(port, "/") == 403 and get(port, "/?token=" + "x" * 43) == 403

        async def browse() -> str:
            jar = aiohttp.CookieJar(unsafe=True)                # a browser keeps cookies of 127.0.0.1
            async with aiohttp.ClientSession(cookie_jar=jar) as http:
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=40")
                assert refused.value.status == 403
                async with http.get(address.replace("localhost", "127.0.0.1")) as page:
                    assert page.status == 200
                async with http.get(f"http://127.0.0.1:{port}/") as reload:       # the cookie signs in
                    assert reload.status == 200
                ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=40",
                                           origin=f"http://127.0.0.1:{port}")
                frames = ""
                while not all(mark in frames for mark in "›¦¤"):   # the turn, a delayed fighter, a timer
                    message = await ws.receive(timeout=30)
                    assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), frames[-500:]
                    if message.type == aiohttp.WSMsgType.BINARY:
                        frames += message.data.decode()
                await ws.close()
                return frames
        frames = asyncio.run(asyncio.wait_for(browse(), 60))
        drawn = re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]", "", frames)
        assert "Vaskov" in drawn and not set("▶⏸⧗") & set(drawn)
        assert sorted({c for c in drawn if not c.isascii() and not shown(c)}) == []
        gone = "le navigateur s'est déconnecté ; rien n'avait changé, rien d'écrit"     # nothing was changed
        assert wait_for(lambda: gone in log.read_text(), 20), log.read_text()
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0
    said = log.read_text()
    assert said.count(token) == 1 and "Traceback" not in said, said       # printed once, never logged


def test_the_player_view_takes_a_token_when_asked(campaign: Path, tmp_path: Path) -> None:
    with serving(tmp_path, "--players", "--token", str(campaign)) as (server, port, log):
        address = printed_address(log)
        assert "?token=" in address
        assert get(port, "/") == 403 and get(port, address.split(str(port), 1)[1]) == 200
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0


def test_the_gm_screen_beyond_this_machine_takes_the_configured_token_and_only_its_names(
        campaign: Path, tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('[serve]\ntoken = "table-night-token-0042"\n')
    with serving(tmp_path, str(campaign), "--host", "0.0.0.0", "--i-know-gm-exposed",
                 "--allow-host", "gm.lan") as (server, port, log):
        assert printed_address(log) == f"http://localhost:{port}/?token=table-night-token-0042"
        path = "/?token=table-night-token-0042"
        assert [get(port, path, host) for host in (f"192.0.2.7:{port}", f"gm.lan:{port}", f"localhost:{port}",
                                                  f"evil.example:{port}")] == [200, 200, 200, 403]
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0
    warning = [line for line in log.read_text().splitlines() if "attention" in line]
    assert len(warning) == 1 and "0.0.0.0" in warning[0] and "jeton" in warning[0], warning


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
    (["serve", "CAMPAIGN", "--host", "0.0.0.0"], "--i-know-gm-exposed"),
    (["serve", "CAMPAIGN", "--host", "192.168.1.10", "--port", "8123"], "--i-know-gm-exposed"),
    (["serve", "CAMPAIGN", "--token", "short"], "--token"),
    (["serve", "CAMPAIGN", "--max-sessions", "0"], "--max-sessions"),
    (["serve", "CAMPAIGN", "--allow-host", "evil/x"], "--allow-host"),
])
def test_serve_refuses_in_one_line(args: list[str], words: str, campaign: Path, tmp_path: Path) -> None:
    args = [str(campaign) if a == "CAMPAIGN" else a for a in args]
    done = subprocess.run([sys.executable, "-c", BLOCKED, *args], cwd=tmp_path, env=environment(tmp_path),
                          capture_output=True, timeout=60)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and words in lines[0], lines
