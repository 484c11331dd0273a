"""Fixtures for screen tests: sample campaigns copied into a temporary folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterator

import pytest
from textual.app import ComposeResult
from textual.widget import Widget

from gmscreen.campaign import load_campaign, open_session, sample_path
from gmscreen.campaign.session import CampaignSession
from gmscreen.rules import SYSTEMS
from gmscreen.ui.autosave import AppAutosave

SYSTEM_IDS = tuple(SYSTEMS)


@pytest.fixture
def no_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment of a server or a container: LANG=C.UTF-8 and nothing else (the
    language question's tests)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Every screen test gets its own config and data folders (never the user's), and no
    theme from the environment."""
    dirs = {"config": tmp_path / "config", "data": tmp_path / "data"}
    monkeypatch.setenv("GMSCREEN_CONFIG_DIR", str(dirs["config"]))
    monkeypatch.setenv("GMSCREEN_DATA_DIR", str(dirs["data"]))
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)
    return dirs


@pytest.fixture(autouse=True)
def odds_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tray prices odds within a frame or off its thread (`odds_pricing`): on a loaded test
    machine a fast pricing may miss the frame, so screen tests give it time and read the odds
    right after the keys; tests of the slow path set `ODDS_WAIT` themselves."""
    from gmscreen.ui.widgets.tray import odds_pricing

    monkeypatch.setattr(odds_pricing, "ODDS_WAIT", 10.0)


@pytest.fixture
def campaign_file(tmp_path: Path) -> Callable[[str], Path]:
    """`campaign_file("mir")` -> a private copy of that system's sample."""

    def make(system: str) -> Path:
        target = tmp_path / f"{system}.toml"
        shutil.copyfile(sample_path(system), target)
        return target

    return make


@pytest.fixture
def snap_screen(snap_compare, campaign_file: Callable[[str], Path],
                monkeypatch: pytest.MonkeyPatch) -> Callable[..., bool]:
    """`assert snap_screen("mir", "slash", *"alexis force", "enter", seed=1)`: the whole screen on a
    private copy of that sample, open, after those real key presses (the tray's dice seeded
    `seed`), matches its recorded SVG (pytest-textual-snapshot). Keyword `size` (80, 24), `theme`
    gmscreen-dark. Cursors do not blink, workers are done and NO_COLOR is ignored, so the picture
    is the same every run."""
    import random

    from gmscreen.ui import GMScreenApp

    from _pilot import ready

    monkeypatch.delenv("NO_COLOR", raising=False)

    def shoot(system: str, *keys: str, size: tuple[int, int] = (80, 24), theme: str = "gmscreen-dark",
              seed: int | None = None) -> bool:
        app = GMScreenApp(campaign_file(system), theme=theme)

        async def before(pilot: Any) -> None:
            await ready(app, pilot)
            if seed is not None:
                app.pane("dice-tray").rng = random.Random(seed)
            await pilot.press(*keys)
            await app.workers.wait_for_complete()
            await pilot.pause()
            for widget in app.screen.query("*"):
                if hasattr(widget, "cursor_blink"):
                    widget.cursor_blink = False

        return snap_compare(app, terminal_size=size, run_before=before)

    return shoot


@pytest.fixture
def open_sample(campaign_file: Callable[[str], Path]) -> Iterator[Callable[[str], CampaignSession]]:
    """`open_sample("mir")` -> an open session on a private copy; closed after the test."""
    sessions: list[CampaignSession] = []

    def make(system: str) -> CampaignSession:
        session = open_session(campaign_file(system))
        sessions.append(session)
        return session

    yield make
    for session in sessions:
        session.close()


class PaneHost(AppAutosave):
    """A host showing only the widgets a test gives it."""

    def __init__(self, session: CampaignSession, *widgets: Callable[[], Widget]) -> None:
        super().__init__(session)
        self._factories = widgets

    def compose(self) -> ComposeResult:
        for factory in self._factories:
            yield factory()


@pytest.fixture
def pane_host() -> type[PaneHost]:
    """`pane_host(session, lambda: RosterPane(id="roster"))` -> an app showing just those widgets."""
    return PaneHost


@pytest.fixture
def pane_app(open_sample, pane_host):
    """`async with pane_app("mir", make_pane, size=(80, 24)) as (session, app, pilot, notes)`: a
    private copy of that sample open in an app showing just the widgets those factories make,
    its notices gathered in `notes`, running (run_test's keywords) and past its first frame."""

    @asynccontextmanager
    async def run(system: str, *widgets: Callable[[], Widget], **run_test: Any) -> AsyncIterator[tuple]:
        session = open_sample(system)
        app = pane_host(session, *widgets)
        notes: list[str] = []
        app.warn = lambda message, severity="warning": notes.append(message)
        async with app.run_test(**run_test) as pilot:
            await pilot.pause()
            yield session, app, pilot, notes

    return run


@pytest.fixture
def unsaved_change() -> Callable[[Path, str], None]:
    """`unsaved_change(path, name)`: the first character renamed in the journal only (the state
    file still has the old name), as a crash leaves it; the next gmscreen replays it on open,
    so finding the name in the state file after it ends proves that it saved."""

    def make(path: Path, name: str) -> None:
        code = textwrap.dedent(f"""
            import os
            from gmscreen.campaign import open_session
            session = open_session({str(path)!r})
            with session.edit("rename") as b:
                b.set(("characters", 0, "name"), {name!r})
            os._exit(0)
        """)
        repo = Path(__file__).resolve().parents[2]
        subprocess.run([sys.executable, "-c", code], check=True, cwd=repo, timeout=30,
                       env={**os.environ, "PYTHONPATH": str(repo)})
        assert load_campaign(path).characters[0].name != name

    return make
