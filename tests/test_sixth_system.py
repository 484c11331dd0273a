"""A sixth game, defined in this file alone and registered through the public registry, then
played everywhere the five shipped games are: rules and exact odds, the quick-roll line with
completion and its one choice, a fight with a condition ticking, the difficulty pane, a sheet,
`gmscreen line`. Nothing outside this file was touched to add it (README: "Adding a game
system").

The game: a pool of d6 (one per point of skill); each 5 or 6 is a success; the difficulty is
the number of successes needed. Before rolling, a character with Cran left may make an effort:
two more dice, one point of Cran spent.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from gmscreen.campaign import load_campaign
from gmscreen.i18n.typography import percent
from gmscreen.campaign.session import open_session
from gmscreen.play.encounter import next_turn
from gmscreen.play.game import GameTable
from gmscreen.play.quickroll import complete
from gmscreen.play.quickroll.choices import Option, Prompt
from gmscreen.play.quickroll.grammar import Choice, Spend, SystemGrammar, flat
from gmscreen.play.quickroll.grammar_kit import finish, flat_skills, free_skills, side_id, trait
from gmscreen.play.quickroll.line_rules import LineRules
from gmscreen.play.roll_rules import RollRules
from gmscreen.play.sheet_look import Glance, SheetLook
from gmscreen.play.table_roll import roll_line
from gmscreen.rules import (DiceGroup, Description, Die, Difficulty, FieldSpec, Kind, Plugin, Stat, StatGroup,
                            System, odds, register, registry, resolve)

from _cli_helpers import run

# ---------------------------------------------------------------- the rules


def _successes(dice: list[int]) -> int:
    return sum(face >= 5 for face in dice)


def _pool(reader: Any) -> tuple[int, int]:
    pool = reader.int("pool", 1, 12)
    return pool + (2 if reader.bool("effort", False) else 0), reader.int("difficulty", 1, 6)


def _resolve(reader: Any, rng: random.Random) -> dict:
    size, difficulty = _pool(reader)
    if reader.has("dice"):
        dice = reader.int_list("dice", 1, 6, min_len=size, max_len=size)
    else:
        dice = [rng.randint(1, 6) for _ in range(size)]
    hits = _successes(dice)
    return {"outcome": "success" if hits >= difficulty else "failure", "successes": hits,
            "effort": size > reader.int("pool", 1, 12), "dice": dice}


def _odds(reader: Any) -> dict:
    size, difficulty = _pool(reader)
    third = Fraction(1, 3)
    p = sum(comb(size, k) * third ** k * (1 - third) ** (size - k) for k in range(difficulty, size + 1))
    return {"outcome": {"success": float(p), "failure": float(1 - p)}}


def _describe(result: dict) -> Description:
    dice = tuple(Die(face, 6, "counted" if face >= 5 else "plain") for face in result["dice"])
    return Description(OUTCOMES[result["outcome"]], f"{result['successes']} succès",
                       (DiceGroup("dés", dice, result["successes"]),), result["outcome"] == "success")


OUTCOMES = {"success": "réussite", "failure": "échec"}
SIMPLE = Kind("simple", "test", _resolve, _odds, (
    FieldSpec("pool", "int", 1, 12, required=True, help="dice: the skill"),
    FieldSpec("difficulty", "int", 1, 6, required=True, help="successes needed"),
    FieldSpec("effort", "bool", default=False, help="two more dice for a point of Cran"),
    FieldSpec("dice", "int_list", 1, 6, help="the faces rolled")), ("dice",))
SYSTEM = System(
    id="d6pool", game="Pool de d6", dice="pool de d6, 5+ réussit", gm="MJ", kinds={"simple": SIMPLE},
    sheet=(StatGroup("skills", "Compétences", free=Stat("skill", "Compétence", 1, 8, default=1)),
           StatGroup("resources", "Ressources", (Stat("cran", "Cran", 0, 3),), required=False)),
    difficulties=(Difficulty("Facile", 1), Difficulty("Ardue", 2), Difficulty("Héroïque", 4)),
    difficulty_field="difficulty", outcome_words=OUTCOMES, describe=_describe, initiative="1d6")

# ---------------------------------------------------------------- the table


class PoolGrammar(SystemGrammar):
    """`NAME SKILL N`: the skill's dice against N successes."""

    def __init__(self, campaign: Any) -> None:
        super().__init__(campaign)
        self._known = free_skills(campaign)

    def traits(self, side: Any) -> list:
        return flat_skills(side, self._known)

    def number(self, ctx: Any, tokens: Any, i: int) -> int:
        if tokens[i].norm.isdigit():
            ctx.once("difficulty", int(tokens[i].norm), tokens[i], "la difficulté")
            return 1
        return 0

    def build(self, ctx: Any) -> Any:
        side = ctx.actor
        skill = trait(side, "skill")
        pool = max(1, int(skill[0].value[2])) if skill else 1
        difficulty = ctx.values.get("difficulty")
        cran = int(side.sheet("resources").get("cran", 0) or 0)
        choice = Choice("effort", {"cran": cran}) if cran and ctx.faces is None else None
        return finish(self, ctx, "simple", {"pool": pool, "difficulty": difficulty or 1}, who=side.name,
                      who_id=side_id(side), label=f"{side.name} · {pool}d6 · {difficulty or '?'}",
                      missing="" if difficulty else "difficulté manquante", choice=choice)

    def split_faces(self, ctx: Any, request: dict, kind: str) -> dict:
        return {"dice": flat(ctx)}


