"""Typing in the dice tray with the difficulty table on screen: every distinct request the
line, the tray's odds and the table's rows need is computed once, however many keys and
redraws ask for it (the line's own check computes none: tests/play/test_odds_once.py)."""

from __future__ import annotations

import random
from collections import Counter, OrderedDict

from gmscreen.play import chances
from gmscreen.play.games import table_for
from gmscreen.ui.widgets.difficulty.pane import DifficultyPane
from gmscreen.ui.widgets.tray.dice_tray import DiceTray

from _pilot import press


async def test_typing_a_line_prices_each_request_once(pane_host, open_sample, monkeypatch) -> None:
    session = open_sample("mir")
    computed: Counter = Counter()
    odds = chances.odds

    def counted(request):
        computed[repr(sorted(request.items()))] += 1
        return odds(request)

    monkeypatch.setattr(chances, "odds", counted)
    monkeypatch.setattr(chances, "_memo", OrderedDict())
    app = pane_host(session, lambda: DiceTray(id="dice-tray", rng=random.Random(1)),
                    lambda: DifficultyPane(id="difficulty"))
    line = table_for("mir").line.help_examples[0][0]          # "loriane éloquence sd3"
    async with app.run_test(size=(100, 30)) as pilot:
        tray = app.query_one(DiceTray)
        tray.focus_line()
        await press(pilot, *line)
        await press(pilot, "backspace", line[-1])              # the same draft again
        assert tray.line.value == line
        assert "%" in str(tray.info.render())
        rows = [str(option.prompt) for option in app.query_one(DifficultyPane).rows.options]
        assert any("%" in row for row in rows)
    assert len(computed) >= 7                                   # the line, and a row per difficulty
    assert max(computed.values()) == 1, [r for r, n in computed.items() if n > 1]
