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
    """Every golden case of every shipped system that resolves to a description."""
    params = []
    for system_id in registry.SHIPPED:
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


# ---------------------------------------------------------------- people, not roles (issue 12)

def _named(system_id: str, line: str, seed: int, want=lambda r: True):
    """The description of `line` rolled on the sample (choices at their defaults, the first seed
    from `seed` whose result `want` accepts), in the table's words."""
    import random

    from gmscreen.campaign.samples import sample_path
    from gmscreen.campaign.store import load_campaign
    from gmscreen.play.logline import name_description
    from gmscreen.play.quickroll import RollFlow, parse

    campaign = load_campaign(sample_path(system_id))
    draft = parse(line, campaign)
    for n in range(seed, seed + 300):
        flow = RollFlow(draft, random.Random(n)).start()
        while flow.prompt is not None:
            flow.choose("enter")
        if want(flow.result):
            break
    desc = get_system(system_id).describe(flow.result)
    return name_description(desc, flow.result, draft.who, line, campaign, game=draft.table), flow.result


ROLE_WORDS = re.compile(r"\b(acteur|opposant|actor|opponent)\b|l'acteur|l'opposant")


@pytest.mark.parametrize(("system_id", "line", "actor", "opponent", "winner_names"), [
    ("mir", "callia infiltration vs garde instinct", "Callia", "garde",
     {"actor": "Callia l'emporte", "opponent": "Le garde de la porte l'emporte"}),
    ("tedeum", "louvensac comédie vs gentilhomme perspicacité", "Louvensac", "gentilhomme",
     {"actor": "Mlle de Louvensac l'emporte", "opponent": "le gentilhomme huguenot l'emporte"}),
    ("magisphere", "granok force vs bob force", "Granok", "Bob",
     {"actor": "Granok l'emporte", "opponent": "le gros Bob l'emporte"}),
])
@pytest.mark.parametrize("side", ["actor", "opponent"])
def test_an_opposed_result_names_both_people(system_id, line, actor, opponent, winner_names, side) -> None:
    """The winner in full in the headline, each side's dice and detail by the name the GM typed,
    never "l'acteur" nor "opposant"."""
    desc, result = _named(system_id, line, 1, lambda r: r.get("winner") == side)
    assert desc.headline == winner_names[side]
    labels = [g.label for g in desc.groups]
    assert any(label.startswith(actor) for label in labels) and any(label.startswith(opponent) for label in labels)
    for text in (desc.headline, desc.detail, *labels):
        assert not ROLE_WORDS.search(text), text


def test_an_arpeges_opposition_names_the_winner_and_the_actors_dice() -> None:
    desc, _r = _named("arpeges", "thibault baratin vs marchand baratin", 1, lambda r: r["winner"] == "opponent")
    assert desc.headline == "Maître Gorlois, marchand l'emporte"
    desc, _r = _named("arpeges", "thibault baratin +3 vs marchand baratin", 1, lambda r: r["parry_rolled"])
    assert [g.label for g in desc.groups][:2] == ["dé de chance (Thibault)", "dé de malchance (Thibault)"]
    assert not any(ROLE_WORDS.search(t) for t in (desc.headline, desc.detail, *(g.label for g in desc.groups)))


def test_mir_help_dice_are_labelled_with_the_helpers_name() -> None:
    desc, result = _named("mir", "alexis force sd4 +1d aide loriane", 1)
    assert [g.label for g in desc.groups] == ["dés", "aide Loriane"]
    helper = desc.groups[1]
    assert [d.face for d in helper.dice] == result["helper_dice"][0]
    shown = DescriptionRenderer().render(desc)
    assert "aide Loriane " + " ".join(str(f) for f in result["helper_dice"][0]) in shown


def test_people_are_named_in_english_too(english) -> None:
    desc, _r = _named("mir", "callia infiltration vs garde instinct", 1, lambda r: r["winner"] == "actor")
    assert desc.headline == "Callia wins" and [g.label for g in desc.groups] == ["Callia", "garde"]
    desc, _r = _named("mir", "alexis force sd4 aide loriane", 1)
    assert [g.label for g in desc.groups] == ["dice", "help Loriane"]
    desc, _r = _named("tedeum", "louvensac comédie vs gentilhomme perspicacité", 1)
    assert not ROLE_WORDS.search(desc.detail) and desc.detail.startswith("Louvensac ")


def test_a_side_is_named_as_the_gm_typed_it() -> None:
    from gmscreen.play.logline import name_roles, short_name

    assert short_name("Mlle de Louvensac", "louvensac comédie") == "Louvensac"
    assert short_name("Le garde 2", "garde 2 instinct vs garde 3") == "garde 2"
    assert short_name("Callia", "6d12 sd2") == "Callia"                     # not typed: the full name
    assert name_roles("marge de l'acteur +3", "le garde", None) == "marge du garde +3"
    assert name_roles("dé de chance (acteur)", "Thibault", None) == "dé de chance (Thibault)"


def test_a_total_of_one_says_its_unit_in_the_singular(english) -> None:
    """MIR's unit after a group's total: "= 1 success", "= 3 successes" (it said "= 1 successes");
    a game without a singular keeps its one unit."""
    mir = get_system("mir")
    one = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2, "dice": [1, 5, 8]}
    assert CliRenderer(mir, one).lines(mir.describe(resolve(one)))[0].endswith("= 1 success")
    same = dataclasses.replace(mir, total_unit_one="")
    assert CliRenderer(same, one).lines(mir.describe(resolve(one)))[0].endswith("= 1 successes")
    from gmscreen import i18n

    i18n.set_language("fr")
    assert CliRenderer(mir, one).lines(mir.describe(resolve(one)))[0].endswith("= 1 succès")
