"""Luck: how likely, before the roll, a result at least as good for the roller was.

Each kind orders its own outcomes (its `Kind.luck` says how, in a docstring) and computes
the chance of doing at least as well from its exact distributions. The function a kind
returns depends only on the request without its dice, so it is built once per such request
and kept (the tray resolves the same line again and again); the outcome then only looks
itself up. Forced dice and rolled dice get the same luck for the same outcome.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from fractions import Fraction
from typing import Any, Callable, Hashable, Mapping

from ._base import Kind, Reader

LuckOf = Callable[[Mapping[str, Any]], float]

_CACHE_SIZE = 256
_cache: "OrderedDict[Hashable, LuckOf]" = OrderedDict()
_lock = threading.Lock()
_SMALLEST = sys.float_info.min * sys.float_info.epsilon     # the least positive float


def probability(value: Fraction | int, denominator: int = 1) -> float:
    """An exact chance as a float; a positive chance never rounds to 0 (a 1000-face chain)."""
    exact = Fraction(value, denominator)
    out = float(exact)
    if out == 0.0 and exact > 0:
        return _SMALLEST
    return min(out, 1.0)


def _frozen(value: Any) -> Hashable:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    hash(value)
    return (type(value).__name__, value)      # 1 and True are different requests


def luck_function(system_id: str, kind: Kind, request: Mapping[str, Any]) -> LuckOf | None:
    """The function giving an outcome of `request` its luck (None: the kind has none),
    built once per request without its dice."""
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
    if key is not None:
        with _lock:
            _cache[key] = made
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return made


def at_least(ways: Mapping[Any, int], key: Any) -> int:
    """Ways to a key at least `key`, from ways by key (keys compare as the kind orders them)."""
    return sum(w for k, w in ways.items() if k >= key)
