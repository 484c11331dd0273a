"""Keys handled in the order typed, each where the one before it left the focus.

Textual hands a key to the focused widget's queue and reads the next one at once; the key's
binding (say `/`, which focuses the quick-roll line, or `e`, which opens a form) runs only
once the key has bubbled back up, so the keys of one burst (an SSH packet, a paste, fast
typing) all land on the widget the first one leaves: `/nn` turned two turns. The gate lets
one key (or paste) through at a time and holds the next ones until the screen has settled —
every queue of the screen drained, the focus and the screen unchanged over a round — so a
burst behaves exactly as the same keys typed slowly. Keys typed while a campaign opens wait
for it, so none is dropped during start-up.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from textual import events

# A settle gives up after this long: a gate stuck shut would lose every later key.
_SETTLE_LIMIT = 2.0
_ROUNDS = 40
_BUSY_ROUNDS = 6
_IDLE_SETTLE_DELAY = 0.02   # s after a key with none behind it: its frame is drawn first


class KeyGate:
    """Owned by the app: `admit` in `on_event`, `dispatched` after the key went on.

    The settling is lazy: a key typed alone costs nothing; only a key that arrives while the
    one before may still be moving the focus waits, for as long as that takes.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.held: deque[events.Event] = deque()
        self.open = False           # shut until the campaign is on screen with a focus
        self._unsettled = False     # a key went on: what it does may still be under way
        self._in_flight = False     # a held key let through, on its way back to the app
        self._released: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self._later: asyncio.TimerHandle | None = None
        self._reported: bool | None = None     # busy, as worker threads were last told (`quick_switch`)

    def gone(self) -> None:
        """The screen is gone: no worker waits for a key it will never answer."""
        if self._reported:
            from .quick_switch import screen_busy

            self._reported = False
            screen_busy(False)

    def _report(self) -> None:
        """Tell the worker threads that give way to keys whether one is being answered."""
        busy = self.busy
        if busy != self._reported:
            from .quick_switch import screen_busy      # (after the first frame: the first key's)

            self._reported = busy
            screen_busy(busy)

    @staticmethod
    def gated(event: events.Event) -> bool:
        return isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded

    def admit(self, event: events.Event) -> bool:
        """True when `event` goes on now; otherwise it is held, in order."""
        if id(event) in self._released:
            self._released.discard(id(event))
            self._in_flight = False
            self._unsettled = True
            self._report()
            return True
        if self.open and not (self.held or self._in_flight or self._task or self._unsettled):
            self._unsettled = True
            self._report()
            return True
        self.held.append(event)
        self._settle_soon()
        self._report()
        return False

    def dispatched(self) -> None:
        """The admitted event has been handed on; keys that came meanwhile wait for the screen
        to settle. With none waiting, it settles a moment later anyway (after the key's own
        frame is out), so that the next key typed goes straight through."""
        self._settle_soon()
        if self._unsettled and self._task is None and self._later is None:
            self._later = asyncio.get_running_loop().call_later(_IDLE_SETTLE_DELAY, self._settle_idle)

    def _settle_idle(self) -> None:
        self._later = None
        if self._unsettled and self._task is None:
            self._start()

    def set_open(self, is_open: bool) -> None:
        self.open = is_open
        self._settle_soon()

    @property
    def idle(self) -> bool:
        """No key held and none on its way (what the last one does may still be under way:
        `settled` waits for that too)."""
        return not self.held and not self._in_flight and self._task is None

    @property
    def busy(self) -> bool:
        """A key is held, on its way, or what the last one did is still settling (`start_slices`
        waits for it): from the moment a key is let through until its frame is out and the
        screen has settled, not only while a settle runs."""
        return bool(self.held) or self._in_flight or self._unsettled or self._task is not None

    async def settled(self) -> None:
        """Every key typed so far handled, and what it did done (the input ends: exit after)."""
        while not self.idle:
            if self._task is not None:
                await asyncio.shield(self._task)
            else:
                await asyncio.sleep(0.01)
        if self._unsettled:
            self._start()
            if self._task is not None:
                await asyncio.shield(self._task)

    def _settle_soon(self) -> None:
        if self.held and self.open and self._task is None and not self._in_flight:
            if self._unsettled:
                self._start()
            else:
                self._next()

    def _start(self) -> None:
        if self._later is not None:
            self._later.cancel()
            self._later = None
        self._task = asyncio.get_running_loop().create_task(self._settle_then_next())

    def _next(self) -> None:
        if not self.app.is_running:        # quitting: what was typed after `q` goes nowhere
            self.held.clear()
        if not self.held or not self.open:
            return
        event = self.held.popleft()
        self._in_flight = True
        self._released.add(id(event))
        if not self.app.post_message(event):
            self._released.discard(id(event))
            self._in_flight = False

    async def _settle_then_next(self) -> None:
        try:
            await self._settle()
        except Exception:          # noqa: BLE001 - a key must never stay held for a failed wait
            pass
        self._task = None
        self._unsettled = False
        self._next()
        self._report()

    async def _settle(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _SETTLE_LIMIT
        before = None
        for round_ in range(_ROUNDS):
            if not self.app.is_running:
                return
            nodes = await self._drain(deadline - loop.time())
            if nodes is None:
                return
            now = (self.app.screen, self.app.focused)
            if now == before and self._focus_settled():
                # Quiet: nothing left in any queue that could still move the focus. A screen
                # that never goes quiet (an animation ticking) is taken as settled a bit later.
                if round_ >= _BUSY_ROUNDS or all(node.message_queue_size == 0 for node in nodes):
                    return
            before = now
            if loop.time() >= deadline:
                return

    def _focus_settled(self) -> bool:
        """A screen that can take the focus has it (a dialog just pushed focuses its field once
        its widgets are mounted)."""
        screen = self.app.screen
        return screen.focused is not None or not screen.focus_chain

    async def _drain(self, timeout: float) -> list[Any] | None:
        """Run a callback behind whatever each queue of the screen (and the app) holds now."""
        app = self.app
        try:
            screen = app.screen
        except Exception:          # noqa: BLE001 - no screen: shutting down
            return None
        nodes = [app, *screen.walk_children(with_self=True)]
        left = 0
        done = asyncio.Event()

        def one_less() -> None:
            nonlocal left
            left -= 1
            if left == 0:
                done.set()

        for node in nodes:
            if node.call_later(one_less):
                left += 1
        if left:
            try:
                await asyncio.wait_for(done.wait(), timeout=max(timeout, 0.01))
            except asyncio.TimeoutError:
                return None
        return nodes
