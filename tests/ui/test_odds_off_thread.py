"""No frame dropped on odds: a request slower than a frame is priced off the screen's thread,
keys typed meanwhile land at once and in order, the previous figure stays until the new one
is ready, and the memo stays right when the screen and the pricing thread share it."""

from __future__ import annotations

import threading

from gmscreen.play import chances
from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.tray import odds_pricing

from _pilot import press, ready


def _info(tray) -> str:
    return str(tray.info.render())


async def test_slow_odds_arrive_without_holding_keys(campaign_file, monkeypatch) -> None:
    app = GMScreenApp(campaign_file("mir"))
    gate = threading.Event()
    slow = threading.Event()            # pricing is held at the gate once set
    entered = []
    compute = chances._compute

    def held(request):
        if slow.is_set():
            entered.append(request.get("pool"))
            gate.wait(30)
        return compute(request)

    monkeypatch.setattr(chances, "_compute", held)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await ready(app, pilot)
            tray = app.dice_tray()
            await press(pilot, "slash", *"2d12 sd2")
            before = _info(tray)
            assert "· 2 dés" in before and "%" in before, before

            monkeypatch.setattr(odds_pricing, "ODDS_WAIT", 0.0)
            slow.set()
            await press(pilot, "home", "1", "end", "space", "space")
            # Every key landed, in order, while "12d12 sd2" was being priced.
            assert tray.line.value == "12d12 sd2  "
            assert entered == [12] and not gate.is_set()
            assert _info(tray) == before                 # the previous figure, kept meanwhile
            assert any(w.name == "odds" for w in app.workers)

            gate.set()
            for _ in range(50):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if _info(tray) != before:
                    break
            after = _info(tray)
            assert "12 dés" in after and "%" in after, after
            assert after.split()[0] != before.split()[0]
    finally:
        gate.set()


def test_memo_shared_by_threads_computes_each_request_once() -> None:
    """Many threads asking for the same few requests: each answer is the exact one, and the
    memo ends with one entry per request."""
    requests = [{"system": "mir", "kind": "simple", "pool": n, "difficulty": 2} for n in range(1, 9)]
    expected = [chances._compute(r) for r in requests]
    answers: list[list[float]] = []

    def ask() -> None:
        answers.append([chances.chance(r) for r in requests])

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [expected] * 8
    assert all(chances.known(r) for r in requests)
