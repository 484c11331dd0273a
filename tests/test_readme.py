"""The README's own examples run as written (the command-line block, in a folder holding copies
of two samples, as the README says)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.campaign import sample_path

REPO = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text[text.index("The commands below run as they are"):]
    block = block[block.index("```sh\n") + 6:]
    block = block[:block.index("```")]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_readme_has_its_examples() -> None:
    commands = _commands()
    assert len(commands) >= 10 and all("gmscreen" in c for c in commands)


@pytest.mark.parametrize("command", _commands())
def test_each_example_of_the_readme_runs(command: str, tmp_path: Path) -> None:
    for system in ("mir", "tedeum"):
        shutil.copyfile(sample_path(system), tmp_path / f"{system}.toml")
    # `gmscreen` is this checkout's, run by this Python
    shell = re.sub(r"(^|\| )gmscreen ", rf"\1{sys.executable} -m gmscreen ", command)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "GMSCREEN_CONFIG_DIR": str(tmp_path / "config"),
           "GMSCREEN_DATA_DIR": str(tmp_path / "data"), "LANG": "C.UTF-8"}
    done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip() and "Traceback" not in done.stderr
