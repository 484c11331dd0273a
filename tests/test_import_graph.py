"""No import circle in gmscreen/, type-only imports counted.

The graph is read from the source with `ast`: every import, also those inside functions and
under `if TYPE_CHECKING:` (a circle a type checker needs is still a circle in the design).
`ACYCLIC` lists the packages that must have none: all of them. In play/, the edges find a
game's parts through `tables.table_for` (never through the `games` package) and hand them to
the engines (tests/play/test_engines_handed_their_game.py), and the parts
read the records they exchange with the engines from `play/exchange.py`, which imports no
engine."""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "gmscreen"
ACYCLIC = ("gmscreen",)
# The door the play engines find a game's parts through, and all it may reach in play/: the
# parts' base classes and the records they exchange with the engines, no engine (the grammar,
# the flow of a roll, the timers, the effects): the engines import the door, the games build
# on the engines, and no circle closes through it.
DOOR = "gmscreen.play.tables"
BEHIND_THE_DOOR = frozenset(f"gmscreen.play.{name}" for name in (
    "game", "roll_rules", "fight_rules", "effect_rules", "sheet_look", "quickroll.line_rules",
    "quickroll.grammar_base", "exchange", "forms", "messages", "quickroll.text"))
GAMES = "gmscreen.play.games"


def _name(path: Path) -> str:
    parts = ("gmscreen", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports. As in grimp: `from package import submodule`
    imports the submodule, and importing a module does not count its parent packages."""
    paths = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    modules = {_name(p): p for p in paths}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
                # `from package import submodule` imports the submodule; any other name, the module
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules:     # `from x import name`: x itself
                    target = target.rpartition(".")[0]
                if target and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


def _under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_circle_finder_finds_a_circle_and_only_it():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_import_circle_in_the_packages_untangled():
    found = circles(import_graph())
    for circle in found:                        # the "before" figure, for the lead's note
        print(f"circle of {len(circle)}: {', '.join(circle)}", file=sys.stderr)
    print(f"{len(found)} circles, {sum(map(len, found))} modules", file=sys.stderr)
    inside = [c for c in found if any(_under(m, ACYCLIC) for m in c)]
    assert inside == []


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def test_the_door_to_the_games_reaches_no_engine():
    reached = {m for m in _reached(import_graph(), DOOR) if _under(m, ("gmscreen.play",))}
    assert reached - BEHIND_THE_DOOR == set()


def test_only_the_games_import_the_games():
    """The shipped games are named by the rules' registry (`gmscreen.play.games.mir:TABLE`, a
    string) and found through the door; no module of ours imports them."""
    graph = import_graph()
    importers = sorted(m for m, targets in graph.items()
                       if not _under(m, (GAMES,)) and any(_under(t, (GAMES,)) for t in targets))
    assert importers == []
