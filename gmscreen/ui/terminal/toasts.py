"""The notices' rack kept in place: a toast shown or gone sends only the toast.

Textual shows the notices' rack only while it holds one; its coming and going shifts the
painting order of every widget beside it, and the whole screen is sent again for each toast
shown and each one gone. Kept placed (one invisible row, the app's CSS), only toasts move.
Textual refreshes the rack in its private `App._refresh_notifications` and names it in the
private `textual.widgets._toast`: both are checked by `tests/ui/test_textual_contract.py`.
"""

from __future__ import annotations

from typing import Any

from . import TUNED


class SteadyToasts:
    """App mixin placed before `App`: after each refresh of the notices, the rack stays."""

    if TUNED:
        def _refresh_notifications(self) -> None:
            super()._refresh_notifications()  # type: ignore[misc]
            self.call_later(keep_toast_rack, self)  # type: ignore[attr-defined]     # after `ToastRack.show`


def keep_toast_rack(app: Any) -> None:
    """The rack of `app`'s screen shown, toasts or not (plain Textual: left to Textual)."""
    if not TUNED:
        return
    from textual.widgets._toast import ToastRack

    try:
        rack = app.screen.get_child_by_type(ToastRack)
    except Exception:          # noqa: BLE001 - no screen, or no rack on it
        return
    rack.display = True