class PoolLine(LineRules):
    grammar_class = PoolGrammar
    completion_words = ("effort",)
    help_examples = (("ada lutte 2", "Ada, sa Lutte contre 2 succès"),)


class PoolRoll(RollRules):
    """The one choice: an effort, asked before the dice."""

    def start(self, flow: Any) -> None:
        cran = flow.draft.choice.data["cran"]
        flow.prompt = Prompt(f"{flow.draft.who} fait un effort ? Cran {cran} → {cran - 1}",
                             (Option("e", "effort", "effort"), Option("n", "sans", "none")), "n")

    def choose(self, flow: Any, action: str) -> None:
        if action == "effort":
            flow.request["effort"] = True
        flow.resolve_random()

    def spending(self, draft: Any, result: dict, campaign: Any) -> list:
        side = draft.sides[0]
        if not result.get("effort") or side.index is None:
            return []
        cran = int(side.sheet("resources").get("cran", 0))
        return [Spend(("characters", side.index, "sheet", "resources", "cran"), cran, cran - 1,
                      f"Cran −1 → {side.name}")]


class PoolSheet(SheetLook):
    """Cran first (the roster's +/- adjust it), then each skill."""

    resource_key = ("resources", "cran", None)
    glance_title = "Cran · Compétences"

    def glance(self, system: System, sheet: Any, *, ascii: bool = False) -> list:
        line = Glance()
        self.group_glance(line, system, sheet, "resources", lambda stat: stat.label[:2])
        for name, value in sorted(sheet.get("skills", {}).items()):
            line.stat(name.capitalize(), str(value))
        return line.pieces


TABLE = GameTable("d6pool", line=PoolLine(), roll=PoolRoll(), sheet=PoolSheet())

CAMPAIGN = """\
format = 1
name = "La tour"
system = "d6pool"
initiative = "1d6"

[[characters]]
id = "ada"
name = "Ada"
[characters.sheet.skills]
lutte = 3
ruse = 2
[characters.sheet.resources]
cran = 2

[[characters]]
id = "brune"
name = "Brune"
[[characters.conditions]]
name = "Sonnée"
rounds = 1
[characters.sheet.skills]
lutte = 1

[encounter]
round = 1
turn = 0
[[encounter.entries]]
id = "brune"
name = "Brune"
character = "brune"
initiative = 5
[[encounter.entries]]
id = "ada"
name = "Ada"
character = "ada"
initiative = 3
"""


@pytest.fixture(autouse=True)
def d6pool():
    register(Plugin("d6pool", SYSTEM, TABLE))
    yield
    registry.unregister("d6pool")


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "tour.toml"
    path.write_text(CAMPAIGN, encoding="utf-8")
    return path


# ---------------------------------------------------------------- played


