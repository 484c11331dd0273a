"""A notable roll's luck on the screen: on the tray's result line and on its log row, in words,
only when notable, with the bound read from config.toml (`luck_notable`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmscreen.ui import GMScreenApp
from gmscreen.ui.config import Config

from _pilot import press, ready, screen_strips

RARE = "6d12 sd2 = 12 12 12 12 12 12"          # the best six d12: 1 / 12**6, under 0,01 %
PLAIN = "6d12 sd2 = 1 5 4 6 11 12"             # three successes: nothing to say


def on_screen(app, widget) -> str:
    strips = screen_strips(app)
    region = widget.region
    return "\n".join("".join(seg.text for seg in strips[y].crop(region.x, region.right))
                     for y in range(max(0, region.y), min(region.bottom, len(strips))))


async def roll(pilot, line: str) -> None:
    app = pilot.app
    before = len(app.session.rolls)
    await pilot.press("slash")
    app.pane("dice-tray").line.insert_text_at_cursor(line[:-2])
    await press(pilot, *line[-2:], "enter")
    await pilot.pause()
    assert len(app.session.rolls) == before + 1


async def log_text(pilot) -> str:
    """The log pane, brought forward (escape, 4) and read as the terminal shows it."""
    await pilot.press("escape", "4")
    await pilot.pause()
    text = on_screen(pilot.app, pilot.app.pane("log"))
    assert "6d12 sd2" in text
    return text


def test_the_bound_is_read_checked_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert Config.load(path).notable_luck == 10                 # no file: the default
    path.write_text('# my settings\nluck_notable = 5\n', encoding="utf-8")
    config = Config.load(path)
    assert config.notable_luck == 5 and not config.problems
    assert config.remember_theme("gmscreen-light")
    assert Config.load(path).notable_luck == 5 and "# my settings" in path.read_text(encoding="utf-8")
    for bad in ('"ten"', "true", "-1", "51", "2.5"):
        path.write_text(f"luck_notable = {bad}\n", encoding="utf-8")
        config = Config.load(path)
        assert config.notable_luck == 10
        [problem] = config.problems
        assert "luck_notable" in problem and str(path) in problem


async def test_a_rare_roll_says_its_luck_on_the_tray_and_in_the_log(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(app, pilot)
        await roll(pilot, RARE)
        assert app.session.rolls[-1].result["luck"] == pytest.approx(12.0 ** -6, rel=1e-12)
        assert "coup de chance : moins de 1 jet sur 10\u202f000 fait aussi bien" in on_screen(app, app.pane("dice-tray"))
        assert "coup de chance : moins de 1 jet sur 10\u202f000 fait aussi bien" in await log_text(pilot)
        await roll(pilot, PLAIN)
        assert "coup de chance" not in on_screen(app, app.pane("dice-tray"))
        assert (await log_text(pilot)).count("coup de chance") == 1      # the rare row only


async def test_a_zero_bound_in_config_says_nothing(campaign_file, private_dirs) -> None:
    config_dir = private_dirs["config"]
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "config.toml").write_text("luck_notable = 0\n", encoding="utf-8")
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(app, pilot)
        await roll(pilot, RARE)
        assert "un jet" not in on_screen(app, app.pane("dice-tray"))
        assert "un jet" not in await log_text(pilot)
