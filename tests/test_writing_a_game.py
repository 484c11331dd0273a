"""The guide "Writing a game" (gmscreen/docs/writing-a-game.md): every Python block runs, in
order, in one namespace; every TOML block parses."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import gmscreen
from gmscreen.rules import registry

GUIDE = Path(gmscreen.__file__).parent / "docs" / "writing-a-game.md"


def test_every_block_of_the_guide_runs(french) -> None:
    blocks = re.findall(r"```(\w+)\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert [lang for lang, _ in blocks].count("python") >= 6
    namespace: dict = {}
    try:
        for lang, code in blocks:
            if lang == "python":
                exec(compile(code, str(GUIDE), "exec"), namespace)
            else:
                assert lang == "toml" and tomllib.loads(code)
    finally:
        registry.unregister("pool6")
    assert not registry.known("pool6")


def test_the_readme_links_the_guide() -> None:
    readme = (Path(gmscreen.__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "gmscreen/docs/writing-a-game.md" in readme