def test_it_resolves_by_its_rules_and_its_odds_are_exact() -> None:
    out = resolve({"system": "d6pool", "kind": "simple", "pool": 3, "difficulty": 2, "dice": [5, 1, 6]})
    assert (out["outcome"], out["successes"]) == ("success", 2)
    for pool, difficulty, effort in ((3, 2, False), (2, 1, True), (4, 4, False)):
        size = pool + 2 * effort
        wins = sum(_successes(list(faces)) >= difficulty for faces in itertools.product(range(1, 7), repeat=size))
        exact = odds({"system": "d6pool", "kind": "simple", "pool": pool, "difficulty": difficulty,
                      "effort": effort})
        assert abs(exact["chance"] - wins / 6 ** size) < 1e-12


def test_the_quick_roll_line_reads_completes_and_asks_its_choice(campaign: Path) -> None:
    with open_session(campaign) as session:
        completion = complete("ada lu", 6, session.campaign)
        assert completion is not None and "lutte" in [c.lower() for c in completion.candidates]
        roll = roll_line(session, "ada lutte 2", keys=["e"], rng=random.Random(5))
        assert roll.record.request == {"system": "d6pool", "kind": "simple", "pool": 3, "difficulty": 2,
                                       "effort": True}
        assert len(roll.record.result["dice"]) == 5 and [o.key for _, o in roll.answers] == ["e"]
    assert load_campaign(campaign).characters[0].sheet["resources"]["cran"] == 1


def test_a_fight_ticks_its_conditions(campaign: Path) -> None:
    with open_session(campaign) as session:
        move = next_turn(session)
        assert move.moved and any("Sonnée" in notice for notice in move.notices)
        assert session.campaign.characters[1].conditions == []


def test_gmscreen_line_rolls_it_from_the_shell(capsys, campaign: Path) -> None:
    status, out, err = run(capsys, "line", str(campaign), "ada ruse 1", "--json", "--seed", "2")
    assert status == 0, err
    roll = json.loads(out)
    assert roll["request"]["system"] == "d6pool" and roll["request"]["pool"] == 2
    assert [a["key"] for a in roll["answers"]] == ["n"]         # the odds assume no effort
    status, out, _ = run(capsys, "line", str(campaign), "ada ruse 1", "--seed", "2")
    assert status == 0 and out.splitlines()[1] == "Pool de d6 · test" and "succès" in out


async def test_the_screen_shows_its_sheet_difficulties_and_rolls(campaign: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import DataTable

    from gmscreen.ui import GMScreenApp

    monkeypatch.setenv("GMSCREEN_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("GMSCREEN_DATA_DIR", str(tmp_path / "data"))
    app = GMScreenApp(campaign)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.session is not None and app.session.rolls_loaded and app.pane("difficulty") is not None:
                break
        roster = app.pane("roster").query_one(DataTable)
        row = " ".join(str(cell) for cell in roster.get_row_at(0))
        assert "Ada" in row and "Cr2" in row and "Lutte3" in row and "Ruse2" in row
        await pilot.press("slash", *"ada lutte ")
        await pilot.pause()
        rows = [str(option.prompt) for option in app.pane("difficulty").rows.options]
        heroic = next(row for row in rows if "Héroïque" in row)
        assert any("Ardue" in row for row in rows)
        exact = odds({"system": "d6pool", "kind": "simple", "pool": 3, "difficulty": 4})["chance"]
        assert exact == 0 and percent(0) in heroic                    # 3 dice never make 4 successes
        await pilot.press("ctrl+u")
        await pilot.press(*"ada lutte 2", "enter")
        await pilot.pause()
        footer = {binding.description for _k, binding, *_rest in app.screen.active_bindings.values()}
        assert {"effort", "sans"} <= footer      # the option's own words, from the game
        await pilot.press("e")                   # its own key: an effort
        for _ in range(20):
            await pilot.pause()
            if app.session.rolls:
                break
        assert app.session.rolls[-1].request["pool"] == 3 and app.session.rolls[-1].request["effort"] is True
        assert app.session.campaign.characters[0].sheet["resources"]["cran"] == 1
