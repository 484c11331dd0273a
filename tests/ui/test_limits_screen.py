"""The screen on a roll log with entries over a limit (`session = 10**30`, which once crashed the
log pane): among the newest rolls and among the older ones its thread indexes, each is left out
and said in a notice naming its line, and the pane shows the others."""

from __future__ import annotations

from gmscreen.campaign.model import RollRecord
from gmscreen.campaign.rolllog import _HEADER, format_roll, rolls_path
from gmscreen.ui import GMScreenApp

from _pilot import press, ready, until

REQUEST = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2}
RESULT = {"system": "mir", "kind": "simple", "outcome": "success", "successes": 2, "dice": [7, 12, 3]}


async def test_entries_out_of_range_are_said_and_left_out_not_a_crash(campaign_file) -> None:
    path = campaign_file("mir")
    rolls = [format_roll(RollRecord(seq, "2025-03-01T21:04:11+01:00", 3, "Loriane", f"jet {seq}", REQUEST, RESULT))
             for seq in range(1, 601)]
    for k in (1, 598):                  # one among the older rolls, one among the newest 500
        rolls[k] = rolls[k].replace("session = 3\n", f"session = {10**30}\n")
    rolls_path(path).write_text(_HEADER.format(campaign=path.name) + "".join(rolls), "utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await ready(app, pilot)
        assert await until(app, pilot, lambda: app.session.rolls.indexed)
        said = [n.message for n in app.notices if "attendu un entier de 1 à 1\u202f000\u202f000" in n.message]
        text = rolls_path(path).read_text("utf-8")
        lines = [text.count("\n", 0, text.index(f"seq = {k + 1}\n")) for k in (1, 598)]     # their [[roll]] lines
        words = ("session : attendu un entier de 1 à 1\u202f000\u202f000, reçu 100000000000… (31 chiffres) : "
                 "ignoré (entrée du journal des jets)")
        # Said with the log's own name and line (never its whole path), the toast being the warning.
        assert sorted(said) == sorted(f"{rolls_path(path).name}:{line} roll[{k}] : {words}"
                                      for k, line in zip((1, 598), lines)), said
        assert len(app.session.rolls) == 598
        await press(pilot, "4")
        assert app.focused is not None and app.focused.id == "log"
        await press(pilot, "q")
