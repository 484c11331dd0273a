"""The one registry of game systems.

The five games shipped with gmscreen are listed here, by module path, so that naming a
system imports nothing until it is used. Other packages add theirs under the entry-point
group `gmscreen.systems` (each entry loads a `Plugin`), and a program can `register` one
at run time. Everything else asks this registry; nothing branches on a system id.

A package that fails to load (a module missing, an error or `SystemExit` at import, an entry
that is no `Plugin`) is skipped and remembered (`failures`): `gmscreen systems` lists it, and
an unknown system is said with it (`failure_note`), so a broken package never takes a
command or the screen down, nor goes unsaid.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmscreen.i18n import _

from .records import record

if TYPE_CHECKING:
    from ._base import System

ENTRY_POINT_GROUP = "gmscreen.systems"


@record(frozen=True)
class PluginFailure:
    """An entry point of `gmscreen.systems` that could not be loaded, and why."""

    name: str       # the entry point's name (usually the system's id)
    value: str      # what it names ("yze_plugin:PLUGIN")
    error: str      # the error, on one line ("No module named 'yze_rules'")

    @property
    def text(self) -> str:
        """'yze: the plugin failed to load: No module named 'yze_rules'' (the language spoken)."""
        return _("{name}: the plugin failed to load: {error}").format(name=self.name, error=self.error)


@record(frozen=True)
class Plugin:
    """One game system: its rules, the play side that the table and the screen read
    (a `gmscreen.play.game.GameTable`, or None for every default), and its sample campaign.
    `system` and `table` may be "module:attribute" paths, loaded on first use."""

    id: str
    system: "System | str"
    table: Any = None
    sample: Path | None = None
    # The game's own words: (gettext domain, folder holding <lang>/LC_MESSAGES/<domain>.mo),
    # looked up first for every word gmscreen shows for this game (gmscreen.i18n.games).
    catalogs: tuple[str, Path | str] | None = None


def _shipped(system_id: str) -> Plugin:
    return Plugin(system_id, f"gmscreen.rules.{system_id}:SYSTEM", f"gmscreen.play.games.{system_id}:TABLE")


# The games gmscreen ships, in the rules' README order: the order of every list of systems.
# The project's own tests run on these, whatever else is installed beside them.
SHIPPED: tuple[str, ...] = ("mir", "eclats", "magisphere", "tedeum", "arpeges")
_plugins: dict[str, Plugin] = {sid: _shipped(sid) for sid in SHIPPED}
_systems: dict[str, "System"] = {}
_failures: list[PluginFailure] = []
# The game whose sample a first run opens (DESIGN.md, "Command line").
FIRST_RUN = "mir"
_discovered = False


def load(path: str) -> Any:
    """The object a "module:attribute" path names."""
    module, _colon, attribute = path.partition(":")
    return getattr(import_module(module), attribute)


def _discover() -> None:
    """Read the entry points once, when a system not shipped is asked for or all are listed
    (in the order of their names, whatever the order of the folders they are in)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    from importlib.metadata import entry_points

    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        if entry.name in _plugins:
            continue
        try:
            plugin, rules = _load_entry(entry.value, entry.load)
        except (Exception, SystemExit) as exc:   # SystemExit too: a package's import must not end the program
            _failures.append(PluginFailure(entry.name, entry.value, _one_line(exc)))
            continue
        if plugin.id not in _plugins:
            _plugins[plugin.id] = plugin
            _words(plugin)
            if rules is not None:
                _systems[plugin.id] = rules


def _load_entry(value: str, load_entry: Any) -> tuple[Plugin, "System | None"]:
    """The `Plugin` an entry point names, with its rules loaded (a module they name that is
    missing shows here, not once a campaign of the game is open) and its play side's module
    found. Raises whatever loading raises."""
    plugin = load_entry()
    if not isinstance(plugin, Plugin):
        raise TypeError(_("{value} is not a gmscreen Plugin (a {type})").format(
            value=value, type=type(plugin).__name__))
    rules = load(plugin.system) if isinstance(plugin.system, str) else None
    if isinstance(plugin.table, str):
        from importlib.util import find_spec

        module = plugin.table.partition(":")[0]
        if find_spec(module) is None:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)
    return plugin, rules


def _one_line(exc: BaseException) -> str:
    """What went wrong, on one line: an import error as Python says it, an exit with its status."""
    if isinstance(exc, SystemExit):
        return _("it exited while loading (status {code})").format(code=exc.code)
    text = " ".join(str(exc).split())
    if isinstance(exc, ImportError):
        return text or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def failures() -> tuple[PluginFailure, ...]:
    """The packages of `gmscreen.systems` skipped because they failed to load."""
    _discover()
    return tuple(_failures)


def failure_note() -> str:
    """Said after "unknown system": ' (yze: the plugin failed to load: …)', '' when none failed."""
    found = failures()
    return " (" + "; ".join(f.text for f in found) + ")" if found else ""


def register(plugin: Plugin, *, replace: bool = False) -> None:
    """Add a system (a package's own, or a test's). An id already known stays unless `replace`."""
    if plugin.id in _plugins and not replace:
        raise ValueError(f"system {plugin.id!r} is already registered")
    _plugins[plugin.id] = plugin
    _systems.pop(plugin.id, None)
    _words(plugin)


def _words(plugin: Plugin) -> None:
    """The plugin's catalogs read from now on (or forgotten when it ships none)."""
    from gmscreen.i18n import game_catalogs

    if plugin.catalogs is not None:
        game_catalogs.add_game_catalog(plugin.id, plugin.catalogs[0], plugin.catalogs[1])
    else:
        game_catalogs.remove_game_catalog(plugin.id)


def unregister(system_id: str) -> None:
    """Forget a system registered at run time (tests clean up with it)."""
    _plugins.pop(system_id, None)
    from gmscreen.i18n import games

    games.remove_game_catalog(system_id)
    _systems.pop(system_id, None)


def system_ids() -> tuple[str, ...]:
    """Every known id: the shipped ones first, in the rules' order, then the others."""
    _discover()
    return tuple(_plugins)


def known(system_id: str) -> bool:
    if system_id not in _plugins:
        _discover()
    return system_id in _plugins


def plugin(system_id: str) -> Plugin:
    """The plugin of `system_id`; KeyError when no package provides it."""
    if not known(system_id):
        raise KeyError(system_id)
    return _plugins[system_id]


def system(system_id: str) -> "System":
    """The rules of `system_id`, imported on first use; KeyError when unknown."""
    found = _systems.get(system_id)
    if found is None:
        rules = plugin(system_id).system
        found = _systems[system_id] = load(rules) if isinstance(rules, str) else rules
    return found
