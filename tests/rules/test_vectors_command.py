"""`gmscreen vectors FILE…` and `gmscreen.rules.vectors`: golden vectors checked through
`resolve`, what differs said case by case; the format doc's examples run and check clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gmscreen
from gmscreen import cli
from gmscreen.rules.registry import SHIPPED
from gmscreen.rules.vectors import Difference, VectorFileError, check, check_file

VECTORS = Path(__file__).resolve().parents[1] / "data" / "vectors"
DOC = Path(gmscreen.__file__).parent / "docs" / "vectors.md"

WRONG = """
[[case]]
name = "wrong outcome"
[case.request]
system = "eclats"
kind = "simple"
characteristic = 0
skill = 3
threshold = 3
dice = []
[case.expect]
outcome = "failure"
result = 3

[[invalid]]
name = "a fine request"
field = "skill"
[invalid.request]
system = "eclats"
kind = "simple"
characteristic = 0
skill = 3
threshold = 3
dice = []
"""


@pytest.mark.parametrize("system_id", SHIPPED)
def test_every_shipped_vector_file_checks_clean(system_id: str) -> None:
    count, differences = check_file(VECTORS / f"{system_id}.toml")
    assert differences == [] and count > 5


def test_what_differs_is_said_case_by_case() -> None:
    import tomllib

    count, differences = check(tomllib.loads(WRONG))
    assert count == 2
    assert differences == [Difference("wrong outcome", "outcome : obtenu 'success', attendu 'failure'"),
                           Difference("a fine request", "résolu, attendu un refus nommant 'skill'")]


def test_the_command_prints_the_differences_and_exits_by_the_worst(tmp_path: Path, capsys) -> None:
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(WRONG, encoding="utf-8")
    empty = tmp_path / "empty.toml"
    empty.write_text("# nothing\n", encoding="utf-8")
    assert cli.main(["--lang", "en", "vectors", str(VECTORS / "mir.toml")]) == 0
    assert re.fullmatch(r".*mir\.toml: \d+ entries checked, all as written\n", capsys.readouterr().out)
    assert cli.main(["--lang", "en", "vectors", str(wrong)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{wrong}: wrong outcome: outcome: got 'success', expected 'failure'",
        f"{wrong}: a fine request: resolved, expected a refusal naming 'skill'",
        f"{wrong}: 2 of 2 entries differ"]
    assert cli.main(["--lang", "en", "vectors", str(empty), str(tmp_path / "none.toml")]) == 2
    said = capsys.readouterr().err.splitlines()
    assert said == [f"gmscreen vectors: {empty}: no [[case]] nor [[invalid]] entry",
                    f"gmscreen vectors: {tmp_path / 'none.toml'}: cannot read it: no such file or directory"]
    assert cli.main(["--lang", "en", "vectors"]) == 2 and "FILE" in capsys.readouterr().err
    assert "vectors FILE" in cli._subcommand_help()


def test_a_file_not_toml_is_one_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[case]\n", encoding="utf-8")
    with pytest.raises(VectorFileError, match="bad.toml"):
        check_file(bad)


def test_the_format_doc_ships_and_its_examples_run_and_check_clean() -> None:
    import tomllib

    blocks = re.findall(r"```(\w+)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert [lang for lang, _ in blocks] == ["python", "toml", "toml"]
    for lang, code in blocks:
        if lang == "python":
            exec(compile(code, str(DOC), "exec"), {})
        else:
            count, differences = check(tomllib.loads(code))
            assert count == 1 and differences == []
