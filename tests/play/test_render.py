"""One result renderer (`gmscreen.rules.render`), its variants: the same rules `Description`
walked once per output (the command line, the roll log, the Markdown export), each variant
changing only its own pieces, and a game's words read from its `System`."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from gmscreen import cli
from gmscreen.campaign.export import MarkdownRenderer
from gmscreen.play.render import CliRenderer, CompactRenderer, DescriptionRenderer, describe, describe_result
from gmscreen.rules import get_system, odds, registry, resolve
from gmscreen.rules._base import Description, DiceGroup, Die

VECTORS = Path(__file__).resolve().parents[1] / "data" / "vectors"
ALEXIS = {"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2, "dice": [1, 5, 4, 6, 11, 12]}


def _described_vectors() -> list:
    """Every golden case of every registered system that resolves to a description."""
    params = []
    for system_id in registry.system_ids():
        path = VECTORS / f"{system_id}.toml"
        if not path.exists():
            continue
        with open(path, "rb") as handle:
            for n, case in enumerate(tomllib.load(handle)["case"]):
                params.append(pytest.param(case["request"], n, id=f"{system_id}: {case['name']}"))
    return params


def test_one_description_in_every_variant() -> None:
    system = get_system("mir")
    desc = system.describe(resolve(ALEXIS))
    assert DescriptionRenderer().render(desc) == "réussite  3 succès pour SD 2 · marge +1\ndés 1 5 4 6 11 12 = 3"
    assert CliRenderer(system, ALEXIS).lines(desc) == [
        "  dés : 1  5  4  6  [11 succès]  [12 succès critique = 2]  = 3 succès",
        "  3 succès pour SD 2 (Facile) · marge +1 → réussite",
    ]
    assert CompactRenderer().groups(desc.groups) == "1 5 4 6 11 12!"
    markdown = MarkdownRenderer()
    assert markdown.groups(desc.groups) == "1 5 4 6 **11** **12!**"          # the only group: not named
    assert (markdown.headline(desc), markdown.detail(desc)) == ("**réussite**", "3 succès pour SD 2 · marge +1")
    tricky = Description("*gagné*", "a|b", (DiceGroup("<aide>", (Die(3, 6),)),))
    assert (markdown.headline(tricky), markdown.detail(tricky)) == ("**\\*gagné\\***", "a\\|b")
    assert markdown.groups(tricky.groups) == "\\<aide\\> : 3"                        # typed words stay literal


def test_a_variant_overrides_only_its_pieces() -> None:
    class Brackets(DescriptionRenderer[str]):
        def die(self, die: Die) -> str:
            return f"<{die.face}>"

    desc = Description("l'acteur l'emporte", "", (DiceGroup("acteur", (Die(7, 12, "counted"), Die(3, 12)), 1),
                                                  DiceGroup("opposant", (Die(12, 12, "critical"),), 12)), good=True)
    assert Brackets().render(desc) == "l'acteur l'emporte\nacteur <7> <3> = 1  opposant <12>"
    assert DescriptionRenderer().render(desc) == "l'acteur l'emporte\nacteur 7 3 = 1  opposant 12"
    compact = CompactRenderer(ascii=True)
    rerolled = DiceGroup("dé", (Die(8, 10, "rerolled"), Die(7, 10, "exploded"), Die(1, 10, "fumble")))
    assert compact.groups([rerolled, DiceGroup("vide", ())]) == "8->7+1!"        # an empty group leaves no "|"
    assert MarkdownRenderer().groups([rerolled, desc.groups[0]]) == "dé : ~~8~~ 7↑ _1_ · acteur : **7** 3"


def test_a_games_words_come_from_its_system_not_its_id() -> None:
    mir = get_system("mir")
    own = dataclasses.replace(mir, id="d6", die_words={"counted": "touche"}, total_unit=" pts",
                              difficulty_word="cible")
    desc = mir.describe(resolve(ALEXIS))
    (dice, _) = CliRenderer(own, ALEXIS).lines(desc)
    assert dice == "  dés : 1  5  4  6  [11 touche]  [12 critique]  = 3 pts"
    request = {k: v for k, v in ALEXIS.items() if k != "dice"}
    kind = mir.kinds["simple"]
    assert cli._odds_lines(own, kind, request, odds(request))[0] == "MIR · test simple · chances exactes · cible 2 (Facile)"
    assert cli._odds_lines(mir, kind, request, odds(request))[0] == "MIR · test simple · chances exactes · SD 2 (Facile)"
    plain = dataclasses.replace(mir, die_words={}, total_unit="", difficulty_word="seuil")     # the defaults
    assert CliRenderer(plain, ALEXIS).lines(desc)[0] == "  dés : 1  5  4  6  [11 compté]  [12 critique]  = 3"


def test_records_that_cannot_be_described_still_read() -> None:
    mir = get_system("mir")
    damaged = {"system": "mir", "kind": "simple", "outcome": "failure"}   # no dice: describe fails
    assert describe(mir, damaged) is None
    assert describe_result(mir, damaged).headline == "échec"
    assert describe_result(None, {"outcome": "automatic_failure"}).headline == "échec automatique"   # said
    assert describe_result(None, {"outcome": "moon_phase"}).headline == "moon phase"      # unknown: the key
    assert describe_result(mir, {"winner": 3}).headline == "?"
    total = describe_result(None, {"expression": "2d6+1", "total": 8, "dice": [3, 4]})
    assert total.headline == "= 8" and CompactRenderer().groups(total.groups) == "3 4"


@pytest.mark.parametrize(("request_", "seed"), _described_vectors())
def test_every_variant_shows_every_die_in_order(request_: dict, seed: int) -> None:
    system = get_system(request_["system"])
    desc = describe(system, resolve(request_, seed=seed))
    assert desc is not None
    variants = (DescriptionRenderer(), CompactRenderer(), MarkdownRenderer())
    for group in desc.groups:
        faces = [str(d.face) for d in group.dice]
        for variant in variants:
            assert re.findall(r"-?\d+", variant.dice(group)) == faces, type(variant).__name__


def test_the_command_line_words_follow_the_language(english) -> None:
    """`gmscreen roll` in English: the group, each die's word, the unit, the detail and the
    outcome; the difficulty's label stays the game's ("Facile")."""
    mir = get_system("mir")
    desc = mir.describe(resolve(ALEXIS))
    assert CliRenderer(mir, ALEXIS).lines(desc) == [
        "  dice: 1  5  4  6  [11 success]  [12 critical success = 2]  = 3 successes",
        "  3 successes for SD 2 (Facile) · margin +1 → success"]
    plain = dataclasses.replace(mir, die_words={}, total_unit="")
    assert CliRenderer(plain, ALEXIS).lines(desc)[0] == "  dice: 1  5  4  6  [11 counted]  [12 critical]  = 3"
    assert describe_result(None, {"outcome": "automatic_failure"}).headline == "automatic failure"
    assert MarkdownRenderer().groups(desc.groups) == "1 5 4 6 **11** **12!**"      # the only dice: unnamed
    eclats = get_system("eclats")
    request = {"system": "eclats", "kind": "simple", "characteristic": 2, "skill": 2, "threshold": 7, "dice": [3, 5]}
    assert CliRenderer(eclats, request).lines(eclats.describe(resolve(request)))[-1] == \
        "  die 5 + skill 2 = 7 against a threshold of 7 (Complexe) · margin +0 → success"
