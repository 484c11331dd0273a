"""The engines are handed their game (issue 21): a game's parts (`tables.table_for`) are looked up
only at the edges that hold a campaign or a system id, and every engine of gmscreen/play works
with the `GameTable` (or the part) its caller gives it. Read from the source with `ast`, then
shown at work: a line read by a game handed to it is rolled, spent and timed by that game."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from gmscreen.campaign import load_campaign, sample_path

PLAY = Path(__file__).resolve().parents[2] / "gmscreen" / "play"
# The lookups of a game by its id: the door's function and its two edge forms.
LOOKUPS = frozenset({"table_for", "known_table", "campaign_table"})
# Where a lookup may be made, and why: (module under gmscreen/play, function or "*" for any).
EDGES = {
    ("tables.py", "*"): "the door itself: `table_for` and the edges' forms of it",
    ("table.py", "__init__"): "the `Table` finds the campaign's game once and hands it to every engine it drives",
    ("player_view.py", "public_timers"): "the player view model, an edge the engines are driven from",
    ("player_view.py", "public_roll"): "the player view model, an edge the engines are driven from",
    ("quickroll/__init__.py", "_game_of"): "the quick-roll surface a script or a test calls by a campaign",
    ("quickroll/__init__.py", "grammar_help"): "the quick-roll surface a screen calls by a system id",
    ("table_roll.py", "read_line"): "the headless tray's entry by a campaign (a script's, a test's, the CLI's)",
}
# The edge wrappers above that look a game up only when their caller holds none.
WRAPPERS = {("quickroll/__init__.py", "parse"), ("quickroll/__init__.py", "complete"),
            ("quickroll/__init__.py", "opponent_name"), ("quickroll/__init__.py", "grammar_help"),
            ("table_roll.py", "read_line"), ("table_roll.py", "roll_line")}
# What those wrappers are named by; an engine calls the engine functions they wrap instead.
EDGE_NAMES = frozenset({"parse", "complete", "opponent_name", "grammar_help"})


def _modules() -> dict[str, ast.Module]:
    return {p.relative_to(PLAY).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(PLAY.rglob("*.py")) if "__pycache__" not in p.parts}


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _lookups(tree: ast.Module) -> list[tuple[str, int]]:
    """(the function it is in, line) of each call of a lookup in `tree` ("<module>": at the top)."""
    found: list[tuple[str, int]] = []

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            if isinstance(child, ast.Call) and _called(child) in LOOKUPS:
                found.append((where, child.lineno))
            walk(child, inner)

    walk(tree, "<module>")
    return found


def test_no_engine_of_play_looks_its_game_up():
    calls = [(module, where, line) for module, tree in _modules().items() for where, line in _lookups(tree)]
    outside = [(module, where, line) for module, where, line in calls
               if (module, "*") not in EDGES and (module, where) not in EDGES]
    assert outside == [], "an engine looks its game up: hand it the game (or its part) instead"
    # The edges named above are where the lookups are: the list says what the code does.
    edges = {(m, w) if (m, "*") not in EDGES else (m, "*") for m, w, _line in calls}
    assert edges == set(EDGES), sorted(set(EDGES) ^ edges)


def test_the_edge_wrappers_look_up_only_when_no_game_is_given():
    trees = _modules()
    for module, name in sorted(WRAPPERS):
        function = next(n for n in ast.walk(trees[module]) if isinstance(n, ast.FunctionDef) and n.name == name)
        args = function.args
        named = {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults)}
        positional = args.posonlyargs + args.args
        named.update({a.arg: d for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults)})
        default = named.get("game")
        assert isinstance(default, ast.Constant) and default.value is None, (module, name)


def test_engines_call_the_engine_functions_not_the_edge_wrappers():
    """`from .quickroll import parse` would be a lookup in disguise: the engines import the
    grammar's own, which wants the game (the games' packages and the edges aside)."""
    wrong = []
    for module, tree in _modules().items():
        if module.startswith("games/") or any(module == m for m, _w in EDGES):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("quickroll") \
                    and node.module != "quickroll.grammar":
                wrong += [(module, a.name) for a in node.names if a.name in EDGE_NAMES]
            if isinstance(node, ast.Call) and _called(node) in ("read_line", "roll_line") \
                    and not any(k.arg == "game" for k in node.keywords):
                wrong.append((module, _called(node)))
    assert wrong == []


def test_a_line_is_read_rolled_and_spent_by_the_game_it_is_handed():
    """A game handed to the grammar (not the one the registry holds) reads the line; the draft
    carries it to the roll's choices and to what the roll spends."""
    from gmscreen.play.game import GameTable
    from gmscreen.play.quickroll.choices import RollFlow, spending
    from gmscreen.play.quickroll.grammar import parse
    from gmscreen.play.tables import table_for

    shipped = table_for("eclats")
    asked: list[str] = []

    class Watched(type(shipped.roll)):            # the shipped roll part, each call noted
        def start(self, flow):
            asked.append("start")
            super().start(flow)

        def spending(self, draft, result, campaign):
            asked.append("spending")
            return super().spending(draft, result, campaign)

    handed = GameTable("eclats", line=shipped.line, sheet=shipped.sheet, roll=Watched(),
                       fight=shipped.fight, effects=shipped.effects)
    campaign = load_campaign(sample_path("eclats"))
    draft = parse("ysaure emp calmer 9", campaign, game=handed)
    assert draft.game is handed and draft.game is not table_for("eclats")
    flow = RollFlow(draft, random.Random(3)).start()
    while flow.prompt is not None:
        flow.choose("enter")
    assert spending(draft, flow.result, campaign) == shipped.roll.spending(draft, flow.result, campaign)
    assert asked == ["start", "spending"]          # the handed game's part, not the registry's
