"""Chances of success shared by the dice tray and the difficulty table.

Both ask for the odds of the test being typed on every keystroke (the table once per
row, one of which is the tray's own request), and most keystrokes do not change the
request. One memo keeps that to one computation per distinct request.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Mapping

from gmscreen.rules import RequestError, odds, success_chance

_SIZE = 512
_memo: OrderedDict[str, float | RequestError] = OrderedDict()
computed = 0          # requests actually computed (tests check the memo works)


def _key(request: Mapping[str, Any]) -> str:
    return repr(sorted(request.items()))


def chance(request: Mapping[str, Any]) -> float:
    """Exact chance of success (or of the actor winning); RequestError when the request is bad.
    A refused request is remembered with its error, so it is not computed again either."""
    global computed
    key = _key(request)
    if key in _memo:
        _memo.move_to_end(key)
        value = _memo[key]
    else:
        computed += 1
        try:
            value = success_chance(odds(request))
        except RequestError as exc:
            value = exc
        _memo[key] = value
        if len(_memo) > _SIZE:
            _memo.popitem(last=False)
    if isinstance(value, RequestError):
        raise value.with_traceback(None)
    return value


def opponent_chance(request: Mapping[str, Any]) -> float:
    """The other side's chance, as its own prompt shows it: the opponent winning a contest, or
    a defender not hit (1 − the actor's success). Remembered in the same memo."""
    global computed
    key = "opponent " + _key(request)
    if key not in _memo:
        computed += 1
        try:
            probs = odds(request)
            _memo[key] = probs["winner"]["opponent"] if "winner" in probs else 1.0 - success_chance(probs)
        except RequestError as exc:
            _memo[key] = exc
        if len(_memo) > _SIZE:
            _memo.popitem(last=False)
    _memo.move_to_end(key)
    value = _memo[key]
    if isinstance(value, RequestError):
        raise value.with_traceback(None)
    return value
