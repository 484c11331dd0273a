"""The rules core stays free of the screen's libraries, so `gmscreen resolve` starts fast."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MODULES = ("gmscreen.rules", "gmscreen.rules.mir", "gmscreen.rules.eclats", "gmscreen.rules.magisphere",
           "gmscreen.rules.tedeum", "gmscreen.rules.arpeges", "gmscreen.rules.expr")

PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
from gmscreen.rules import odds, resolve
resolve({"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2}, seed=1)
odds({"system": "eclats", "kind": "simple", "characteristic": 2, "threshold": 6})
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))))
"""


def _imported_ui_modules(*modules: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *modules], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_rules_package_alone_does_not_import_textual_or_rich() -> None:
    assert _imported_ui_modules("gmscreen.rules") == []


def test_every_system_module_does_not_import_textual_or_rich() -> None:
    assert _imported_ui_modules(*MODULES) == []


def test_the_probe_sees_textual_when_it_is_imported() -> None:
    assert "textual" in _imported_ui_modules("textual")
