"""Golden vectors checked through `resolve`: what differs, case by case, in the game's words.

A vector file (TOML, format in `gmscreen/docs/vectors.md`) holds `[[case]]` entries (a request
with forced dice and the result keys it must give) and `[[invalid]]` entries (a request that
must be refused, naming a field). `gmscreen vectors FILE…` prints what `check_file` finds; the
project's own vector tests use the same checks. Imports nothing of ours but the rules and i18n.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from gmscreen.i18n import _, os_reason
from gmscreen.i18n.parsers import toml_error

from . import get_system, resolve
from ._base import RequestError


@dataclass(frozen=True)
class Difference:
    """One way a case did not come out as its file says."""

    case: str           # the case's name
    text: str           # what differs, in words


class VectorFileError(ValueError):
    """A file that is not a vector file (unreadable, not TOML, no case): said in one line."""


def same(actual: Any, expected: Any) -> bool:
    """Equal with the same JSON type: lists element by element, floats to 1e-12 (a bool is not an int)."""
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(same(a, e) for a, e in zip(actual, expected)))
    if isinstance(expected, float):
        return type(actual) is float and abs(actual - expected) <= 1e-12
    return type(actual) is type(expected) and actual == expected


def load(path: str | Path) -> dict[str, Any]:
    """The parsed vector file, or VectorFileError saying why it is not one."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise VectorFileError(_("{file}: cannot read it: {error}").format(file=path, error=os_reason(error))) from None
    except tomllib.TOMLDecodeError as error:
        raise VectorFileError(_("{file}: not TOML: {error}").format(file=path, error=toml_error(error))) from None
    cases, invalid = data.get("case", []), data.get("invalid", [])
    if not isinstance(cases, list) or not isinstance(invalid, list) or not (cases or invalid):
        raise VectorFileError(_("{file}: no [[case]] nor [[invalid]] entry").format(file=path))
    return data


def check_case(entry: Mapping[str, Any]) -> list[str]:
    """What differs in one `[[case]]`: the result's keys against `expect`, `null_fields`, and the
    forced dice echoed back under the request's field names."""
    request = entry.get("request")
    if not isinstance(request, dict):
        return [_("no [case.request] table")]
    try:
        result = resolve(request)
    except (RequestError, KeyError, ValueError) as error:
        return [_("refused: {error}").format(error=error)]
    out = []
    expected = {"system": request.get("system"), "kind": request.get("kind"),
                "hidden": request.get("hidden", False), **entry.get("expect", {})}
    for key, value in expected.items():
        if key not in result:
            out.append(_("{key} missing from the result").format(key=key))
        elif not same(result[key], value):
            out.append(_("{key}: got {got}, expected {expected}").format(key=key, got=repr(result[key]),
                                                                       expected=repr(value)))
    for key in entry.get("null_fields", []):
        if key not in result:
            out.append(_("{key} missing from the result").format(key=key))
        elif result[key] is not None:
            out.append(_("{key}: got {got}, expected null").format(key=key, got=repr(result[key])))
    kind = get_system(str(request["system"])).kinds.get(str(request["kind"]))
    for name in kind.dice_fields if kind is not None else ():
        if request.get(name) and not same(result.get(name), request[name]):
            out.append(_("{key}: got {got}, expected the dice given {expected}").format(
                key=name, got=repr(result.get(name)), expected=repr(request[name])))
    return out


def check_invalid(entry: Mapping[str, Any]) -> list[str]:
    """What differs in one `[[invalid]]`: it must be refused with a RequestError naming `field`."""
    field = str(entry.get("field", ""))
    try:
        resolve(entry.get("request", {}))
    except RequestError as error:
        if error.field != field or field not in str(error):
            return [_("refused naming {got}, expected {field}: {error}").format(
                got=repr(error.field), field=repr(field), error=error)]
        return []
    except (KeyError, ValueError) as error:
        return [_("refused naming {got}, expected {field}: {error}").format(got="—", field=repr(field), error=error)]
    return [_("resolved, expected a refusal naming {field}").format(field=repr(field))]


def check(data: Mapping[str, Any]) -> tuple[int, list[Difference]]:
    """How many entries were checked, and every difference found, in the file's order."""
    found: list[Difference] = []
    entries = [(e, check_case) for e in data.get("case", [])] + [(e, check_invalid) for e in data.get("invalid", [])]
    for entry, checker in entries:
        name = str(entry.get("name", "?"))
        found.extend(Difference(name, text) for text in checker(entry))
    return len(entries), found


def check_file(path: str | Path) -> tuple[int, list[Difference]]:
    """`check` on the file at `path` (VectorFileError when it is not a vector file)."""
    return check(load(path))
