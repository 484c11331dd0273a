"""Both sides of an opposition or an attack use their own resources, asked in turn: Te Deum's
defender calls on Providence after the attacker (spent from the defender's sheet, undoable),
Magisphère's opponent spends Impulsion to reroll; a side with none is not asked. Magisphère's
natural 20 offers its reward (R10) and a helper without the skill asks the GM's bonus (R24).
Real sample campaigns copied into tmp_path, rolled through `gmscreen.play`."""

from __future__ import annotations

import random

import pytest

from gmscreen.play.table_roll import TableRoll, read_line, roll_line
from gmscreen.rules import resolve


def sheet(session, who: str) -> dict:
    return session.campaign.character(who).sheet["resources"]


def questions(roll) -> list[tuple[str, str]]:
    return [(prompt.question, option.key) for prompt, option in roll.answers]


# ---------------------------------------------------------------- Te Deum: the defender's Providence

def test_the_defenders_providence_is_asked_and_spent_from_the_defenders_sheet(sessions) -> None:
    session = sessions.open("tedeum")
    line = "saint-gelais escrime attaque vs louvensac escrime"       # an NPC attacks, the PC defends
    roll = roll_line(session, line, keys=["p"], rng=random.Random(3))
    (question, key), = questions(roll)
    assert question.startswith("Mlle de Louvensac se défend avec la Providence ? D6 (") and key == "p"
    assert roll.flow.request["opponent_use_providence"] is True and "use_providence" not in roll.flow.request
    assert len(roll.result["opponent_providence_dice"]) == 1 and roll.result["actor_providence_dice"] == []
    assert sheet(session, "louvensac")["providence"] == 4                  # D6 → D4, on the defender
    assert sheet(session, "saint-gelais")["providence"] == 4                # the attacker's untouched
    record = session.rolls[-1]
    assert resolve(record.request, seed=record.seed) == roll.result         # the log replays it
    undone = session.undo()
    assert undone is not None and "Louvensac" in undone.label and sheet(session, "louvensac")["providence"] == 6


def test_both_sides_are_asked_in_turn_actor_first(sessions) -> None:
    session = sessions.open("tedeum")
    session.campaign.character("saint-gelais").side = "party"               # two player characters
    draft = read_line(session.campaign, "saint-gelais étiquette vs louvensac étiquette")
    roll = TableRoll(session, draft, rng=random.Random(1)).start()
    assert roll.prompt.question.startswith("le capitaine de Saint-Gelais appelle la Providence ? D4")
    assert roll.choose("n") and roll.prompt.question.startswith("Mlle de Louvensac appelle la Providence")
    assert not roll.shown                                                  # no die before both answered
    assert roll.choose("p") and roll.prompt is None
    roll.finish()
    assert sheet(session, "louvensac")["providence"] == 4 and sheet(session, "saint-gelais")["providence"] == 4


def test_a_side_without_providence_is_not_asked(sessions) -> None:
    session = sessions.open("tedeum")
    roll = roll_line(session, "louvensac escrime attaque vs gentilhomme escrime", keys=["n"], rng=random.Random(2))
    assert len(roll.answers) == 1                                         # only the attacker: the huguenot has none
    sheet(session, "louvensac")["providence"] = 0
    again = roll_line(session, "saint-gelais escrime attaque vs louvensac escrime", rng=random.Random(2))
    assert again.answers == [] and not any("Providence" in s.text for s in again.spends)   # Brebis égarée


def test_gmscreen_line_keys_reach_the_second_side(sessions) -> None:
    session = sessions.open("tedeum")
    session.campaign.character("saint-gelais").side = "party"
    roll = roll_line(session, "saint-gelais étiquette vs louvensac étiquette", keys=["p", "p"], rng=random.Random(4))
    assert [key for _q, key in questions(roll)] == ["p", "p"]
    assert roll.flow.request["actor_use_providence"] and roll.flow.request["opponent_use_providence"]
    assert sheet(session, "saint-gelais")["providence"] == 0 and sheet(session, "louvensac")["providence"] == 4


