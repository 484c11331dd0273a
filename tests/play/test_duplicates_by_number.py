"""Duplicated NPCs ('Le garde de la porte 2', '… 3', as the roster's duplicate action names
them) named from the quick-roll line by their number, and completion that reads back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, sample_path
from gmscreen.play.quickroll import QuickRollError, complete, opponent_name, parse

COPY = """
[[characters]]
id = "{id}"
name = "{name}"
side = "npc"

[characters.sheet.voies]
heritage = 1
secret = {secret}
espoir = 1
peur = 2
dogme = 2
mensonge = 1

[characters.sheet.skills]
instinct = {instinct}
"""


@pytest.fixture
def guards(tmp_path: Path):
    """The MIR sample on disk with two copies of its guard (and a 12th, against prefix slips)."""
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    with path.open("a", encoding="utf-8") as f:
        for n, secret, instinct in ((2, 3, 2), (3, 4, 3), (12, 5, 4)):
            f.write(COPY.format(id=f"le-garde-de-la-porte-{n}", name=f"Le garde de la porte {n}",
                                secret=secret, instinct=instinct))
    return load_campaign(path)


@pytest.mark.parametrize("line, who, skill, voie, difficulty", [
    ("garde 2 instinct sd2", "Le garde de la porte 2", 2, 3, 2),
    ("garde2 instinct sd2", "Le garde de la porte 2", 2, 3, 2),
    ("GARDE 3 instinct 1", "Le garde de la porte 3", 3, 4, 1),
    ("garde 12 instinct 2", "Le garde de la porte 12", 4, 5, 2),
    ("le garde de la porte 2 instinct sd2", "Le garde de la porte 2", 2, 3, 2),
    ("le garde de la porte3 instinct 2", "Le garde de la porte 3", 3, 4, 2),
    ("le garde de la porte instinct sd2", "Le garde de la porte", 1, 2, 2),
    ("garde 1 instinct 2", "Le garde de la porte", 1, 2, 2),
])
def test_a_copy_is_named_by_its_number_never_as_a_difficulty(guards, line, who, skill, voie, difficulty):
    draft = parse(line, guards)
    assert draft.who == who
    assert (draft.request["skill"], draft.request["voie"], draft.request["difficulty"]) == (skill, voie, difficulty)


def test_the_number_is_read_on_both_sides_and_for_helpers(guards):
    draft = parse("callia infiltration vs garde 3 instinct", guards)
    assert [s.name for s in draft.sides] == ["Callia", "Le garde de la porte 3"]
    assert (draft.request["opponent_skill"], draft.request["opponent_voie"]) == (3, 4)
    assert opponent_name("callia infiltration contre garde2 instinct", guards) == "Le garde de la porte 2"
    helped = parse("callia infiltration sd2 aide garde 12", guards)
    assert "Le garde de la porte 12" in helped.modifier_text


@pytest.mark.parametrize("line", ["garde instinct sd2", "garde 4 instinct", "callia infiltration vs garde instinct"])
def test_the_base_name_alone_is_ambiguous_among_copies(guards, line):
    with pytest.raises(QuickRollError) as caught:
        parse(line, guards)
    err = caught.value
    assert err.code == "ambiguous"
    assert err.params["labels"] == ("Le garde de la porte", "Le garde de la porte 2", "Le garde de la porte 3",
                                    "Le garde de la porte 12")
    assert line[err.position:err.end] == "garde"
    assert "Le garde de la porte 3" in err.message


def test_a_single_character_keeps_its_number_as_a_difficulty(guards):
    """Without copies nothing changes: `callia 3 …` is Callia at SD 3, and the sample's
    guard alone (copies removed) is still named by 'garde'."""
    assert parse("callia 3 infiltration", guards).request["difficulty"] == 3
    alone = load_campaign(sample_path("mir"))
    draft = parse("garde 2 instinct", alone)
    assert (draft.who, draft.request["difficulty"]) == ("Le garde de la porte", 2)


def test_completion_offers_each_copy_as_words_that_parse_back(guards):
    offered = complete("gar", 3, guards)
    copies = [c for c in offered.candidates if c.startswith("le garde de la porte")]
    assert copies == ["le garde de la porte", "le garde de la porte 2", "le garde de la porte 3",
                      "le garde de la porte 12"]
    for choice in copies:
        line, cursor = offered.apply("gar", choice)
        draft = parse(line + "instinct sd2", guards)
        assert draft.who == choice.replace("le garde", "Le garde")
        # and the next word completes that copy's skills
        assert "instinct" in complete(line + "ins", cursor + 3, guards).candidates
    assert complete("garde2", 6, guards).candidates == ("le garde de la porte 2",)
    after_vs = complete("callia infiltration vs garde3", 29, guards)
    line, _ = after_vs.apply("callia infiltration vs garde3", after_vs.candidates[0])
    assert parse(line + "instinct", guards).sides[1].name == "Le garde de la porte 3"
