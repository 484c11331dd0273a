"""The GM's screen follows other writers: a roll another process appends to the log
(`gmscreen roll --campaign`, `gmscreen line`) shows in the log pane within about a second,
not only at the GM's next roll."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from _pilot import press, ready, screen_text

from gmscreen.ui import GMScreenApp


async def _shown_within(app, pilot, who: str, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        await pilot.pause(0.05)
        if any(record.who == who for record in app.session.rolls[-5:]):
            await pilot.pause()
            return any(who in row for row in screen_text(app))
    return False


async def test_a_roll_logged_by_another_process_shows_in_the_log(campaign_file):
    path = campaign_file("mir")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "4")
        before = len(app.session.rolls)
        done = subprocess.run([sys.executable, "-m", "gmscreen", "roll", "mir", "--pool", "4", "--difficulty", "3",
                               "--campaign", str(path), "--who", "Zorglub"], env=dict(os.environ),
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert await _shown_within(app, pilot, "Zorglub", 3.0)
        assert len(app.session.rolls) == before + 1
        # The screen's own next roll is numbered after it, once.
        await press(pilot, "slash", *"6d12 sd2", "enter")
        seqs = [record.seq for record in app.session.rolls]
        assert seqs == sorted(set(seqs)) and len(seqs) == before + 2
