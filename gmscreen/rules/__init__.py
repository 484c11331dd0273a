"""The rules core: five French dice systems, resolved exactly as their rules say.

`resolve(request, seed=...)` rolls (or takes forced dice) and returns the outcome mapping;
`odds(request)` returns exact probabilities. Nothing here imports Textual or touches files.
"""

from __future__ import annotations

from typing import Any, Mapping

from ._base import (
    Difficulty,
    FieldSpec,
    Kind,
    Reader,
    RequestError,
    Stat,
    StatGroup,
    System,
    forced_mode,
    make_rng,
)

__all__ = [
    "RequestError",
    "resolve",
    "odds",
    "SYSTEMS",
    "get_system",
    "System",
    "Kind",
    "Stat",
    "StatGroup",
    "Difficulty",
    "FieldSpec",
    "success_chance",
]

_SYSTEM_IDS = ("mir", "eclats", "magisphere", "tedeum", "arpeges")
_loaded: dict[str, System] = {}


def get_system(system_id: str) -> System:
    """The description of one system; imports its module on first use."""
    if system_id not in _SYSTEM_IDS:
        raise RequestError("system", f"expected one of {', '.join(_SYSTEM_IDS)}, got {system_id!r}")
    if system_id not in _loaded:
        from importlib import import_module

        _loaded[system_id] = import_module(f"{__name__}.{system_id}").SYSTEM
    return _loaded[system_id]


class _Systems(Mapping[str, System]):
    """Lazy mapping id -> System, in the order of the rules' README."""

    def __getitem__(self, key: str) -> System:
        if key not in _SYSTEM_IDS:
            raise KeyError(key)
        return get_system(key)

    def __iter__(self):
        return iter(_SYSTEM_IDS)

    def __len__(self) -> int:
        return len(_SYSTEM_IDS)


SYSTEMS: Mapping[str, System] = _Systems()


def _open(request: Mapping[str, Any]) -> tuple[System, Kind, Reader, bool]:
    reader = Reader(request)
    system_id = reader.raw("system")
    if system_id is None:
        raise RequestError("system", f"required: one of {', '.join(_SYSTEM_IDS)}")
    if not isinstance(system_id, str):
        raise RequestError("system", f"expected a string, one of {', '.join(_SYSTEM_IDS)}")
    system = get_system(system_id)
    kind_name = reader.raw("kind")
    if not isinstance(kind_name, str) or kind_name not in system.kinds:
        raise RequestError("kind", f"expected one of {', '.join(system.kinds)} for {system_id}, got {kind_name!r}")
    hidden = reader.bool("hidden", False)
    return system, system.kinds[kind_name], reader, hidden


def resolve(request: Mapping[str, Any], *, seed: int | None = None) -> dict:
    """Resolve one test. Forced dice are used when given; else dice are rolled from `seed`."""
    system, kind, reader, hidden = _open(request)
    result = kind.resolve(reader, make_rng(seed))
    reader.finish()
    return {"system": system.id, "kind": kind.name, "hidden": hidden, **result}


def odds(request: Mapping[str, Any]) -> dict:
    """Exact probabilities of every outcome (or winner) of a test, without dice."""
    system, kind, reader, hidden = _open(request)
    for name in kind.dice_fields:
        if reader.has(name):
            raise RequestError(reader.key(name), "odds are computed over every roll: leave the dice out")
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
