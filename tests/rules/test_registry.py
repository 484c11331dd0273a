"""Games found through the entry-point group `gmscreen.systems`: a package installed beside
gmscreen adds its game to every command, and a broken one takes nothing down."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gmscreen.rules import Plugin, register, registry

REPO = Path(__file__).resolve().parents[2]

GAME = textwrap.dedent('''
    from fractions import Fraction
    from gmscreen.rules import Difficulty, FieldSpec, Kind, Plugin, StatGroup, Stat, System

    def _read(reader):
        return reader.int("difficulty", 1, 6)

    def _resolve(reader, rng):
        need = _read(reader)
        face = reader.int("die", 1, 6) if reader.has("die") else rng.randint(1, 6)
        return {"outcome": "success" if face >= need else "failure", "die": face}

    def _odds(reader):
        p = Fraction(7 - _read(reader), 6)
        return {"outcome": {"success": float(p), "failure": float(1 - p)}}

    KIND = Kind("simple", "test", _resolve, _odds, (FieldSpec("difficulty", "int", 1, 6, required=True),
                                                    FieldSpec("die", "int", 1, 6)), ("die",), check=_read)
    SYSTEM = System(id="oned6", game="Un dé", dice="1d6 ≥ difficulté", gm="MJ", kinds={"simple": KIND},
                    sheet=(StatGroup("skills", "Compétences", free=Stat("skill", "Compétence", 0, 5)),),
                    difficulties=(Difficulty("Facile", 2), Difficulty("Dure", 5)), difficulty_field="difficulty")
    PLUGIN = Plugin("oned6", SYSTEM)
''')


# Broken packages: one whose `Plugin` names rules in a module that is not installed, one that
# ends the program at import (`SystemExit(7)`).
YZE = 'from gmscreen.rules import Plugin\nPLUGIN = Plugin("yze", "yze_rules:SYSTEM")\n'
QUITTER = 'raise SystemExit(7)\n'
YZE_SAID = "yze: the plugin failed to load: No module named 'yze_rules'"
QUITTER_SAID = "quitter: the plugin failed to load: it exited while loading (status 7)"


def _distribution(folder: Path, name: str, target: str) -> None:
    """`name` installed in `folder` as a wheel leaves it: its metadata and its entry point."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[gmscreen.systems]\n{name} = {target}\n", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder laid out as an installed package with its entry points, and a broken one."""
    (tmp_path / "oned6_game.py").write_text(GAME, encoding="utf-8")
    for name, target in (("oned6_game", "oned6_game:PLUGIN"), ("broken_game", "no_such_module:PLUGIN")):
        _distribution(tmp_path, name, target)
    return tmp_path


@pytest.fixture
def broken_site(tmp_path: Path) -> Path:
    """A working game beside the two broken packages."""
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "oned6_game.py").write_text(GAME, encoding="utf-8")
    (folder / "yze_plugin.py").write_text(YZE, encoding="utf-8")
    (folder / "quitter_plugin.py").write_text(QUITTER, encoding="utf-8")
    for name, target in (("oned6_game", "oned6_game:PLUGIN"), ("yze", "yze_plugin:PLUGIN"),
                         ("quitter", "quitter_plugin:PLUGIN")):
        _distribution(folder, name, target)
    return folder


def _gmscreen(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": f"{site}:{REPO}", "PATH": "/usr/bin:/bin", "LANGUAGE": "en",
           "GMSCREEN_CONFIG_DIR": str(site / "config"), "GMSCREEN_DATA_DIR": str(site / "data")}
    return subprocess.run([sys.executable, "-m", "gmscreen", *args], cwd=site, env=env, capture_output=True,
                          text=True, timeout=60)


def test_a_broken_package_is_reported_and_skipped_by_every_command(broken_site: Path) -> None:
    """A `Plugin` naming a missing module made `gmscreen systems` end in a traceback; a package
    raising SystemExit at import made --help, systems and new exit 7 with no word. Now each is
    skipped, the working game stays, and what failed is said."""
    listed = _gmscreen(broken_site, "systems")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()][5:] == ["oned6"]
    assert listed.stderr.splitlines() == [f"gmscreen systems: {QUITTER_SAID} (quitter_plugin:PLUGIN)",
                                          f"gmscreen systems: {YZE_SAID} (yze_plugin:PLUGIN)"]
    helped = _gmscreen(broken_site, "--help")
    assert helped.returncode == 0 and "mir, eclats, magisphere, tedeum, arpeges, oned6" in " ".join(helped.stdout.split())
    made = _gmscreen(broken_site, "new", "one.toml", "--system", "oned6")
    assert made.returncode == 0 and (broken_site / "one.toml").is_file(), made.stderr
    refused = _gmscreen(broken_site, "new", "two.toml", "--system", "yze")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and not (broken_site / "two.toml").exists()
    assert "got 'yze'" in refused.stderr and YZE_SAID in refused.stderr and QUITTER_SAID in refused.stderr


@pytest.fixture
def broken_installed(broken_site: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The broken packages on this process's path, the registry reading its entry points anew
    (and forgetting them after the test)."""
    monkeypatch.syspath_prepend(str(broken_site))
    monkeypatch.setattr(registry, "_plugins", dict(registry._plugins))
    monkeypatch.setattr(registry, "_systems", dict(registry._systems))
    monkeypatch.setattr(registry, "_failures", [])
    monkeypatch.setattr(registry, "_discovered", False)
    return broken_site


