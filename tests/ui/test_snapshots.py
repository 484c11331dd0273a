"""The screen as recorded: each sample at 80×24 and 120×40, and each shipped theme on one sample.

Snapshots are SVG files under tests/ui/__snapshots__/<test file>/ (pytest-textual-snapshot, on
syrupy). After a deliberate change of look (or a Textual upgrade), review, then rewrite:
run `pytest tests/ui/test_snapshots*.py` without the flag first; it writes
`snapshot_report.html` (open it in a browser: each mismatch beside its recording). When every
difference is meant, `pytest --snapshot-update tests/ui/test_snapshots*.py` rewrites them, and
`git status` should list only the pictures you meant to change.
"""

from __future__ import annotations

import pytest

import gmscreen.rules
from gmscreen.ui.themes import bundled_theme_dir, load_themes

SYSTEMS = tuple(gmscreen.rules.SYSTEMS)
SIZES = ((80, 24), (120, 40))
THEMES = tuple(sorted(theme.name for theme in load_themes([bundled_theme_dir()])[0]))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("system", SYSTEMS)
def test_sample_looks_as_recorded(snap_screen, system: str, size: tuple[int, int]) -> None:
    assert snap_screen(system, size=size)


@pytest.mark.parametrize("theme", THEMES)
def test_theme_looks_as_recorded(snap_screen, theme: str) -> None:
    """MIR at 120×40, `al for` typed (no difficulty yet): every pane, the completion, the odds of
    each difficulty, the marked row and the error, in that theme. (Not a roll: the log shows the
    time of day.)"""
    assert snap_screen("mir", "slash", *"al for", size=(120, 40), theme=theme)