# ---------------------------------------------------------------- Magisphère: the opponent's Impulsion

def _seed(session, line: str, asking: str) -> int:
    """A seed whose first prompt asks the side `asking` ("actor_" / "opponent_")."""
    draft = read_line(session.campaign, line)
    for seed in range(300):
        flow = TableRoll(session, draft, rng=random.Random(seed)).flow.start()
        if flow.prompt is not None and flow.asking == asking:
            return seed
    raise AssertionError(line)


def test_the_opponents_impulsion_rerolls_from_the_opponents_sheet(sessions) -> None:
    session = sessions.open("magisphere")
    line = "granok puissance vs shady puissance"
    seed = _seed(session, line, "opponent_")
    draft = read_line(session.campaign, line)
    roll = TableRoll(session, draft, rng=random.Random(seed)).start()
    assert roll.prompt.question.startswith("Shady") and "Impulsion" in roll.prompt.question
    assert roll.choose("r") and len(roll.flow.request["opponent_dice"]) == 2
    roll.play(policy="enter")
    roll.finish()
    spent = roll.result["opponent_impulsions_spent"]
    assert spent >= 1 and sheet(session, "shady")["impulsion"] == 2 - spent
    assert sheet(session, "granok")["impulsion"] == 1 - roll.result["actor_impulsions_spent"]
    assert session.undo() is not None and sheet(session, "shady")["impulsion"] == 2


def test_an_opponent_without_impulsion_is_never_asked(sessions) -> None:
    session = sessions.open("magisphere")
    for seed in range(30):
        roll = roll_line(session, "shady négo vs rival négo", rng=random.Random(seed))
        assert all(prompt.question.startswith("Shady") for prompt, _o in roll.answers)
        assert roll.result["opponent_impulsions_spent"] == 0


# ---------------------------------------------------------------- Magisphère R10 and R24

def test_a_natural_20_offers_one_more_impulsion_undoably(sessions) -> None:
    session = sessions.open("magisphere")
    sheet(session, "shady")["impulsion"] = 1
    roll = roll_line(session, "shady négo 25 = 20", keys=["i"])
    (question, key), = questions(roll)
    assert "20 naturel (R10)" in question and "Impulsion 1 → 2" in question and "PNJ amical" in question
    assert sheet(session, "shady")["impulsion"] == 2
    assert session.undo() is not None and sheet(session, "shady")["impulsion"] == 1


def test_another_reward_writes_nothing_and_a_full_pool_is_not_offered(sessions) -> None:
    session = sessions.open("magisphere")
    roll = roll_line(session, "granok puissance vs shady puissance = 20 / 5", keys=["a"])
    assert [key for _q, key in questions(roll)] == ["a"] and roll.spends == []
    sheet(session, "shady")["impulsion"] = 3                               # at impulsion_max
    full = roll_line(session, "shady négo 25 = 20")
    assert full.answers == [] and full.spends == []
    npc = roll_line(session, "gros bob puissance 20 = 20")                # no Impulsion on the sheet
    assert npc.answers == []


def test_a_helper_in_a_test_no_skill_fits_asks_the_gm_for_the_bonus(sessions) -> None:
    """R24 (002, l.38): « Si aucune compétence ne correspond à l'action effectuée, alors c'est le
    MJ qui détermine le bonus accordé. » A test of PRE alone: the GM's bonus, each priced."""
    session = sessions.open("magisphere")
    roll = roll_line(session, "shady pre 25 aide granok = 12", keys=["2"])
    (question, key), = questions(roll)
    assert "Granok" in question and "R24" in question and key == "2"
    options = roll.answers[0][0].options
    assert [o.key for o in options] == ["0", "1", "2", "3"] and roll.answers[0][0].default == "0"
    # Die 12 + PRE 11 against 25 + Ivre's malus 3: +5 would reach 28; none of these does.
    assert [o.chance for o in options] == [0.0, 0.0, 0.0, 0.0]
    assert roll.flow.request["bonus"] == 2 and roll.result["score"] == 12 + 11 + 2
    assert roll.result["cooperation_bonus"] == 0
    plain = roll_line(session, "shady pre 25 aide granok = 12", policy="enter")
    assert "bonus" not in plain.flow.request and plain.result["score"] == 23    # Enter: +0, as the odds assume
    skilled = roll_line(session, "shady vigilance 15 aide granok = 12")        # Granok has Vigilance
    assert skilled.answers == [] and skilled.result["cooperation_bonus"] == 2


