"""The real program in a pseudo-terminal: start it, read what it draws, type, stop it."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(GMSCREEN_CONFIG_DIR=str(tmp_path / "config"), GMSCREEN_DATA_DIR=str(tmp_path / "data"),
               TERM="xterm-256color", COLUMNS="80", LINES="24", PYTHONPATH=str(REPO),
               LANGUAGE="fr")          # a language chosen: the first screen asks none (LANG=C here)
    for name in ("TEXTUAL_THEME", "TEXTUAL_DRIVER", "TEXTUAL", "NO_COLOR"):
        env.pop(name, None)
    return env


def start(path: Path, tmp_path: Path, *, stdin: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """`gmscreen PATH` on an 80×24 pty; `stdin`: another standard input than the pty (a pipe, or
    `subprocess.DEVNULL` for one at its end from the start)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "gmscreen", str(path)], cwd=REPO, env=environment(tmp_path),
                               stdin=slave if stdin is None else stdin, stdout=slave, stderr=slave,
                               start_new_session=True)
    os.close(slave)
    return process, master


def quick_roll(master: int, line: bytes) -> None:
    """`/`, the line, Enter, typed as a GM does, each let through before the next; the roll's
    line then has a second to reach the log."""
    for keys, pause in ((b"/", 0.3), (line, 0.3), (b"\r", 1.0)):
        os.write(master, keys)
        drain(master, pause)


def _read(fd: int, seconds: float, needle: bytes | None = None) -> bytes:
    """What the terminal shows for `seconds`, or until `needle` shows or the terminal closes."""
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if needle is not None and needle in seen:
                break
    return seen


def read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    seen = _read(fd, timeout, needle)
    if needle not in seen:
        raise AssertionError(f"{needle!r} never appeared on the terminal; last output: {seen[-400:]!r}")
    return seen


def drain(fd: int, seconds: float) -> bytes:
    return _read(fd, seconds)


def quiet(fd: int, still: float = 0.3, timeout: float = 10.0) -> bytes:
    """What the terminal shows until it has drawn nothing for `still` seconds (the screen is
    done starting), `timeout` at most."""
    seen = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        chunk = _read(fd, still)
        if not chunk:
            break
        seen += chunk
    return seen


def wait(process: subprocess.Popen[bytes], master: int, timeout: float) -> int:
    """The exit status, reading the terminal meanwhile so that the program never blocks on it."""
    end = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < end:
        drain(master, 0.05)
    return process.wait(max(0.1, end - time.monotonic()))


def stop(process: subprocess.Popen[bytes], master: int) -> None:
    if process.poll() is None:
        process.kill()
        process.wait(10)
    os.close(master)
