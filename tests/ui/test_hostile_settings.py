"""config.toml and theme files nested too deeply or too big: reported and skipped, never a crash."""

from __future__ import annotations

from gmscreen.campaign import safeload
from gmscreen.ui.config import Config
from gmscreen.ui.themes import load_themes

DEEP = "[" * 100_000


def test_a_deep_config_is_reported_and_left_as_it_is(tmp_path):
    path = tmp_path / "config.toml"
    text = f'theme = "gmscreen-light"\nkeymap = {DEEP}\n'
    path.write_text(text)
    config = Config.load(path)
    assert config.broken and config.theme is None
    [problem] = config.problems
    assert str(path) in problem and "imbrication trop profonde" in problem and "(ligne 2)" in problem
    assert path.read_text() == text


def test_a_config_larger_than_the_limit_is_not_read(tmp_path):
    path = tmp_path / "config.toml"
    with open(path, "wb") as fh:
        fh.truncate(safeload.MAX_SETTINGS_BYTES + 1)
    config = Config.load(path)
    assert config.broken and "plus de 1 MiB" in config.problems[0]


def test_deep_and_huge_theme_files_are_skipped_and_the_others_load(tmp_path):
    (tmp_path / "deep.toml").write_text(f'name = "deep"\nprimary = "#ff0000"\nvariables = {DEEP}\n')
    (tmp_path / "nested.toml").write_text('name = "nested"\nprimary = "#ff0000"\n[variables]\na = [["x"]]\n')
    with open(tmp_path / "huge.toml", "wb") as fh:
        fh.truncate(safeload.MAX_SETTINGS_BYTES + 1)
    (tmp_path / "good.toml").write_text('name = "good"\nprimary = "#ff0000"\n')
    themes, problems = load_themes([tmp_path])
    assert [t.name for t in themes] == ["good"]
    assert len(problems) == 3
    deep, huge, nested = problems
    assert "deep.toml:3 :" in deep and "imbrication" in deep
    assert "huge.toml" in huge and "plus de 1 MiB" in huge
    assert "nested.toml" in nested and "variables.a" in nested
