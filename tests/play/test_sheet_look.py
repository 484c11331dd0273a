"""How a game's sheets read (`SheetLook`): the defaults a new game gets, each shipped game's
looks as plain data, and a game registered at run time found through `table_for`."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import pytest

import gmscreen.rules
from gmscreen.campaign import load_campaign, sample_path
from gmscreen.play.game import GameTable
from gmscreen.play.games import table_for
from gmscreen.play.sheet_look import FAINT, PLAIN, STRONG, Glance, SheetLook, signed
from gmscreen.rules import registry

SYSTEMS = tuple(gmscreen.rules.SYSTEMS)


def test_the_base_is_the_plain_default() -> None:
    """A game that writes no sheet module: plain numbers, no glance, no resource for +/-."""
    system = gmscreen.rules.get_system(SYSTEMS[0])
    look = SheetLook()
    group = system.sheet[0]
    stat = group.stats[0]
    assert look.resource(system) is None
    assert look.glance(system, {}) == [] and look.glance_legend(system, {}) == []
    assert look.glance_header() == look.glance_header(ascii=True) == "Stats"
    assert (look.value_text(group, stat, -2), look.number_text(-2), look.difficulty_text(-2)) == ("\u22122",) * 3
    assert look.group_notes(system, group, {}) == [] and look.sheet_notes(system, {}) == []
    assert look.resource_text(0) == "0"


def test_glance_pieces_and_spacing() -> None:
    line = Glance()
    line.add("Imp ", FAINT)
    line.add("", STRONG)
    line.stat("Fo", "3", STRONG)
    assert line.pieces == [("Imp ", FAINT), ("", STRONG), (" ", PLAIN), ("Fo", FAINT), ("3", STRONG)]
    empty = Glance()
    empty.stat("", "")
    assert empty.pieces == [("", FAINT), ("", PLAIN)] and not empty.has_text
    assert (signed(0), signed(2), signed(-1)) == ("0", "+2", "\u22121")     # a typographic minus


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_each_game_reads_its_sample_as_plain_data(system_id: str) -> None:
    """Every shipped game's look gives str pieces with known tones, a header, a legend, and a
    resource that is one of the system's own stats."""
    system = gmscreen.rules.get_system(system_id)
    look = table_for(system_id).sheet
    assert isinstance(look, SheetLook)
    campaign = load_campaign(sample_path(system_id))
    for character in campaign.characters:
        sheet: Mapping[str, Any] = character.sheet
        for ascii in (False, True):
            pieces = look.glance(system, sheet, ascii=ascii)
            assert pieces and all(isinstance(text, str) and tone in (PLAIN, FAINT, STRONG) for text, tone in pieces)
            assert "".join(text for text, _ in pieces).strip()
            legend = look.glance_legend(system, sheet, ascii=ascii)
            assert legend and all(isinstance(short, str) and short and meaning for short, meaning in legend)
            assert look.glance_header(ascii=ascii)
    resource = look.resource(system)
    if resource is not None:
        group = system.group(resource.group)
        assert group is not None and resource.stat in group.stats
        assert resource.stat.default in resource.steps() and resource.text(resource.steps()[-1])


def test_a_game_registered_at_run_time_brings_its_own_look() -> None:
    """Hooks belong to the game's table, never to a lookup by id: a third party's look is used."""
    base = gmscreen.rules.get_system("eclats")
    group = base.sheet[0]

    class Look(SheetLook):
        resource_key = (group.key, group.stats[0].key, None)
        glance_title = "Dés"

        def resource_text(self, value: Any) -> str:
            return f"{value} dés"

        def difficulty_text(self, value: int) -> str:
            return f"{value}+"

    system = dataclasses.replace(base, id="sheetlook-test")
    registry.register(registry.Plugin("sheetlook-test", system=system,
                                      table=GameTable("sheetlook-test", sheet=Look())))
    try:
        look = table_for("sheetlook-test").sheet
        assert isinstance(look, Look) and look.glance_header() == "Dés"
        resource = look.resource(system)
        assert resource is not None and resource.label == group.stats[0].label
        assert resource.text(3) == "3 dés" and look.difficulty_text(5) == "5+"
    finally:
        registry.unregister("sheetlook-test")
    with pytest.raises(KeyError):
        table_for("sheetlook-test")


# ---------------------------------------------------------------- Te Deum's gendered levels


def test_providence_levels_in_the_bearers_gender() -> None:
    from gmscreen.rules.tedeum import providence_level

    assert [providence_level(d, "f") for d in (0, 4, 6)] == ["Brebis égarée", "Pauvre pécheresse", "Fille prodigue"]
    assert [providence_level(d, "m") for d in (0, 4, 6)] == ["Brebis égarée", "Pauvre pécheur", "Fils prodigue"]
    assert providence_level(6) == "Fils prodigue" and providence_level(8, "f") == ""
    look = table_for("tedeum").sheet
    system = gmscreen.rules.get_system("tedeum")
    group = system.group("resources")
    stat = next(s for s in group.stats if s.key == "providence")
    assert look.gendered_value_text(group, stat, 6, "f") == "D6 (Fille prodigue)"
    assert look.gendered_value_text(group, stat, 4, None) == look.value_text(group, stat, 4) == "D4 (Pauvre pécheur)"
    assert look.gendered_value_text(group, stat, 0, "f") == "aucun dé (Brebis égarée)"


def test_the_sample_gives_mlle_de_louvensac_her_gender() -> None:
    campaign = load_campaign(sample_path("tedeum"))
    assert campaign.character("louvensac").gender == "f"
    assert all(c.gender is None for c in campaign.characters if c.id != "louvensac")


@pytest.mark.parametrize("value", ['"x"', '"F"', "1"])
def test_a_gender_other_than_f_or_m_is_one_clear_error(tmp_path, value: str) -> None:
    from gmscreen.campaign.errors import CampaignError

    text = sample_path("tedeum").read_text(encoding="utf-8").replace('gender = "f"', f"gender = {value}")
    path = tmp_path / "tedeum.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CampaignError) as caught:
        load_campaign(path)
    message = str(caught.value)
    assert "characters[0].gender" in message and "'f', 'm'" in message and "Traceback" not in message
