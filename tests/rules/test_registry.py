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


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder laid out as an installed package with its entry points, and a broken one."""
    (tmp_path / "oned6_game.py").write_text(GAME, encoding="utf-8")
    for name, target in (("oned6_game", "oned6_game:PLUGIN"), ("broken_game", "no_such_module:PLUGIN")):
        info = tmp_path / f"{name}-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(f"[gmscreen.systems]\n{name} = {target}\n", encoding="utf-8")
    return tmp_path


def _gmscreen(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": f"{site}:{REPO}", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "gmscreen", *args], cwd=site, env=env, capture_output=True,
                          text=True, timeout=60)


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
