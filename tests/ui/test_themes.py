"""Themes: the bundled files, user themes, broken files skipped and reported, choice remembered,
frames that show on the light theme."""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.theme import Theme

from gmscreen.ui import GMScreenApp
from gmscreen.ui.themes import GM_VARIABLES, bundled_theme_dir, load_theme, load_themes

from _pilot import press, ready, type_in_palette


def test_bundled_themes_load_and_define_every_gm_variable() -> None:
    folder = bundled_theme_dir()
    assert folder is not None
    themes, problems = load_themes([folder])
    assert problems == []
    by_name = {t.name: t for t in themes}
    assert {"gmscreen-dark", "gmscreen-light", "gmscreen-contrast", "gmscreen-ansi"} <= set(by_name)
    assert by_name["gmscreen-light"].dark is False
    assert by_name["gmscreen-ansi"].ansi is True
    assert by_name["gmscreen-ansi"].primary.startswith("ansi_")
    for theme in themes:
        assert set(GM_VARIABLES) <= set(theme.variables), theme.name


def test_broken_theme_files_are_reported_and_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "themes"
    folder.mkdir()
    (folder / "ok.toml").write_text('name = "mine"\nprimary = "#112233"\n', encoding="utf-8")
    (folder / "syntax.toml").write_text('name = "x\nprimary = ', encoding="utf-8")
    (folder / "colour.toml").write_text('name = "c"\nprimary = "blurple"\n', encoding="utf-8")
    (folder / "field.toml").write_text('name = "f"\nprimary = "#000000"\nshade = 3\n', encoding="utf-8")
    (folder / "noname.toml").write_text('primary = "#000000"\n', encoding="utf-8")
    themes, problems = load_themes([folder])
    assert [t.name for t in themes] == ["mine"]
    assert len(problems) == 4
    text = "\n".join(problems)
    for expected in ("syntax.toml", "TOML invalide", "colour.toml", "primary", "blurple", "field.toml",
                     "shade", "noname.toml", "name"):
        assert expected in text


def test_user_theme_overrides_a_bundled_name(tmp_path: Path) -> None:
    user = tmp_path / "user"
    user.mkdir()
    (user / "dark.toml").write_text('name = "gmscreen-dark"\nprimary = "#FF0000"\n', encoding="utf-8")
    themes, problems = load_themes([bundled_theme_dir(), user])
    assert not problems
    assert {t.name: t for t in themes}["gmscreen-dark"].primary == "#FF0000"


def test_load_theme_gives_a_textual_theme() -> None:
    theme = load_theme(bundled_theme_dir() / "gmscreen-contrast.toml")
    assert isinstance(theme, Theme) and theme.text_alpha == 1.0


async def test_theme_switch_is_remembered_and_broken_user_theme_reported(campaign_file, private_dirs) -> None:
    user_themes = private_dirs["config"] / "themes"
    user_themes.mkdir(parents=True)
    (user_themes / "bad.toml").write_text('name = "bad"\nprimary = 12\n', encoding="utf-8")
    (user_themes / "table.toml").write_text('name = "table"\nprimary = "#336699"\ndark = false\n', encoding="utf-8")
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(notifications=True) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.theme == "gmscreen-dark"
        assert "table" in app.available_themes and "bad" not in app.available_themes
        assert any("bad.toml" in n.message for n in app.notices)
        app.theme = "table"
        await pilot.pause()
        assert app.get_css_variables()["gm-good"]          # defaults filled for a theme without them
    saved = tomllib.loads((private_dirs["config"] / "config.toml").read_text(encoding="utf-8"))
    assert saved["theme"] == "table"
    again = GMScreenApp(campaign_file("eclats"))
    assert again.theme == "table"


async def test_theme_argument_wins_and_is_remembered(campaign_file, private_dirs) -> None:
    app = GMScreenApp(campaign_file("mir"), theme="gmscreen-ansi")
    assert app.theme == "gmscreen-ansi"
    async with app.run_test() as pilot:         # remembered once running, in a thread
        await ready(app, pilot)
    saved = tomllib.loads((private_dirs["config"] / "config.toml").read_text(encoding="utf-8"))
    assert saved["theme"] == "gmscreen-ansi"
    unknown = GMScreenApp(campaign_file("eclats"), theme="nope")
    assert unknown.theme == "gmscreen-ansi"
    assert any("nope" in p for p in unknown.startup_problems)


async def test_theme_key_cycles_the_shipped_then_the_user_themes(campaign_file, private_dirs) -> None:
    """`t` as the README says: the shipped themes, then the user's, round again; each named in a
    notice. Textual's own themes stay in the palette's theme picker."""
    user_themes = private_dirs["config"] / "themes"
    user_themes.mkdir(parents=True)
    (user_themes / "table.toml").write_text('name = "table"\nprimary = "#336699"\n', encoding="utf-8")
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(notifications=True) as pilot:
        await ready(app, pilot)
        app.set_focus(None)
        assert app.theme == "gmscreen-dark"
        said: list[str] = []
        notify = app.notify
        app.notify = lambda message, *a, **k: (said.append(str(message)), notify(message, *a, **k))[1]
        seen = []
        for _ in range(5):
            await press(pilot, "t")
            seen.append(app.theme)
        assert seen == ["gmscreen-light", "table", "gmscreen-ansi", "gmscreen-contrast", "gmscreen-dark"]
        assert "Thème : table" in said         # recorded as said: a toast may be gone under load
        app.action_change_theme()                       # the palette's "Theme": every theme, Textual's too
        await pilot.pause()
        from textual.command import CommandPalette

        assert isinstance(app.screen, CommandPalette)
        await type_in_palette(app, pilot, "nord")
        await press(pilot, "enter")
        assert app.theme == "nord"
        await press(pilot, "t")                         # from a theme outside the cycle: the first one
        assert app.theme == "gmscreen-ansi"


def _contrast(a, b) -> float:
    def lum(c) -> float:
        def ch(v: int) -> float:
            v = v / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


async def test_light_theme_frames_of_unfocused_panes_are_visible(campaign_file):
    """At 80×24 with the line focused, the main pane's frame must still show on the light theme."""
    from textual.color import Color
    from gmscreen.ui import GMScreenApp

    app = GMScreenApp(campaign_file("arpeges"), theme="gmscreen-light")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("slash")
        await pilot.pause()
        roster = app.query_one("#roster")
        assert not roster.has_focus_within
        frame = roster.styles.border_top[1]
        behind = roster.styles.background if roster.styles.background.a else Color.parse(
            app.current_theme.background)
        assert _contrast(frame.rgb, behind.rgb) >= 2.5
