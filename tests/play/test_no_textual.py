"""The headless table loads no Textual (nor Rich): the command line and scripts can play
without a screen, and start fast."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import gmscreen.play

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
from gmscreen.campaign import load_campaign, sample_path
from gmscreen.play.quickroll import RollFlow, parse
draft = parse("loriane eloquence sd3", load_campaign(sample_path("mir")))
RollFlow(draft).start()
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))))
"""


def play_modules() -> list[str]:
    return ["gmscreen.play", *(m.name for m in pkgutil.walk_packages(gmscreen.play.__path__, "gmscreen.play."))]


def test_every_module_of_the_table_loads_without_textual_or_rich() -> None:
    modules = play_modules()
    assert "gmscreen.play.quickroll.grammar" in modules and "gmscreen.play.turns" in modules
    done = subprocess.run([sys.executable, "-c", PROBE, *modules], cwd=REPO, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
