"""The one registry of game systems.

The five games shipped with gmscreen are listed here, by module path, so that naming a
system imports nothing until it is used. Other packages add theirs under the entry-point
group `gmscreen.systems` (each entry loads a `Plugin`), and a program can `register` one
at run time. Everything else asks this registry; nothing branches on a system id.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .records import record

if TYPE_CHECKING:
    from ._base import System

ENTRY_POINT_GROUP = "gmscreen.systems"


@record(frozen=True)
class Plugin:
    """One game system: its rules, the play side that the table and the screen read
    (a `gmscreen.play.game.GameTable`, or None for every default), and its sample campaign.
    `system` and `table` may be "module:attribute" paths, loaded on first use."""

    id: str
    system: "System | str"
    table: Any = None
    sample: Path | None = None


def _shipped(system_id: str) -> Plugin:
    return Plugin(system_id, f"gmscreen.rules.{system_id}:SYSTEM", f"gmscreen.play.games.{system_id}:TABLE")


# The rules' README order: the order of every list of systems.
_plugins: dict[str, Plugin] = {sid: _shipped(sid) for sid in ("mir", "eclats", "magisphere", "tedeum", "arpeges")}
_systems: dict[str, "System"] = {}
# The game whose sample a first run opens (DESIGN.md, "Command line").
FIRST_RUN = "mir"
_discovered = False


def load(path: str) -> Any:
    """The object a "module:attribute" path names."""
    module, _, attribute = path.partition(":")
    return getattr(import_module(module), attribute)


def _discover() -> None:
    """Read the entry points once, when a system not shipped is asked for or all are listed."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in _plugins:
            continue
        try:
            plugin = entry.load()
        except Exception:        # a broken third-party package must not take the screen down
            continue
        if isinstance(plugin, Plugin):
            _plugins.setdefault(plugin.id, plugin)


def register(plugin: Plugin, *, replace: bool = False) -> None:
    """Add a system (a package's own, or a test's). An id already known stays unless `replace`."""
    if plugin.id in _plugins and not replace:
        raise ValueError(f"system {plugin.id!r} is already registered")
    _plugins[plugin.id] = plugin
    _systems.pop(plugin.id, None)


def unregister(system_id: str) -> None:
    """Forget a system registered at run time (tests clean up with it)."""
    _plugins.pop(system_id, None)
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
