"""The dice tray's refusals and results in English, through the screen (Pilot): the rules'
and the quick-roll line's errors come from the catalog of the language spoken."""

from __future__ import annotations

import pytest

from gmscreen.ui import GMScreenApp

from _pilot import press, ready, screen_strips


def _shown(app, widget) -> str:
    strips = screen_strips(app)
    region = widget.region
    rows = ["".join(seg.text for seg in strips[y].crop(region.x, region.right)).strip()
            for y in range(max(0, region.y), min(region.bottom, len(strips)))]
    return " ".join(rows)


@pytest.mark.parametrize("line,words", [
    ("6d12 sd2 = 1 5 4", "dice: expected exactly 6 dice"),                     # a rules refusal
    ("zorglub tir sd3", "“zorglub”: neither a skill of"),                    # a quick-roll refusal
])
async def test_tray_errors_speak_english(english, campaign_file, line: str, words: str) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        tray = app.pane("dice-tray")
        if not tray.line.has_focus:
            await pilot.press("slash")
        tray.line.insert_text_at_cursor(line[:-3])
        await press(pilot, *line[-3:])
        assert tray.info.has_class("-error")
        shown = _shown(app, tray.info)
        assert words in shown
        for french in ("il faut", "aucun personnage", "donnés", "dés :"):
            assert french not in shown
