"""A game's five parts given as objects to `GameTable(...)`, the effects and their condition
presets among them (a package layout is one way, not the only one)."""

from __future__ import annotations

from pathlib import Path

from gmscreen.play import EffectRules, FightRules, GameTable, LineRules, RollRules, SheetLook
from gmscreen.play.effect_rules import Preset


class Blinding(EffectRules):
    accepted = "−N dé"


def test_every_part_is_taken_as_an_object() -> None:
    parts = {"line": LineRules(), "sheet": SheetLook(), "roll": RollRules(), "fight": FightRules(),
             "effects": Blinding(presets=[Preset("Ébloui", "−1 dé", 1)])}
    table = GameTable("yze", **parts)
    assert {name: getattr(table, name) for name in parts} == parts
    assert table.effects.presets == (Preset("Ébloui", "−1 dé", 1),)


def test_presets_are_read_from_a_toml_file_given_by_path(tmp_path: Path) -> None:
    path = tmp_path / "conditions.toml"
    path.write_text('[[conditions]]\nname = "Blessé"\neffect = "−2 dés"\n\n'
                    '[[conditions]]\nname = "Sonné"\nrounds = 2\n', encoding="utf-8")
    effects = EffectRules(presets=path)
    assert effects.presets == (Preset("Blessé", "−2 dés"), Preset("Sonné", "", 2))
    assert GameTable("yze", effects=effects).effects.presets[1].rounds == 2


def test_a_part_not_given_is_the_plain_default() -> None:
    table = GameTable("yze")
    assert type(table.effects) is EffectRules and table.effects.presets == ()
    assert type(table.fight) is FightRules


def test_the_shipped_games_still_find_their_presets_beside_their_effects() -> None:
    from gmscreen.play.games import table_for

    assert any(preset.name for preset in table_for("mir").effects.presets)
