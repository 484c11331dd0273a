"""The real program in a pseudo-terminal: a dropped terminal (SIGHUP) or a closed standard
input saves the campaign and ends the process, with nothing lost."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import textwrap
import time
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, open_session

REPO = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(GMSCREEN_CONFIG_DIR=str(tmp_path / "config"), GMSCREEN_DATA_DIR=str(tmp_path / "data"),
               TERM="xterm-256color", COLUMNS="80", LINES="24", PYTHONPATH=str(REPO))
    for name in ("TEXTUAL_THEME", "TEXTUAL_DRIVER", "TEXTUAL", "NO_COLOR"):
        env.pop(name, None)
    return env


def leave_unsaved_change(path: Path, name: str) -> None:
    """A change journalled but not in the state file: what a crash leaves behind."""
    code = textwrap.dedent(f"""
        import os
        from gmscreen.campaign import open_session
        session = open_session({str(path)!r})
        with session.edit("rename") as b:
            b.set(("characters", 0, "name"), {name!r})
        os._exit(0)
    """)
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                   timeout=30)
    assert load_campaign(path).characters[0].name != name


def read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    seen = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if needle in seen:
                return seen
    raise AssertionError(f"{needle!r} never appeared on the terminal; last output: {seen[-400:]!r}")


def drain(fd: int, seconds: float) -> bytes:
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            seen += chunk
    return seen


def start(path: Path, tmp_path: Path, *, stdin_eof: bool) -> tuple[subprocess.Popen[bytes], int]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "gmscreen", str(path)], cwd=REPO, env=environment(tmp_path),
                               stdin=subprocess.DEVNULL if stdin_eof else slave, stdout=slave, stderr=slave,
                               start_new_session=True)
    os.close(slave)
    return process, master


def stop(process: subprocess.Popen[bytes], master: int) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(10)
    os.close(master)


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_signal_saves_the_roll_and_the_state_then_exits(campaign_file, tmp_path: Path, sig: int) -> None:
    path = campaign_file("mir")
    leave_unsaved_change(path, "Alexis le Rescapé")
    rolls_before = len(open_session(path, read_only=True).rolls)
    process, master = start(path, tmp_path, stdin_eof=False)
    try:
        read_until(master, b"Vaskov", 20)               # first frame with the campaign's name
        drain(master, 0.5)
        os.write(master, b"/")
        drain(master, 0.3)
        os.write(master, b"6d12 sd2")
        drain(master, 0.3)
        os.write(master, b"\r")
        drain(master, 1.0)
        os.kill(process.pid, sig)
        drain(master, 0.5)
        assert process.wait(15) == 128 + sig
    finally:
        stop(process, master)
    # The state file itself holds the replayed change: saved on the signal, journal emptied.
    assert load_campaign(path).characters[0].name == "Alexis le Rescapé"
    session = open_session(path, read_only=True)
    assert len(session.rolls) == rolls_before + 1
    assert session.rolls[-1].line.strip() == "6d12 sd2"
    assert session.rolls[-1].result


def test_standard_input_at_eof_saves_and_exits_without_spinning(campaign_file, tmp_path: Path) -> None:
    path = campaign_file("tedeum")
    leave_unsaved_change(path, "Personne")
    process, master = start(path, tmp_path, stdin_eof=True)
    try:
        started = time.monotonic()
        status = process.wait(15)
        elapsed = time.monotonic() - started
        drain(master, 0.2)
    finally:
        stop(process, master)
    assert status == 0
    assert elapsed < 10
    assert load_campaign(path).characters[0].name == "Personne"
    # The lock was released: a new session is writable.
    session = open_session(path)
    try:
        assert not session.read_only
    finally:
        session.close()
