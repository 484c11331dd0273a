"""`gmscreen.play`'s surface: every name of `__all__` is there, and the ten-line example of
its docstring drives a real table on a copy of a sample."""

from __future__ import annotations

import contextlib
import io
import tempfile
import textwrap

import gmscreen.play as play


def docstring_example() -> str:
    text = play.__doc__ or ""
    block = text.split("runs this block):\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line)
    return textwrap.dedent("\n".join(lines))


def test_every_name_of_the_surface_is_there() -> None:
    missing = [name for name in play.__all__ if getattr(play, name, None) is None]
    assert missing == []
    assert play.__all__ == sorted(set(play.__all__))
    assert {"Table", "GameTable", "Draft", "Prompt", "Option", "Side", "TimedTest"} <= set(dir(play))


def test_an_unknown_name_is_an_attribute_error_and_submodules_still_import() -> None:
    assert not hasattr(play, "no_such_name")
    from gmscreen.play import chances, events          # submodules are not shadowed by the surface

    assert chances.__name__ == "gmscreen.play.chances" and events.Notice is play.Notice


def test_the_ten_line_example_drives_a_table(tmp_path, monkeypatch) -> None:
    code = docstring_example()
    assert 8 <= len([line for line in code.splitlines() if line.strip()]) <= 12
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "gmscreen.play example", "exec"), {})
    assert out.getvalue().strip() == "['success']"
    assert any(p.suffix == ".toml" for p in tmp_path.rglob("*.toml"))
