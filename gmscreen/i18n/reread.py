"""A message another library wrote in English, read back into its template and values, then
said again from the catalog in the language spoken: argparse's (`gmscreen.cli.argwords`),
tomllib's and json's (`gmscreen.i18n.parsers`). The templates are the library's own printf
text (`%s`, `%(name)r`), so the English catalog gives back exactly what the library wrote.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Iterable

from . import _

FIELD = re.compile(r"%\((\w+)\)[sr]|%[srd]")


def fields(template: str) -> list[str]:
    """The names of a printf template's fields, in order ("0", "1"… for the bare ones)."""
    names, bare = [], 0
    for match in FIELD.finditer(template):
        if match.group(1):
            names.append(match.group(1))
        else:
            names.append(str(bare))
            bare += 1
    return names


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts, at = [], 0
    for index, match in enumerate(FIELD.finditer(template)):
        parts.append(re.escape(template[at:match.start()]))
        parts.append(f"(?P<f{index}>.+?)")
        at = match.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.DOTALL)


def read(template: str, text: str) -> dict[str, str] | None:
    """The values `template` was filled with to make `text` (as written), or None."""
    match = _pattern(template).fullmatch(text)
    if match is None:
        return None
    return {name: match.group(f"f{i}") for i, name in enumerate(fields(template))}


def fill(template: str, values: dict[str, str]) -> str:
    """`template` with each field replaced by the text read for it (already formatted)."""
    bare = iter(range(len(values) + 1))

    def value(match: re.Match[str]) -> str:
        name = match.group(1) if match.group(1) else str(next(bare))
        return values.get(name, match.group())

    return FIELD.sub(value, template)


def reword(text: str, templates: Iterable[str]) -> str | None:
    """`text` in the language spoken, when one of `templates` made it (the one with the most
    text of its own first: "Expected '=' after a key" before "Expected %s"); else None."""
    for template in sorted(templates, key=lambda t: -len(FIELD.sub("", t))):
        values = read(template, text)
        if values is not None:
            return fill(_(template), values)
    return None
