"""The rules core: five French dice systems, resolved exactly as their rules say.

`resolve(request, seed=...)` rolls (or takes forced dice) and returns the outcome mapping;
`odds(request)` returns exact probabilities; `check(request)` refuses a request exactly as
`odds` would (same `RequestError`: field, code, parameters) without computing any probability,
so a line can be validated on every keystroke and its odds computed once, by whoever shows
them. Nothing here imports Textual or touches files.
"""

from __future__ import annotations

from typing import Any, Mapping

from ._base import (
    DiceGroup, Description, DiceSource, Die, Difficulty, FieldSpec, ForcedDice, Kind, RandomDice, Reader,
    RequestError, Stat, StatGroup, System, forced_mode, make_rng)

__all__ = [
    "RequestError",
    "resolve",
    "odds",
    "check",
    "SYSTEMS",
    "get_system",
    "System",
    "Kind",
    "Stat",
    "StatGroup",
    "Difficulty",
    "FieldSpec",
    "Reader",
    "Description",
    "DiceGroup",
    "Die",
    "success_chance",
    "registry",
    "Plugin",
    "register",
    # for a game's own resolve: dice drawn or forced with the standard errors, and its luck
    "DiceSource",
    "RandomDice",
    "ForcedDice",
    "probability",
]

from . import registry
from .luck import luck_function, lucks, probability
from .registry import Plugin, register


def get_system(system_id: str) -> System:
    """The description of one system; imports its module on first use."""
    try:
        return registry.system(system_id)
    except KeyError:
        raise RequestError("system", "unknown_system", choices=registry.system_ids(), value=system_id) from None


class _Systems(Mapping[str, System]):
    """Lazy mapping id -> System, in the registry's order (the rules' README first)."""

    def __getitem__(self, key: str) -> System:
        if not registry.known(key):
            raise KeyError(key)
        return registry.system(key)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and registry.known(key)

    def __iter__(self):
        return iter(registry.system_ids())

    def __len__(self) -> int:
        return len(registry.system_ids())


SYSTEMS: Mapping[str, System] = _Systems()


def _open(request: Mapping[str, Any]) -> tuple[System, Kind, Reader, bool]:
    reader = Reader(request)
    system_id = reader.raw("system")
    if system_id is None:
        raise RequestError("system", "required_system", choices=registry.system_ids())
    if not isinstance(system_id, str):
        raise RequestError("system", "expected_system", choices=registry.system_ids())
    system = get_system(system_id)
    kind_name = reader.raw("kind")
    if not isinstance(kind_name, str) or kind_name not in system.kinds:
        raise RequestError("kind", "unknown_kind", choices=tuple(system.kinds), system=system_id, value=kind_name)
    hidden = reader.bool("hidden", False)
    return system, system.kinds[kind_name], reader, hidden


def resolve(request: Mapping[str, Any], *, seed: int | None = None) -> dict:
    """Resolve one test. Forced dice are used when given; else dice are rolled from `seed`."""
    system, kind, reader, hidden = _open(request)
    result = kind.resolve(reader, make_rng(seed))
    reader.finish()
    out = {"system": system.id, "kind": kind.name, "hidden": hidden, **result}
    luck = luck_function(system.id, kind, request)
    if luck is not None:
        # The chance, before the roll, of a result at least as good for the roller (its kind's
        # order, the policy playing the choices); null for a roll without dice.
        out.update(lucks(luck, out))
    return out


def _open_unforced(request: Mapping[str, Any]) -> tuple[System, Kind, Reader, bool]:
    """`_open`, refusing forced dice: odds (and their check) are for dice not yet rolled."""
    system, kind, reader, hidden = _open(request)
    for name in kind.dice_fields:
        if reader.has(name):
            raise RequestError(reader.key(name), "odds_forced_dice")
    return system, kind, reader, hidden


def check(request: Mapping[str, Any]) -> None:
    """Refuse `request` exactly as `odds` would, computing no probability. A kind without its
    own `check` (one that does not split its reading out) has its odds computed instead."""
    _, kind, reader, _ = _open_unforced(request)
    if kind.check is None:
        kind.odds(reader)
    else:
        kind.check(reader)
    reader.finish()


def odds(request: Mapping[str, Any]) -> dict:
    """Exact probabilities of every outcome (or winner) of a test, without dice."""
    system, kind, reader, hidden = _open_unforced(request)
    result = kind.odds(reader)
    reader.finish()
    out = {"system": system.id, "kind": kind.name, "hidden": hidden, **result}
    out.setdefault("policy", None)
    out["chance"] = success_chance(out)
    return out


def success_chance(odds_result: Mapping[str, Any]) -> float:
    """The actor's chance of a good result: success or critical success, or winning."""
    if "outcome" in odds_result:
        probs = odds_result["outcome"]
        return probs.get("success", 0.0) + probs.get("critical_success", 0.0)
    return odds_result["winner"].get("actor", 0.0)
