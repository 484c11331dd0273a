"""`gmscreen game new ID`: the skeleton it writes is a game from outside that works at once —
installed as a distribution (a dist-info with its entry point, no network), its own tests pass,
and gmscreen lists it, rolls it, gives its exact odds and checks its vectors, in fr and en.
The skeleton and the guide import only gmscreen's public names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gmscreen
from gmscreen.cli.game import cmd_game

ROOT = Path(gmscreen.__file__).parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The skeleton of game `yze`, written and installed as `yze-game` on a sys.path entry."""
    base = tmp_path_factory.mktemp("game")
    assert cmd_game(["new", "yze", "--dir", str(base / "yze-game")]) == 0
    site = base / "site"
    info = site / "yze_game-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: yze-game\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[gmscreen.systems]\nyze = yze_game:PLUGIN\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(base / "yze-game")])}
    return base / "yze-game", env


def _gmscreen(env: dict[str, str], lang: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gmscreen", *args], capture_output=True, text=True,
                          env={**env, "LANGUAGE": lang, "LC_ALL": "", "LANG": ""}, timeout=60)


def test_the_skeleton_holds_every_part(installed) -> None:
    folder, _env = installed
    package = folder / "yze_game"
    pyproject = (folder / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points."gmscreen.systems"]' in pyproject and 'yze = "yze_game:PLUGIN"' in pyproject
    for name in ("__init__.py", "rules.py", "table.py", "sample.toml", "vectors.toml"):
        assert (package / name).is_file(), name
    for lang in ("fr", "en"):
        assert (package / "locale" / lang / "LC_MESSAGES" / "yze.mo").stat().st_size > 0
    table = (package / "table.py").read_text(encoding="utf-8")
    assert all(f"{part}=" in table for part in ("line", "sheet", "roll", "fight", "effects"))


def test_its_own_tests_pass_at_once(installed) -> None:
    folder, env = installed
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=folder,
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "4 passed" in run.stdout


@pytest.mark.parametrize("lang, success", [("fr", "réussite"), ("en", "success")])
def test_gmscreen_plays_it(installed, lang: str, success: str) -> None:
    folder, env = installed
    systems = _gmscreen(env, lang, "systems")
    assert re.search(r"^yze\s+Yze\s+d6 pool", systems.stdout, re.M), systems.stdout + systems.stderr
    roll = _gmscreen(env, lang, "roll", "yze", "--pool", "3", "--difficulty", "2", "--dice", "5,6,1")
    assert roll.returncode == 0 and f"2 → {success}" in roll.stdout, roll.stdout + roll.stderr
    odds = _gmscreen(env, lang, "odds", "yze", "--pool", "3", "--difficulty", "2")
    assert odds.returncode == 0 and re.search(r"25[.,]93\s?%", odds.stdout), odds.stdout + odds.stderr
    vectors = _gmscreen(env, lang, "vectors", str(folder / "yze_game" / "vectors.toml"))
    assert vectors.returncode == 0 and "2" in vectors.stdout, vectors.stdout + vectors.stderr


@pytest.mark.parametrize("argv, said", [
    (["new", "9lives"], "'9lives' is not a game id"),
    (["new", "class"], "'class' is not a game id"),
    (["new", "Yze"], "'Yze' is not a game id"),
])
def test_a_bad_id_gets_one_line(argv, said, capsys, english, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert cmd_game(argv) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


def test_an_existing_folder_is_left_alone(capsys, english, tmp_path) -> None:
    (tmp_path / "mine.txt").write_text("keep", encoding="utf-8")
    assert cmd_game(["new", "yze", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


PRIVATE = re.compile(r"^\s*(?:from\s+gmscreen[\w.]*\._\w*|from\s+gmscreen[\w.]*\s+import\s+[^#\n]*\b_\w+|"
                     r"import\s+gmscreen[\w.]*\._)", re.M)


@pytest.mark.parametrize("path", sorted([*(ROOT / "skeleton").rglob("*.tmpl"), ROOT / "docs" / "writing-a-game.md"]),
                         ids=lambda p: p.name)
def test_no_private_import(path: Path) -> None:
    """A stranger's game needs only gmscreen's public names: no `gmscreen.x._y`, no `_name`."""
    assert not PRIVATE.findall(path.read_text(encoding="utf-8"))


def test_the_guide_points_to_game_new() -> None:
    assert "gmscreen game new" in (ROOT / "docs" / "writing-a-game.md").read_text(encoding="utf-8")


@pytest.fixture
def found(installed, monkeypatch):
    """The skeleton found in this process as gmscreen finds a game installed beside it: through
    its entry point (the registry reads the entry points again, then forgets the game)."""
    from gmscreen.rules import registry

    folder, env = installed
    for entry in reversed(env["PYTHONPATH"].split(os.pathsep)):
        monkeypatch.syspath_prepend(entry)
    monkeypatch.setattr(registry, "_discovered", False)      # read the entry points again
    yield folder
    registry.unregister("yze")


def _shown(widget) -> str:
    return str(widget.render())


@pytest.mark.parametrize("lang, asked, spent", [("en", "Ada makes an effort? Grit 2 → 1", "Grit"),
                                                ("fr", "Ada fait un effort ? Cran 2 → 1", "Cran")])
async def test_the_screen_plays_it_by_its_own_keys(found, tmp_path, monkeypatch, lang, asked, spent) -> None:
    """The sample opens; the roster shows the game's glance; `ada fight 2` asks the effort in
    the game's words, each answer priced; its own key `e` rolls two more dice and spends Grit;
    Brune's "-1 die" condition takes a die from her test."""
    import shutil

    from textual.widgets import DataTable

    from gmscreen import i18n
    from gmscreen.rules import odds
    from gmscreen.ui import GMScreenApp
    from gmscreen.ui.widgets.tray.dice_tray import DiceTray

    monkeypatch.setenv("GMSCREEN_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("GMSCREEN_DATA_DIR", str(tmp_path / "data"))
    campaign = shutil.copy(found / "yze_game" / "sample.toml", tmp_path / "c.toml")
    before = i18n.language()
    app = GMScreenApp(campaign, language=lang)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(100):
                await app.workers.wait_for_complete()
                await pilot.pause()
                if app.session is not None and app.session.rolls_loaded and app.pane("difficulty") is not None:
                    break
            row = " ".join(str(cell) for cell in app.pane("roster").query_one(DataTable).get_row_at(0))
            assert "Ada" in row and "Fight3" in row
            await pilot.press("slash", *"ada fight 2", "enter")
            await pilot.pause()
            prompt = _shown(app.query_one(DiceTray).choice_view)
            with_effort = odds({"system": "yze", "kind": "simple", "pool": 3, "difficulty": 2, "effort": True})
            assert asked in prompt and "e " in prompt and "%" in prompt, prompt
            assert with_effort["outcome"]["success"] > 0.5
            await pilot.press("e")
            for _ in range(50):
                await pilot.pause()
                if app.session.rolls:
                    break
            ada = app.session.rolls[-1]
            assert ada.request["effort"] is True and len(ada.result["dice"]) == 5
            assert app.session.campaign.characters[0].sheet["resources"]["grit"] == 1
            await pilot.press("ctrl+u", *"brune fight 1", "enter")
            for _ in range(50):
                await pilot.pause()
                if len(app.session.rolls) == 2:
                    break
            brune = app.session.rolls[-1]
            assert brune.request["pool"] == 1 and brune.result["conditions"]["applied"] == ["Brune · Dazzled: -1 die"]
    finally:
        i18n.set_language(before)
