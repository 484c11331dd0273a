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
    assert (look.value_text(group, stat, -2), look.number_text(-2), look.difficulty_text(-2)) == ("-2", "-2", "-2")
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
    assert (signed(0), signed(2), signed(-1)) == ("0", "+2", "-1")


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
