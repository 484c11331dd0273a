"""Shared by the tests that serve the screen in a browser: a clean environment for the
subprocesses, a free port, and waiting for a condition."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(GMSCREEN_CONFIG_DIR=str(tmp_path / "config"), GMSCREEN_DATA_DIR=str(tmp_path / "data"),
               PYTHONPATH=str(REPO), PYTHONUNBUFFERED="1",
               LANGUAGE="fr")          # a language chosen: the first screen asks none (LANG=C here)
    for name in ("TEXTUAL_THEME", "TEXTUAL_DRIVER", "TEXTUAL", "NO_COLOR"):
        env.pop(name, None)
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition: Callable[[], object], timeout: float, step: float = 0.02) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())
