"""Chances of success shared by the dice tray and the difficulty table.

Both ask for the odds of the test being typed on every keystroke (the table once per
row, one of which is the tray's own request), and most keystrokes do not change the
request. One memo keeps that to one computation per distinct request.

The memo is shared with a pricing thread (`price_soon`): a request whose odds take longer
than a frame is priced there, and the screen keeps its previous figure until it is ready.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Iterable, Mapping

from gmscreen.rules import RequestError, odds, success_chance

_SIZE = 512
_memo: OrderedDict[str, float | RequestError] = OrderedDict()
_lock = threading.Lock()       # the memo is read and filled by the screen and the pricing thread
computed = 0          # requests actually computed (tests check the memo works)


def _key(request: Mapping[str, Any]) -> str:
    return repr(sorted(request.items()))


def _compute(request: Mapping[str, Any]) -> float | RequestError:
    """The chance, or the refusal; pure (no shared state), so it runs in any thread."""
    try:
        return success_chance(odds(request))
    except RequestError as exc:
        return exc


def chance(request: Mapping[str, Any]) -> float:
    """Exact chance of success (or of the actor winning); RequestError when the request is bad.
    A refused request is remembered with its error, so it is not computed again either."""
    return _remembered(_key(request), lambda: _compute(request))


def _remembered(key: str, compute: Callable[[], float | RequestError]) -> float:
    global computed
    with _lock:
        value = _memo.get(key)              # a chance or a refusal, never None
        if value is not None:
            _memo.move_to_end(key)
    if value is None:
        value = compute()                   # outside the lock: a long one holds no one up
        with _lock:
            computed += 1
            _memo[key] = value
            while len(_memo) > _SIZE:
                _memo.popitem(last=False)
    if isinstance(value, RequestError):
        raise value.with_traceback(None)
    return value


def opponent_chance(request: Mapping[str, Any]) -> float:
    """The other side's chance, as its own prompt shows it: the opponent winning a contest, or
    a defender not hit (1 − the actor's success). Remembered in the same memo."""
    return _remembered("opponent " + _key(request), lambda: _opponent(request))


def _opponent(request: Mapping[str, Any]) -> float | RequestError:
    try:
        probs = odds(request)
    except RequestError as exc:
        return exc
    return probs["winner"]["opponent"] if "winner" in probs else 1.0 - success_chance(probs)


def known(request: Mapping[str, Any]) -> bool:
    """The odds of `request` are in the memo (asking costs nothing)."""
    key = _key(request)
    with _lock:
        return key in _memo


# ------------------------------------------------------------------ pricing off the screen's thread

_pricer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="odds")
_queued: Future | None = None


def _price_all(requests: list[Mapping[str, Any]]) -> None:
    for request in requests:
        try:
            chance(request)
        except RequestError:
            pass


def price_soon(requests: Iterable[Mapping[str, Any]], wait: float) -> Future | None:
    """Price `requests` in the pricing thread, waiting at most `wait` seconds: None when they
    are all in the memo by then, else the Future that completes when they are. A request
    still waiting its turn is dropped when a newer one comes (the GM typed on): only the
    last line typed is worth pricing."""
    global _queued
    wanted = [request for request in requests if not known(request)]
    if not wanted:
        return None
    if _queued is not None:
        _queued.cancel()                    # not started yet: never started (a running one ends)
    future = _queued = _pricer.submit(_price_all, wanted)
    try:
        future.result(timeout=wait)
    except TimeoutError:
        return future
    return None