def test_the_gm_bonus_options_leave_the_chances_the_odds_would_show(sessions) -> None:
    from gmscreen.play import chances

    session = sessions.open("magisphere")
    roll = TableRoll(session, read_line(session.campaign, "shady pre 25 aide granok")).start()
    prompt = roll.prompt
    assert prompt is not None and not roll.shown                          # asked before any die
    odds_request = dict(roll.draft.odds_request)
    for option in prompt.options:
        bonus = int(option.key)
        expected = chances.chance({**odds_request, **({"bonus": bonus} if bonus else {})})
        assert option.chance == pytest.approx(expected, abs=1e-12)
    assert prompt.options[0].chance == pytest.approx(chances.chance(odds_request), abs=1e-12)   # the default
    assert [o.chance for o in prompt.options] == sorted(o.chance for o in prompt.options)
    assert "%" in prompt.options[3].text
    hidden = TableRoll(session, read_line(session.campaign, "shady pre 25 caché aide granok")).start()
    assert all(o.chance is None for o in hidden.prompt.options)         # a hidden threshold stays untold


def test_a_helper_without_the_skill_the_test_names_gives_nothing(sessions) -> None:
    """R23: a helper « s'il dispose de la compétence adéquate » gives half its bonus; Granok has
    no Négociation: nothing, and nothing asked (the seed names no GM's bonus here)."""
    session = sessions.open("magisphere")
    roll = roll_line(session, "shady négo 25 aide granok = 12")
    assert roll.answers == [] and roll.result["cooperation_bonus"] == 0
    assert roll.flow.request["helper_skills"] == [0] and roll.result["score"] == 12 + 11 + 3


def test_a_reward_left_open_is_kept_on_disk_and_logged_with_its_default(sessions) -> None:
    from gmscreen.campaign.pending import pending_path, read_pending

    session = sessions.open("magisphere")
    sheet(session, "shady")["impulsion"] = 1
    roll = TableRoll(session, read_line(session.campaign, "shady négo 25 = 20")).start()
    assert roll.prompt is not None and roll.shown
    kept = read_pending(pending_path(session.path))                        # Enter's choice: the point
    assert kept is not None and [(s.path[-1], s.after) for s in kept.spends] == [("impulsion", 2)]
    record = roll.abandon()                                               # the campaign closes: never lost
    assert record is not None and sheet(session, "shady")["impulsion"] == 2
    assert not pending_path(session.path).exists()


def test_a_hidden_threshold_is_not_told_by_the_reroll_options(sessions) -> None:
    session = sessions.open("magisphere")
    draft = read_line(session.campaign, "shady négo 25 caché")
    flow = next(f for s in range(100) if (f := TableRoll(session, draft, rng=random.Random(s)).flow.start()).prompt)
    assert [o.text for o in flow.prompt.options] == ["relancer (1 Impulsion)", "garder"]
    assert all(o.chance is None for o in flow.prompt.options)


def test_a_reroll_then_a_natural_20_spends_then_gains_on_the_same_sheet(sessions) -> None:
    session = sessions.open("magisphere")
    roll = roll_line(session, "shady négo 25 = 5 20")                      # rerolled once, then a 20
    assert [s.text for s in roll.spends] == ["Impulsion −1 → Shady", "Impulsion +1 → Shady (20)"]
    assert sheet(session, "shady")["impulsion"] == 2
    undone = session.undo()                                               # one change, undone whole
    assert undone.label == "Impulsion −1 → Shady · Impulsion +1 → Shady (20)" and sheet(session, "shady")["impulsion"] == 2
