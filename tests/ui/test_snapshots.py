"""Screenshots of each sample at 80×24 and 120×40, compared with tests/ui/snapshots/*.svg.

Rewrite them on purpose (after a Textual upgrade or a deliberate change of look) with
`GMSCREEN_SNAPSHOT_UPDATE=1 pytest tests/ui/test_snapshots.py`, then review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

import gmscreen.rules
from gmscreen.ui import GMScreenApp

from _pilot import ready

SNAPSHOTS = Path(__file__).parent / "snapshots"
SYSTEMS = tuple(gmscreen.rules.SYSTEMS)
SIZES = ((80, 24), (120, 40))


async def screenshot(app: Any, pilot: Any) -> str:
    await ready(app, pilot)
    for field in app.query(Input):
        field.cursor_blink = False
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
    return app.export_screenshot(title="gmscreen")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("system", SYSTEMS)
async def test_sample_looks_as_recorded(campaign_file, tmp_path: Path, system: str, size: tuple[int, int]) -> None:
    app = GMScreenApp(campaign_file(system), theme="gmscreen-dark")
    async with app.run_test(size=size) as pilot:
        svg = await screenshot(app, pilot)
    name = f"{system}_{size[0]}x{size[1]}.svg"
    target = SNAPSHOTS / name
    if os.environ.get("GMSCREEN_SNAPSHOT_UPDATE") == "1":
        SNAPSHOTS.mkdir(exist_ok=True)
        target.write_text(svg, encoding="utf-8")
        return
    assert target.exists(), (f"no snapshot {target}: create it with "
                             f"GMSCREEN_SNAPSHOT_UPDATE=1 pytest tests/ui/test_snapshots.py, then review it")
    if target.read_text(encoding="utf-8") != svg:
        failed = tmp_path / name
        failed.write_text(svg, encoding="utf-8")
        pytest.fail(f"{name} differs from the recorded snapshot; the new one is in {failed} (compare them; "
                    "accept with GMSCREEN_SNAPSHOT_UPDATE=1)")
