"""The initiative pane on its own in a test host, and what the tests read of the encounter."""

from __future__ import annotations

from gmscreen.ui.widgets.initiative.pane import InitiativePane


def initiative_pane() -> InitiativePane:
    """The initiative pane as the screen names it, for `pane_app`."""
    return InitiativePane(id="initiative")


def make(pane_host, session, *extra):
    """An app showing the initiative pane (and `extra` widgets); its notices go to a list."""
    app = pane_host(session, lambda: InitiativePane(id="initiative"), *extra)
    notes: list[str] = []
    app.warn = lambda message, severity="warning": notes.append(message)
    return app, notes


def order(session) -> list[str]:
    return [e.id for e in session.campaign.encounter.entries]


def current(session) -> str:
    enc = session.campaign.encounter
    return enc.entries[enc.turn].id
