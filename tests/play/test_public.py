"""What the players may see of a roll (gmscreen.play.public): a hidden difficulty (MIR R8,
Éclats R10) hides only the difficulty; a GM-only roll hides everything; a revealed roll is public.
Real lines of each sample, parsed as the tray does and resolved by the rules."""

from __future__ import annotations

import pytest

from gmscreen.campaign.model import RollRecord
from gmscreen.play.public import (Visibility, entry_sight, is_difficulty_field, public_notice, public_order,
                                  public_result, secret_fields, visibility)
from gmscreen.play.quickroll import parse
from gmscreen.rules import SYSTEMS, get_system, resolve

# A test of each sample with its difficulty hidden, and the difficulty's value as typed.
LINES = {
    "mir": ("loriane eloquence sd3 caché", 3),
    "eclats": ("ysaure emp calmer 9 caché", 9),
    "tedeum": ("louvensac charme 13 caché", 13),
    "arpeges": ("marchand baratin -3 caché", -3),
    "magisphere": ("shady négociation 25 caché", 25),
}


def _record(sessions, system: str, line: str, *, gm_only: bool = False, revealed: bool = False) -> RollRecord:
    session = sessions.open(system)
    draft = parse(line, session.campaign)
    result = resolve(draft.request, seed=7)
    return RollRecord(1, "2025-03-01T21:04:11+01:00", 1, draft.who, line, dict(draft.request), result,
                      gm_only=gm_only, revealed=revealed)


@pytest.mark.parametrize("system", sorted(LINES))
def test_a_hidden_difficulty_hides_the_difficulty_and_only_it(sessions, system) -> None:
    line, value = LINES[system]
    rec = _record(sessions, system, line)
    assert visibility(rec) is Visibility.DIFFICULTY_HIDDEN
    seen = public_result(rec)
    field = get_system(system).difficulty_field
    assert rec.request[field] == value and field not in seen
    assert not [k for k in seen if "margin" in k or "difficulty" in k or "threshold" in k or k == "target"]
    # the dice and the outcome stay the players'
    assert seen["outcome"] == rec.result["outcome"]
    dice_fields = get_system(system).kinds[rec.result["kind"]].dice_fields
    assert any(seen.get(f) == rec.result.get(f) and rec.result.get(f) for f in dice_fields)
    # nothing else is taken away: every field left out is a difficulty field
    gone = set(rec.request) | set(rec.result)
    assert {k for k in gone - set(seen)} == {k for k in gone if is_difficulty_field(k, secret_fields(system))}


def test_an_eclats_player_sees_the_die_they_decide_on(sessions) -> None:
    rec = _record(sessions, "eclats", "ysaure emp calmer 9 caché")
    seen = public_result(rec)
    assert seen["dice"] == rec.result["dice"] and seen["kept_die"] == rec.result["kept_die"]
    assert seen["result"] == rec.result["result"] and "threshold" not in seen and "margin" not in seen


@pytest.mark.parametrize("system", sorted(LINES))
def test_a_gm_only_roll_hides_everything(sessions, system) -> None:
    line, _value = LINES[system]
    rec = _record(sessions, system, "mj " + line.replace(" caché", ""), gm_only=True)
    assert visibility(rec) is Visibility.SECRET
    assert public_result(rec) == {}
    hidden_too = _record(sessions, system, "mj " + line, gm_only=True)      # both: still everything hidden
    assert visibility(hidden_too) is Visibility.SECRET and public_result(hidden_too) == {}


@pytest.mark.parametrize("gm_only,hidden", [(True, False), (False, True), (True, True)])
def test_a_revealed_roll_is_public(sessions, gm_only, hidden) -> None:
    line = "loriane eloquence sd3" + (" caché" if hidden else "")
    rec = _record(sessions, "mir", line, gm_only=gm_only, revealed=True)
    assert visibility(rec) is Visibility.PUBLIC
    assert public_result(rec) == {**rec.request, **rec.result}


def test_an_open_roll_is_public_whole(sessions) -> None:
    rec = _record(sessions, "mir", "loriane eloquence sd3")
    assert visibility(rec) is Visibility.PUBLIC
    seen = public_result(rec)
    assert seen["difficulty"] == 3 and seen["margin"] == rec.result["margin"]


def test_a_system_unknown_here_has_its_fields_judged_by_their_names() -> None:
    assert secret_fields("no-such-game") is None
    for name in ("difficulty", "threshold", "target", "margin", "actor_margin", "final_difficulty",
                 "defender_final_difficulty", "no_roll_needed", "malus", "luck", "dc"):
        assert is_difficulty_field(name), name
    for name in ("dice", "outcome", "successes", "kept_die", "result", "actor_dice", "score", "total", "pool"):
        assert not is_difficulty_field(name), name


def _vector_fields(system: str) -> set[str]:
    """Every request and result field of the system's golden vectors, as its rules resolve them."""
    import tomllib
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data" / "vectors" / f"{system}.toml"
    fields: set[str] = set()
    for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
        try:
            fields |= set(case["request"]) | set(resolve(case["request"]))
        except Exception:           # (a refused request: its fields are in others)
            continue
    return fields


@pytest.mark.parametrize("system", sorted(LINES))
def test_each_game_declares_every_field_that_tells_its_difficulty(system) -> None:
    """What a hidden difficulty keeps from the players is each game's own list
    (`System.difficulty_fields`); a field its rules return that is named as a difficulty, a
    threshold, a target, a margin or a malus and is not on it would reach the players."""
    declared = secret_fields(system)
    assert declared is not None and "luck" in declared and get_system(system).difficulty_field in declared
    named = {name for name in _vector_fields(system) if is_difficulty_field(name)}
    assert named - declared == set()


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_hidden_character_has_no_place_players_see_in_the_turn_order(sessions, system) -> None:
    """Each character of the sample's fight hidden in turn (through a real change, as `H` does):
    the one decision (`entry_sight`) says secret for their place only; the player view's order
    leaves it out, says no current actor when it is theirs, and a notice naming them is masked."""
    session = sessions.open(system)
    campaign = session.campaign
    fighters = [e for e in campaign.encounter.entries if e.character]
    assert fighters, "the sample's fight has no character with a sheet"
    for entry in fighters:
        index = next(i for i, ch in enumerate(campaign.characters) if ch.id == entry.character)
        name = campaign.characters[index].name
        with session.edit("caché") as b:
            b.set(("characters", index, "hidden"), True)
        assert [e.id for e in campaign.encounter.entries if entry_sight(campaign, e).secret] == [entry.id]
        order, current = public_order(campaign)
        assert entry.name not in [e.name for e in order] and current != entry.name
        assert len(order) == len(campaign.encounter.entries) - 1
        said = f"{name} : Ébloui prend fin"
        assert public_notice(said, campaign) != said and name not in public_notice(said, campaign)
        assert public_notice("round 3", campaign) == "round 3"          # naming nobody hidden: as it is
        session.undo()
        assert not any(entry_sight(campaign, e).secret for e in campaign.encounter.entries)
