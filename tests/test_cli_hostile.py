"""Hostile input to the command line: too deep, too big, control characters.

Every reader ends in one line on stderr and exit status 2 (or a warning for one damaged
log entry), never a traceback; nothing a command prints, on stdout or stderr, carries a
control character from a file or an argument: each shows escaped (`\\x1b`). Most tests
call `main([...])` in-process; a few run the real command to see the bytes a terminal gets.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen import cli, rules
from gmscreen.rules import registry
from gmscreen.campaign import safeload
from gmscreen.campaign.journal import journal_path
from gmscreen.campaign.rolllog import rolls_path
from gmscreen.campaign.samples import sample_path

from _cli_helpers import assert_one_line_error, cli_english, cli_french, run  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[1]
DEEP = "[" * 100_000
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOSTILE = "Chien\x1b#8\x07\x9b31m\rZ"
REQUEST = {"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2}


def assert_no_controls(*texts: str) -> None:
    for text in texts:
        assert not RAW_CONTROLS.search(text), repr(text)


def stdin_bytes(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# ---------------------------------------------------------------- too deep


@pytest.mark.parametrize("command", ["resolve", "odds"])
@pytest.mark.parametrize("text", [DEEP, '{"a":' * 100_000, '{"system": "mir", "dice": ' + DEEP],
                         ids=["arrays", "objects", "in-a-field"])
def test_deep_json_on_stdin_is_one_line(command, text, monkeypatch, capsys):
    stdin_bytes(monkeypatch, text.encode())
    assert_one_line_error(*run(capsys, command, "-"), f"gmscreen {command}: <stdin>:1:", "nested more than 8 levels",
                          "expected a request table")


@pytest.mark.parametrize("command", ["resolve", "odds"])
@pytest.mark.parametrize("suffix, text, line", [
    (".toml", 'system = "mir"\nkind = "simple"\npool = ' + DEEP, 3),
    (".toml", 'system = "mir"\nx = ' + "{a = " * 50_000 + "\n", 2),
    (".json", '{\n"pool":\n' + DEEP, 3),
], ids=["toml-array", "toml-table", "json-file"])
def test_deep_request_file_is_one_line_with_its_line(command, suffix, text, line, tmp_path, capsys):
    path = tmp_path / f"r{suffix}"
    path.write_text(text)
    assert_one_line_error(*run(capsys, command, str(path)), f"{path}:{line}:", "nested more than 8 levels")


def test_a_request_value_nested_too_deep_is_named_by_its_key(tmp_path, capsys):
    path = tmp_path / "r.toml"
    path.write_text('system = "mir"\nkind = "simple"\ndifficulty = 2\npool = ' + "[" * 10 + "]" * 10 + "\n")
    assert_one_line_error(*run(capsys, "resolve", str(path)), f"{path}:4: pool[0][0]", "nested more than 8")


# ---------------------------------------------------------------- too big, not text


def test_a_request_file_larger_than_the_limit_is_refused_unread(tmp_path, capsys):
    path = tmp_path / "r.toml"
    with open(path, "wb") as fh:
        fh.truncate(safeload.MAX_REQUEST_BYTES + 1)
    for command in ("resolve", "odds"):
        assert_one_line_error(*run(capsys, command, str(path)), "larger than 4 MiB", "expected a request")


def test_stdin_larger_than_the_limit_is_refused(monkeypatch, capsys):
    stdin_bytes(monkeypatch, b" " * (safeload.MAX_REQUEST_BYTES + 10))
    assert_one_line_error(*run(capsys, "resolve", "-"), "<stdin>: larger than 4 MiB")


def test_stdin_that_is_not_utf8_is_one_line(monkeypatch, capsys):
    stdin_bytes(monkeypatch, b'{"system":\n "\xff"}')
    assert_one_line_error(*run(capsys, "resolve", "-"), "<stdin>:2: not UTF-8")


# ---------------------------------------------------------------- campaign files: validate, export


@pytest.fixture
def camp(tmp_path) -> Path:
    path = tmp_path / "c.toml"
    shutil.copyfile(sample_path("mir"), path)
    return path


def _roll(seq: int, who: str = "Loriane") -> str:
    return (f'\n[[roll]]\nseq = {seq}\ntime = "2025-03-01T21:04:11+01:00"\nsession = 1\nwho = {json.dumps(who)}\n'
            f'line = "6d12 sd2"\nrequest = {{ system = "mir", kind = "simple", pool = 6, difficulty = 2 }}\n'
            f'result = {{ system = "mir", kind = "simple", outcome = "success" }}\n')


def test_validate_a_deep_roll_among_intact_ones_warns_and_stays_valid(camp, capsys):
    rolls_path(camp).write_text("format = 1\n" + _roll(1) + f"\n[[roll]]\nseq = 2\nwho = {DEEP}\n" + _roll(3))
    status, out, err = run(capsys, "validate", str(camp))
    assert status == 0 and "2 rolls in the log" in out
    assert "warning: roll[1]: nested too deeply to read" in err and "Traceback" not in err


@pytest.mark.parametrize("which", ["journal", "rolls"])
def test_validate_a_log_that_is_only_deep_nesting_is_one_error(which, camp, capsys):
    target = journal_path(camp) if which == "journal" else rolls_path(camp)
    target.write_text(f"x = {DEEP}\n")
    assert_one_line_error(*run(capsys, "validate", str(camp)), f"{target}:1:", "nested too deeply",
                          "expected a format line")


def test_validate_a_deep_campaign_file_is_one_error(tmp_path, capsys):
    path = tmp_path / "c.toml"
    path.write_text(f'format = 1\nname = "x"\nsystem = "mir"\nnotes = {DEEP}\n')
    assert_one_line_error(*run(capsys, "validate", str(path)), f"{path}:4:", "nesting deeper than the schema")


def test_export_skips_a_deep_roll_with_a_warning(camp, capsys):
    rolls_path(camp).write_text("format = 1\n" + _roll(1) + f"\n[[roll]]\nseq = 2\nwho = {DEEP}\n" + _roll(3))
    status, out, err = run(capsys, "export", str(camp))
    assert status == 0
    assert "| 1 |" in out and "| 3 |" in out and "| 2 |" not in out
    assert "nested too deeply" in err


def test_roll_on_a_campaign_with_a_deep_journal_is_one_line(camp, capsys):
    journal_path(camp).write_text(f"x = {DEEP}\n")
    assert_one_line_error(*run(capsys, "roll", "mir", "--pool", "3", "--difficulty", "2", "--campaign", str(camp),
                               "--who", "A"), "--campaign:", "nested too deeply")


# ---------------------------------------------------------------- control characters in every output


def _hostile_campaign(tmp_path: Path, name: str = "c.toml") -> Path:
    path = tmp_path / name
    text = sample_path("mir").read_text(encoding="utf-8")
    toml_hostile = json.dumps(HOSTILE)          # a TOML basic string too
    text = re.sub(r'^name = ".*"$', lambda _: f"name = {toml_hostile}", text, count=1, flags=re.M)
    text = text.replace('name = "Loriane"', f"name = {toml_hostile}", 1)
    path.write_text(text, encoding="utf-8")
    rolls_path(path).write_text("format = 1\n" + _roll(1, HOSTILE) + _roll(2, "Bob\x1b[2J\u202e"))
    return path


def test_export_stdout_and_file_carry_no_control_character(tmp_path, capsys):
    camp = _hostile_campaign(tmp_path)
    status, out, err = run(capsys, "export", str(camp))
    assert status == 0
    assert_no_controls(out.replace("\n", ""), err.replace("\n", ""))
    assert "Chien\\x1b#8\\x07\\x9b31m\\rZ" in out
    assert "Bob\\x1b\\[2J\\u202e" in out
    target = tmp_path / "out.md"
    assert run(capsys, "export", str(camp), "-o", str(target))[0] == 0
    assert_no_controls(target.read_text(encoding="utf-8").replace("\n", ""))
    # Each table row is still one row of six cells.
    for line in target.read_text(encoding="utf-8").splitlines():
        if line.startswith("| 1 |") or line.startswith("| 2 |"):
            assert len(re.findall(r"(?<!\\)\|", line)) == 7, line


def test_validate_output_carries_no_control_character(tmp_path, capsys):
    camp = _hostile_campaign(tmp_path, "c\x1b]0;titre\x07.toml")
    status, out, err = run(capsys, "validate", str(camp))
    assert status == 0
    assert_no_controls(out.replace("\n", ""), err.replace("\n", ""))
    assert "c\\x1b]0;titre\\x07.toml: valid" in out


def test_new_prints_the_file_name_escaped(tmp_path, capsys):
    status, out, err = run(capsys, "new", str(tmp_path / "x\x1b[31m\x9b.toml"), "--system", "mir")
    assert status == 0 and err == ""
    assert_no_controls(out.replace("\n", ""))
    assert "x\\x1b[31m\\x9b.toml" in out


def test_errors_on_stderr_show_arguments_escaped(tmp_path, capsys):
    missing = str(tmp_path / "nul\x1b[2Jpart\x07.toml")
    for args in (("validate", missing), ("export", missing), ("resolve", missing), ("odds", missing),
                 ("roll", "mir", "--pool", "3", "--difficulty", "2", "--campaign", missing, "--who", "A"),
                 ("new", str(tmp_path / "y.toml"), "--system", "m\x1bir"),
                 ("systems", "--bad\x9b")):
        status, out, err = run(capsys, *args)
        assert status == 2 and "Traceback" not in err, args
        assert_no_controls(out.replace("\n", ""), err.replace("\n", ""))


@pytest.fixture
def hostile_game(monkeypatch):
    """The MIR system under a game name holding controls: text output must show them escaped."""
    mir = rules.get_system("mir")
    monkeypatch.setitem(registry._systems, "mir", dataclasses.replace(mir, game="MIR\x1b]0;t\x07\x9b"))


@pytest.mark.parametrize("args", [
    ("systems",),
    ("systems", "--json"),
    ("roll", "mir", "--pool", "6", "--difficulty", "2", "--dice", "1,5,4,6,11,12"),
    ("odds", "mir", "--pool", "6", "--difficulty", "2"),
    ("odds", "mir", "--pool", "6", "--difficulty", "2", "--json"),
])
def test_text_output_of_roll_odds_and_systems_escapes_controls(args, hostile_game, capsys):
    status, out, err = run(capsys, *args)
    assert status == 0, err
    assert_no_controls(out.replace("\n", ""), err)
    if "--json" in args:
        json.loads(out)            # still valid JSON
    else:
        assert "MIR\\x1b]0;t\\x07\\x9b" in out


def test_json_output_escapes_c1_the_json_way(monkeypatch, capsys):
    text = cli.dump({"who": "a\x9b[2J\x1b\u202e\x7f"})
    assert_no_controls(text)
    assert json.loads(text) == {"who": "a\x9b[2J\x1b\u202e\x7f"}
    # A field the rules refuse is named with its value, escaped, on one line.
    stdin_bytes(monkeypatch, json.dumps({**REQUEST, "hidden": "\x9b\x1b"}).encode())
    assert_one_line_error(*run(capsys, "resolve", "-"), "hidden:")


# ---------------------------------------------------------------- the real command (a few)


def _gmscreen(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "gmscreen", *args], input=stdin, capture_output=True,
                          cwd=REPO, env=env, timeout=60)


def test_subprocess_deep_json_on_stdin_exits_2_with_one_line():
    proc = _gmscreen("resolve", "-", stdin=DEEP.encode())
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.count(b"\n") == 1 and b"Traceback" not in proc.stderr
    assert b"nested more than 8 levels" in proc.stderr


def test_subprocess_export_and_validate_bytes_hold_no_control(tmp_path):
    camp = _hostile_campaign(tmp_path)
    journal_path(camp).write_text(f"x = {DEEP}\n")
    proc = _gmscreen("validate", str(camp))
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    journal_path(camp).unlink()
    proc = _gmscreen("export", str(camp))
    assert proc.returncode == 0
    for stream in (proc.stdout, proc.stderr):
        assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", stream), stream
    assert b"Chien\\x1b#8" in proc.stdout
