"""The real program in a pseudo-terminal: a dropped terminal (SIGHUP) or a closed standard
input saves the campaign and ends the process, with nothing lost."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, open_session

from _pty import drain, quick_roll, read_until, start, stop


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM])
def test_signal_saves_the_roll_and_the_state_then_exits(campaign_file, unsaved_change, tmp_path: Path,
                                                         sig: int) -> None:
    path = campaign_file("mir")
    unsaved_change(path, "Alexis le Rescapé")
    rolls_before = len(open_session(path, read_only=True).rolls)
    process, master = start(path, tmp_path)
    try:
        read_until(master, b"Vaskov", 20)               # first frame with the campaign's name
        drain(master, 0.5)
        quick_roll(master, b"6d12 sd2")
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


def test_standard_input_at_eof_saves_and_exits_without_spinning(campaign_file, unsaved_change,
                                                                tmp_path: Path) -> None:
    path = campaign_file("tedeum")
    unsaved_change(path, "Personne")
    process, master = start(path, tmp_path, stdin=subprocess.DEVNULL)
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
