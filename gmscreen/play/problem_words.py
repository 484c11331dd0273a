"""A campaign problem in the words the GM knows, for a notice on the screen.

`gmscreen validate` says where a problem is in the file: its path, its line, its key path
(`characters[0].conditions[1].rounds`). On the screen the GM needs whom and what: "Ada Quill ·
Inspired · rounds: expected an integer…". The file's path is left out (the campaign is the one
open), and each character, condition, fight entry and timer of the key path is said by its
name; a step the campaign has no name for (an index out of range, an unnamed key) stays as it
is. No Textual here.
"""

from __future__ import annotations

import re
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _

if TYPE_CHECKING:
    from gmscreen.campaign.errors import Problem
    from gmscreen.campaign.model import Campaign

_STEP = re.compile(r"\.?([A-Za-z_][\w-]*|\"(?:[^\"\\]|\\.)*\")|\[(\d+)\]")
# The arrays whose items the GM knows by a name: (array, the attribute holding the items, their name).
_NAMED = {"characters": "name", "conditions": "name", "entries": "name", "timers": "label", "tracks": "name"}


def _steps(path: str) -> list[str | int] | None:
    out: list[str | int] = []
    at = 0
    while at < len(path):
        m = _STEP.match(path, at)
        if m is None:
            return None
        out.append(int(m.group(2)) if m.group(2) is not None else m.group(1).strip('"'))
        at = m.end()
    return out


def _named(node: Any, key: str) -> Any:
    if isinstance(node, dict):
        return node.get(key)
    return getattr(node, key, None)


def where_words(path: str | tuple, campaign: Campaign | None) -> str:
    """`characters[0].conditions[1].rounds` (or its steps, `("characters", 0, …)`) -> "Ada
    Quill · Inspired · rounds"; the path as the file says it when the campaign has nothing of
    that name."""
    if isinstance(path, tuple):
        steps: list[str | int] | None = [s if isinstance(s, int) else str(s) for s in path]
        path = "".join(f"[{s}]" if isinstance(s, int) else (f".{s}" if i else s) for i, s in enumerate(path))
    else:
        steps = _steps(path) if path else None
    if not steps or campaign is None:
        return path
    said: list[str] = []           # names, and runs of plain keys ("sheet.skills")
    plain = False                  # the last said is a run of plain keys
    node: Any = campaign
    key: str | None = None
    for step in steps:
        if isinstance(step, int):
            if not isinstance(node, (list, tuple)) or not 0 <= step < len(node):
                return path
            node = node[step]
            label = _named(node, _NAMED[key]) if key in _NAMED else None
            if label:
                said.append(clean(str(label)))
                plain = False
            elif plain:
                said[-1] += f"[{step}]"
            else:
                said.append(f"{key}[{step}]")
                plain = True
            continue
        node = _named(node, step) if node is not None else None
        key = step
        if step in _NAMED or step == "encounter":
            continue
        if plain:
            said[-1] += "." + step
        else:
            said.append(step)
            plain = True
    return " · ".join(said) if said else path


def problem_words(problem: Problem, campaign: Campaign | None, file: str | PathLike[str] | None = None) -> str:
    """The problem as a notice says it: where in names, then what was expected. A problem of
    another file than the campaign's own `file` (its roll log, its journal) is said with that
    file's name (never its whole path)."""
    where = where_words(problem.path, campaign)
    other = bool(problem.file) and file is not None and Path(problem.file) != Path(file)
    if other:
        name = Path(problem.file).name + (f":{problem.line}" if problem.line else "")
        where = f"{name} {where}" if where else name
    if not where:
        return problem.message
    return _("{about}: {problem}").format(about=where, problem=problem.message)
