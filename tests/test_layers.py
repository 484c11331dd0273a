"""The shape of the code, checked: imports point down the layers, and only a game's own modules
(and the one registry) name it. A sixth game then needs no edit anywhere else."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gmscreen.rules import registry

PACKAGE = Path(__file__).resolve().parents[1] / "gmscreen"
SHIPPED = ("mir", "eclats", "magisphere", "tedeum", "arpeges")

# What each layer may import of ours (DESIGN.md, "Layers").
# `i18n` (the catalogs) lies under every layer and imports nothing of ours.
ALLOWED = {
    "i18n": ("gmscreen.i18n",),
    "rules": ("gmscreen.i18n", "gmscreen.rules"),
    "campaign": ("gmscreen.i18n", "gmscreen.rules", "gmscreen.campaign"),
    "play": ("gmscreen.i18n", "gmscreen.rules", "gmscreen.campaign", "gmscreen.play"),
}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _layer(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _dotted(path: Path) -> str:
    parts = ("gmscreen", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[str]:
    """Every module `path` imports, relative imports made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _dotted(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from gmscreen import rules` imports gmscreen.rules
            out += [f"{base}.{alias.name}" for alias in node.names] if base == "gmscreen" else [base]
    return out


def _owner(path: Path) -> str | None:
    """The game a module belongs to, if it is one of a game's own modules."""
    rel = path.relative_to(PACKAGE).parts
    if rel[0] == "rules" and rel[-1].removesuffix(".py") in SHIPPED:
        return rel[-1].removesuffix(".py")
    if rel[:2] == ("play", "games") and len(rel) > 3:
        return rel[2]
    return None


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    wrong = []
    for path in _modules():
        if _layer(path) != layer:
            continue
        for name in _imports(path):
            ours = name.split(".")[0] == "gmscreen" and name != "gmscreen"   # the root holds nothing
            if (ours and not name.startswith(ALLOWED[layer])) or name.split(".")[0] in ("textual", "rich"):
                wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert wrong == []


def test_no_code_outside_a_game_and_the_registry_names_a_game() -> None:
    """String constants equal to a shipped id (or paths built on one), anywhere else."""
    found = []
    for path in _modules():
        owner = _owner(path)
        if path == PACKAGE / "rules" / "registry.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                words = set(node.value.replace(".", " ").replace(":", " ").replace("/", " ").split())
                named = {sid for sid in SHIPPED if node.value == sid or f"gmscreen.rules.{sid}" in node.value
                         or f"play.games.{sid}" in node.value or (sid in words and "=" in node.value)}
                named.discard(owner)
                if named:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} names {sorted(named)}")
    assert found == []


def test_the_registry_lists_the_shipped_games_in_the_rules_order() -> None:
    assert registry.system_ids()[: len(SHIPPED)] == SHIPPED
