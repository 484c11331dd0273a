"""Luck: how likely, before the roll, a result at least as good for the roller was.

Each kind orders its own outcomes ("at least as good for the roller", its `Kind.luck` says how,
in a docstring; gmscreen/docs/luck.md lists every order) and computes, exactly, the chance that
the whole roll, played as the table's policy plays the choices made during it (rerolls,
Impulsion, Providence, a parry), ends at least as well. Such a chance is a p-value: with fair
dice, a luck of q or less happens at most a fraction q of the time.

A kind's `luck` returns either one function (the actor's luck) or a `Luck` (the actor's and,
where the other side rolled dice too, the opponent's, by the reversed order: at most as good for
the actor). A function returns None for a result rolled with no die: a roll with no dice has no
luck. The functions depend only on the request without its dice, so they are built once per
such request and kept (the tray resolves the same line again and again); the outcome then only
looks itself up. Forced dice and rolled dice get the same luck for the same outcome.
"""

from __future__ import annotations

import sys
import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from fractions import Fraction
from typing import Any, Callable, Hashable, Mapping

from ._base import Kind, Reader
from .records import record

LuckOf = Callable[[Mapping[str, Any]], "float | None"]

_CACHE_SIZE = 256
_cache: "OrderedDict[Hashable, Luck]" = OrderedDict()
_lock = threading.Lock()
_SMALLEST = sys.float_info.min * sys.float_info.epsilon     # the least positive float


@record(frozen=True)
class Luck:
    """A kind's luck for one request: the actor's, and the opponent's where the opponent rolls
    dice too (None: the kind has no opponent with dice). Each gives None for a result without
    dice on that side."""

    actor: LuckOf
    opponent: LuckOf | None = None


def probability(value: Fraction | int, denominator: int | Fraction = 1) -> float:
    """An exact chance as a float; a positive chance never rounds to 0 (a 1000-face chain)."""
    exact = Fraction(value, denominator)
    out = float(exact)
    if out == 0.0 and exact > 0:
        return _SMALLEST
    return min(out, 1.0)


class Ladder:
    """Final results ranked by a key (tuples, compared as the kind orders them), with their exact
    weights out of `total`: the chance of a key at least as good, or at most as good."""

    def __init__(self, ways: Mapping[Any, int | Fraction], total: int | Fraction = 1) -> None:
        self.keys = sorted(ways)
        self.total = total
        below: list[int | Fraction] = [0] * (len(self.keys) + 1)
        for i, key in enumerate(self.keys):
            below[i + 1] = below[i] + ways[key]
        self.below = below                      # below[i]: weight of the i lowest keys

    def at_least(self, key: Any) -> float:
        return probability(self.below[-1] - self.below[bisect_left(self.keys, key)], self.total)

    def at_most(self, key: Any) -> float:
        return probability(self.below[bisect_right(self.keys, key)], self.total)


def _frozen(value: Any) -> Hashable:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    hash(value)
    return (type(value).__name__, value)      # 1 and True are different requests


def luck_function(system_id: str, kind: Kind, request: Mapping[str, Any]) -> Luck | None:
    """The functions giving an outcome of `request` its luck (None: the kind has none), built
    once per request without its dice."""
    if kind.luck is None:
        return None
    plain = {k: v for k, v in request.items() if k not in kind.dice_fields and k != "hidden"}
    try:
        key: Hashable = (system_id, kind.name, id(kind), _frozen(plain))    # a system registered again: anew
    except TypeError:
        key = None
    if key is not None:
        with _lock:
            found = _cache.get(key)
            if found is not None:
                _cache.move_to_end(key)
                return found
    made = kind.luck(Reader(plain))
    if not isinstance(made, Luck):
        made = Luck(made)
    if key is not None:
        with _lock:
            _cache[key] = made
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return made


def lucks(luck: Luck, outcome: Mapping[str, Any]) -> dict[str, float | None]:
    """The luck fields of an outcome: `luck` always (null without dice), and `opponent_luck` for
    a kind whose opponent rolls dice (null when the opponent rolled none)."""
    out: dict[str, float | None] = {"luck": luck.actor(outcome)}
    if luck.opponent is not None:
        out["opponent_luck"] = luck.opponent(outcome)
    return out


def at_least(ways: Mapping[Any, int], key: Any) -> int:
    """Ways to a key at least `key`, from ways by key (keys compare as the kind orders them)."""
    return sum(w for k, w in ways.items() if k >= key)
