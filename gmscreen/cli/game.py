"""`gmscreen game new ID [--dir DIR]`: a ready package skeleton for a new game.

It writes what `gmscreen/docs/writing-a-game.md` describes, filled in for ID: a pyproject with
the `gmscreen.systems` entry point, rules with one kind and exact odds, the five table parts
with their defaults, catalogs for fr and en (.po and compiled .mo), a sample campaign, golden
vectors, and tests that pass at once. The templates are `gmscreen/skeleton/`.
"""

from __future__ import annotations

import keyword
import sys
from importlib.resources import files
from pathlib import Path
from string import Template

from gmscreen.i18n import _

from .argwords import Worded, reworded

PROG = "gmscreen game"


class _Usage(Exception):
    pass


class _Parser(Worded):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _Usage(f"{self.prog}: {reworded(message)}")


def _layout(ident: str) -> dict[str, str]:
    """Template (under gmscreen/skeleton/) -> the path it is written to, in the new folder."""
    package = f"{ident}_game"
    return {
        "pyproject.toml.tmpl": "pyproject.toml",
        "package/__init__.py.tmpl": f"{package}/__init__.py",
        "package/rules.py.tmpl": f"{package}/rules.py",
        "package/table.py.tmpl": f"{package}/table.py",
        "package/sample.toml.tmpl": f"{package}/sample.toml",
        "package/vectors.toml.tmpl": f"{package}/vectors.toml",
        "package/fr.po.tmpl": f"{package}/locale/fr/LC_MESSAGES/{ident}.po",
        "package/en.po.tmpl": f"{package}/locale/en/LC_MESSAGES/{ident}.po",
        "tests/test_rules.py.tmpl": "tests/test_rules.py",
    }


def write_skeleton(ident: str, folder: Path) -> list[Path]:
    """The skeleton of game `ident` written in `folder` (which must not exist); the files written."""
    from gmscreen.i18n.msgfmt import compile_po

    skeleton = files("gmscreen") / "skeleton"
    values = {"id": ident, "game": ident.replace("_", " ").title()}
    folder.mkdir(parents=True)
    written = []
    for template, target in _layout(ident).items():
        path = folder / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template((skeleton / template).read_text(encoding="utf-8")).substitute(values),
                        encoding="utf-8")
        written.append(path)
        if path.suffix == ".po":
            lang = path.parent.parent.name
            compile_po(path, path.with_suffix(".mo"), lang, ident)
            written.append(path.with_suffix(".mo"))
    return written


def _bad_id(ident: str) -> bool:
    return not ident.isidentifier() or keyword.iskeyword(ident) or not ident.isascii() or ident != ident.lower()


def cmd_game(argv: list[str]) -> int:
    parser = _Parser(prog=PROG, description=_("Write a ready package skeleton for a new game."))
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    new = sub.add_parser("new", prog=f"{PROG} new", help=_("a package skeleton for game ID"))
    new.add_argument("id", metavar="ID", help=_("the game's id: lowercase letters, digits and _"))
    new.add_argument("--dir", metavar="DIR", help=_("the folder to write (default: ./ID-game)"))
    try:
        ns = parser.parse_args(argv)
    except _Usage as error:
        print(error, file=sys.stderr)
        return 2
    if _bad_id(ns.id):
        print(_("{prog}: {id!r} is not a game id: expected lowercase letters, digits and _, "
                "not starting with a digit").format(prog=f"{PROG} new", id=ns.id), file=sys.stderr)
        return 2
    folder = Path(ns.dir) if ns.dir else Path(f"{ns.id}-game")
    if folder.exists():
        print(_("{prog}: {folder} already exists: expected a new folder").format(
            prog=f"{PROG} new", folder=folder), file=sys.stderr)
        return 2
    write_skeleton(ns.id, folder)
    print(_("{folder}: the {id} game written; install it with pip install -e {folder}").format(
        folder=folder, id=ns.id))
    return 0
