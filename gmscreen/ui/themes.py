"""Themes from TOML files: the bundled ones, then the user's (a user theme wins a name clash).

One file is one Textual `Theme`: its fields at the top level and a `[variables]` table
of CSS variables. A file that is not a valid theme is reported and skipped; the others
still load.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Sequence

from textual.color import Color, ColorParseError
from textual.theme import Theme

from gmscreen.campaign import safeload
from gmscreen.i18n import _, os_reason

DEFAULT_THEME = "gmscreen-dark"
THEME_DEPTH = 2         # the file, then its [variables] table: nothing nests deeper
ANSI_THEME = "gmscreen-ansi"

# Variables the panes use; a theme may override any of them.
GM_VARIABLES = {
    "gm-good": "$success",
    "gm-bad": "$error",
    "gm-crit": "$accent",
    "gm-fumble": "$error-lighten-1",
    "gm-hidden": "$foreground-muted",
    "gm-current": "$accent",
}

_FIELDS = {f.name: f for f in dataclasses.fields(Theme)}
_COLOURS = ("primary", "secondary", "warning", "error", "success", "accent", "foreground", "background",
            "surface", "panel", "boost")


class ThemeFileError(ValueError):
    """A theme file that cannot be used; the message names the file and the key."""


def bundled_theme_dir() -> Path | None:
    """`gmscreen/themes` in an installed wheel, else `<repo>/themes` in a source checkout."""
    import gmscreen

    package = Path(gmscreen.__file__).resolve().parent
    for folder in (package / "themes", package.parent / "themes"):
        if folder.is_dir():
            return folder
    return None


def user_theme_dir() -> Path:
    from .config import config_dir

    return config_dir() / "themes"


def load_theme(path: Path) -> Theme:
    """One theme file -> Theme; ThemeFileError says what is wrong and where."""
    try:
        data = safeload.loads_toml(safeload.read_limited(path, safeload.MAX_SETTINGS_BYTES).decode("utf-8"),
                                   max_depth=THEME_DEPTH)
    except (OSError, UnicodeDecodeError) as exc:
        raise ThemeFileError(_("{file}: cannot read it: {problem}").format(
            file=path, problem=os_reason(exc))) from None
    except safeload.DeepValue as exc:
        raise ThemeFileError(_("{file}: {key}: {problem}; expected colours and a [variables] table").format(
            file=path, key=safeload.dotted(exc.path), problem=exc.message)) from None
    except safeload.LoadError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise ThemeFileError(_("{file}: {problem}").format(file=where, problem=exc.message)) from None
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise ThemeFileError(_("{file}: unknown keys {keys}; expected Theme fields ({fields})").format(
            file=path, keys=", ".join(unknown), fields=", ".join(_FIELDS)))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ThemeFileError(_("{file}: name: expected the theme's name, got {value}").format(
            file=path, value=repr(name)))
    if not isinstance(data.get("primary"), str):
        raise ThemeFileError(_("{file}: {key}: expected a colour, got {value}").format(
            file=path, key="primary", value=repr(data.get("primary"))))
    for key in _COLOURS:
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise ThemeFileError(_("{file}: {key}: expected a colour, got {value}").format(
                file=path, key=key, value=repr(value)))
        _check_colour(path, key, value)
    for key in ("dark", "ansi"):
        if key in data and not isinstance(data[key], bool):
            raise ThemeFileError(_("{file}: {key}: expected true or false, got {value}").format(
                file=path, key=key, value=repr(data[key])))
    for key in ("luminosity_spread", "text_alpha"):
        if key in data and (not isinstance(data[key], (int, float)) or isinstance(data[key], bool)
                            or not 0 <= data[key] <= 1):
            raise ThemeFileError(_("{file}: {key}: expected a number from 0 to 1, got {value}").format(
                file=path, key=key, value=repr(data[key])))
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeFileError(_("{file}: variables: expected a table of \"name\" = \"value\" strings").format(
            file=path))
    kwargs: dict[str, Any] = dict(data)
    kwargs["variables"] = dict(variables)
    return Theme(**kwargs)


def _check_colour(path: Path, key: str, value: str) -> None:
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeFileError(_("{file}: {key}: expected a colour (#rrggbb, a name, ansi_red...), got {value}")
                             .format(file=path, key=key, value=repr(value))) from None


def load_themes(folders: list[Path | None] | None = None) -> tuple[list[Theme], list[str]]:
    """Every theme of the bundled then the user folder, and one message per broken file."""
    if folders is None:
        folders = [bundled_theme_dir(), user_theme_dir()]
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    for folder in folders:
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme = load_theme(path)
            except ThemeFileError as exc:
                problems.append(_("theme skipped: {problem}").format(problem=exc))
                continue
            themes[theme.name] = theme
    return list(themes.values()), problems


def next_theme(current: str, ours: Sequence[str], others: Sequence[str] = ()) -> str:
    """`t`: the theme after `current` in the cycle: the shipped and user themes (`ours`, in the
    order loaded), then `others` (Textual's own) if given; from a theme outside the cycle, the first."""
    cycle = list(ours) + [name for name in others if name not in ours]
    if not cycle:
        return current
    if current not in cycle:
        return cycle[0]
    return cycle[(cycle.index(current) + 1) % len(cycle)]
