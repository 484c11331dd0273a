"""Arpèges R12 on both sides of an opposition: the actions each side declared in the queue
(or typed on its side of the line: `x2` before `vs` is the actor's, after it the opponent's)
become `actor_simultaneous_actions` / `opponent_simultaneous_actions`, and the draft names
each side's malus with the odds before it. Real sample campaign, saved and reopened."""

from __future__ import annotations

import pytest

from gmscreen.campaign.model import Declaration
from gmscreen.play.quickroll import parse
from gmscreen.rules import odds, resolve

# The sample: Thibault (Baratin level +4) declared two actions, Sibylle one; Maître Gorlois
# (Baratin level +5) none.
THIBAULT, GORLOIS = 4, 5


@pytest.fixture
def campaign(sessions):
    """The Arpèges sample on disk, Gorlois declaring three actions, saved and opened again."""
    session = sessions.open("arpeges")
    with session.edit("Gorlois déclare") as b:
        b.insert(("encounter", "declared"), None, Declaration("gorlois", ["Marchander", "Surveiller", "Appeler"]))
    return sessions.reopen(session).campaign


@pytest.mark.parametrize("how, kind", [("", "opposed_one_roll"), (" 2j", "opposed_two_rolls")])
def test_declarations_feed_both_sides_of_an_opposition(campaign, how, kind):
    draft = parse(f"thibault baratin vs marchand baratin{how}", campaign)
    assert draft.kind == kind
    assert draft.request["actor_simultaneous_actions"] == 2
    assert draft.request["opponent_simultaneous_actions"] == 3
    assert "simultaneous_actions" not in draft.request
    assert draft.modifier_text == ("Thibault : 2 actions déclarées (−3 chacune), "
                                   "Maître Gorlois, marchand : 3 actions déclarées (−6 chacune)")
    base = draft.baseline
    assert base is not None and base["actor_skill_level"] == THIBAULT and base["opponent_skill_level"] == GORLOIS
    assert not any("simultaneous" in key for key in base)
    # The odds of the line are those of both levels lowered by their own malus (R12).
    lowered = dict(base, actor_skill_level=THIBAULT - 3, opponent_skill_level=GORLOIS - 6)
    assert odds(draft.odds_request) == odds(lowered)
    assert odds(draft.odds_request) != odds(base)


def test_typed_counts_override_each_sides_declaration(campaign):
    draft = parse("thibault baratin x1 vs marchand baratin x2", campaign)
    assert "actor_simultaneous_actions" not in draft.request
    assert draft.request["opponent_simultaneous_actions"] == 2
    assert draft.modifier_text == "Maître Gorlois, marchand : 2 actions (−3 chacune)"
    # Nothing declared and nothing typed: no malus, no baseline.
    plain = parse("sibylle baratin vs thibault baratin x1", campaign)
    assert not any("simultaneous" in key for key in plain.request) and plain.baseline is None


def test_forced_dice_resolve_with_both_maluses(campaign):
    draft = parse("thibault baratin vs marchand baratin = 6 4", campaign)
    out = resolve(draft.request)
    assert out["difficulty"] == (THIBAULT - 3) - (GORLOIS - 6) and out["margin"] == 4 and out["winner"] == "actor"


def test_confrontation_defender_takes_its_own_malus(campaign):
    """The parry level is the defender's own level with its penalties (spec: confrontation)."""
    draft = parse("thibault baratin -3 vs marchand baratin", campaign)
    assert draft.kind == "confrontation"
    assert draft.request["simultaneous_actions"] == 2
    assert draft.request["opponent_skill_level"] == GORLOIS - 6
    assert draft.baseline is not None and draft.baseline["opponent_skill_level"] == GORLOIS
    assert "simultaneous_actions" not in draft.baseline
    assert "Maître Gorlois, marchand : 3 actions déclarées (−6 chacune)" in draft.modifier_text


def test_simple_action_unchanged(campaign):
    draft = parse("thibault baratin -3", campaign)
    assert draft.request["simultaneous_actions"] == 2 and draft.modifier_text == "2 actions déclarées"


def test_in_english(campaign, english):
    draft = parse("thibault baratin vs marchand baratin", campaign)
    assert draft.modifier_text == ("Thibault: 2 actions declared (−3 each), "
                                   "Maître Gorlois, marchand: 3 actions declared (−6 each)")
