"""Every prompt's default is the choice the odds assume (issue 22: "prompts priced and defaults
honest"): at each question of a roll, Enter takes the key the odds' policy takes, so the chance
shown while typing is the chance of pressing Enter all the way. Each game's prompts, on its
sample, over a few dice."""

from __future__ import annotations

import random

import pytest

from gmscreen.play.table_roll import TableRoll, read_line

LINES = [
    ("eclats", "ysaure emp calmer 9"), ("eclats", "ysaure emp calmer 3"), ("eclats", "ysaure emp calmer 9 caché"),
    ("eclats", "ysaure agi calmer 3"),
    ("magisphere", "shady négo 40"), ("magisphere", "shady négo 25"), ("magisphere", "granok puissance vs shady puissance"),
    ("magisphere", "shady pre 25 aide granok"),
    ("tedeum", "louvensac charme 13"), ("tedeum", "saint-gelais escrime attaque vs louvensac escrime"),
    ("arpeges", "thibault baratin -3 vs marchand baratin"),
]


@pytest.mark.parametrize("system,line", LINES)
def test_enter_is_the_odds_choice_at_every_prompt(sessions, system, line) -> None:
    session = sessions.open(system)
    asked = 0
    for seed in range(6):
        roll = TableRoll(session, read_line(session.campaign, line), rng=random.Random(seed)).start()
        for _step in range(20):
            prompt = roll.prompt
            if prompt is None:
                break
            asked += 1
            odds_key = roll.policy_key("odds")
            default = prompt.option("enter")
            assert default is not None and prompt.option(odds_key) == default, (prompt.question, odds_key)
            assert roll.choose("enter")
        roll.abandon()
    assert asked


@pytest.mark.parametrize("system,line,field", [("eclats", "ysaure emp calmer 12", "dice"),
                                               ("magisphere", "shady négo 40", "dice")])
def test_closing_on_an_open_reroll_keeps_the_roll_the_table_saw(sessions, system, line, field) -> None:
    """Enter rerolls a failure (the odds' way), but a campaign closing with the question open
    logs the dice shown, none rolled unseen and nothing spent (`Prompt.settles`)."""
    session = sessions.open(system)
    for seed in range(40):
        roll = TableRoll(session, read_line(session.campaign, line), rng=random.Random(seed)).start()
        if roll.prompt is not None and roll.prompt.default == "r":
            break
        roll.abandon()
    shown = list(roll.flow.request[field])
    assert roll.prompt.settles == "g"
    settled = roll.flow.settled()
    assert settled.request[field] == shown and settled.result == roll.result
    assert roll.choose("enter") and len(roll.flow.request[field]) == len(shown) + 1
    roll.settle()
    roll.finish()