def test_the_failures_are_remembered_and_an_unknown_system_names_them(broken_installed: Path) -> None:
    from gmscreen.campaign.validate import new_campaign
    from gmscreen.play.messages import rule_message
    from gmscreen.rules import RequestError, get_system
    from gmscreen.i18n import set_language

    set_language("en")                          # reset to French after the test (conftest)
    assert registry.system_ids()[5:] == ("oned6",) and registry.system("oned6").game == "Un dé"
    assert [(f.name, f.value, f.error) for f in registry.failures()] == [
        ("quitter", "quitter_plugin:PLUGIN", "it exited while loading (status 7)"),
        ("yze", "yze_plugin:PLUGIN", "No module named 'yze_rules'")]
    with pytest.raises(RequestError) as refused:
        get_system("yze")
    assert rule_message(refused.value).endswith(f"got 'yze' ({QUITTER_SAID}; {YZE_SAID})")
    from gmscreen.campaign.errors import CampaignError

    with pytest.raises(CampaignError) as bad:
        new_campaign("x", "yze")
    assert YZE_SAID in str(bad.value.problems[0])


async def test_the_open_dialog_lists_the_working_games_and_says_the_broken_ones(broken_installed: Path,
                                                                               tmp_path: Path) -> None:
    """ctrl+o lists a sample per game: it exited 7 with no word when a package ended the
    program at import. The games that load are offered; the broken ones are said, not offered."""
    from textual.app import App
    from textual.widgets import OptionList

    from gmscreen.i18n import set_language
    from gmscreen.ui.config import Config
    from gmscreen.ui.screens.open_campaign import OpenCampaignScreen

    set_language("en")

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(OpenCampaignScreen(None, Config(path=tmp_path / "config.toml")))

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        listed = app.screen.query_one("#open-choices", OptionList)
        options = [listed.get_option_at_index(i) for i in range(listed.option_count)]
        offered = [o.id for o in options if not o.disabled]
        said = [str(o.prompt) for o in options if o.disabled]
    # "new" (a new campaign, offered first) is not a game's sample.
    assert offered == ["new"] + [f"sample-{sid}" for sid in ("mir", "eclats", "magisphere", "tedeum", "arpeges")]
    assert said == [QUITTER_SAID, YZE_SAID]


def test_an_installed_game_is_listed_rolled_and_priced(site: Path) -> None:
    listed = _gmscreen(site, "systems", "--json")
    assert listed.returncode == 0, listed.stderr
    ids = [s["id"] for s in json.loads(listed.stdout)]
    assert ids[:5] == ["mir", "eclats", "magisphere", "tedeum", "arpeges"] and ids[5:] == ["oned6"]
    odds = _gmscreen(site, "odds", "oned6", "--difficulty", "5", "--json")
    assert odds.returncode == 0, odds.stderr
    assert json.loads(odds.stdout)["outcome"]["success"] == pytest.approx(2 / 6, abs=1e-12)
    rolled = _gmscreen(site, "roll", "oned6", "--difficulty", "5", "--die", "6", "--json")
    assert json.loads(rolled.stdout)["outcome"] == "success"


def test_a_shipped_game_needs_no_entry_point_scan(site: Path) -> None:
    """Naming a shipped game reads no entry point (start-up), an unknown one does."""
    probe = ("from gmscreen.rules import registry; registry.system('mir'); print(registry._discovered); "
             "print(registry.known('oned6'), registry._discovered)")
    done = subprocess.run([sys.executable, "-c", probe], env={"PYTHONPATH": f"{site}:{REPO}"},
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "True", "True"], done.stderr


def test_register_refuses_a_taken_id_and_unregister_forgets() -> None:
    mir = registry.plugin("mir")
    with pytest.raises(ValueError, match="already registered"):
        register(Plugin("mir", mir.system))
    register(Plugin("scratch", mir.system))
    try:
        assert registry.known("scratch") and registry.system("scratch") is registry.system("mir")
    finally:
        registry.unregister("scratch")
    assert not registry.known("scratch")


def test_the_project_tests_collect_the_shipped_games_whatever_is_installed(site: Path) -> None:
    """With a game installed beside gmscreen (and no vector file of its own), the suites that
    build lists of systems collect the same tests as without it: they test the shipped games."""
    suites = ("tests/rules/test_vectors.py", "tests/campaign/test_validate.py", "tests/test_cli.py")

    def start(path: str) -> subprocess.Popen:
        env = {"PYTHONPATH": path, "PATH": "/usr/bin:/bin", "LANGUAGE": "en"}
        return subprocess.Popen([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                                 "-p", "no:xdist", *suites], cwd=REPO, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def collected(run: subprocess.Popen) -> list[str]:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, out[-2000:] + err[-2000:]
        return [line for line in out.splitlines() if "::" in line]

    runs = [start(f"{site}:{REPO}"), start(str(REPO))]      # both collect at once
    try:
        with_plugin, without = collected(runs[0]), collected(runs[1])
    finally:
        for run in runs:
            if run.poll() is None:
                run.kill()
                run.wait()
    assert with_plugin == without and len(with_plugin) > 100
    assert not any("oned6" in test for test in with_plugin)
