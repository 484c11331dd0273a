"""A roll log entry over a limit (`session = 10**30`), seen by `validate`, `export` and `recap`:
each says it in one line naming the file, the line, the entry and the range expected, goes on
with the other rolls, and shows no traceback. `--seed` takes the range the log keeps."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gmscreen.campaign.model import RollRecord
from gmscreen.campaign.rolllog import _HEADER, format_roll, rolls_path
from gmscreen.campaign.samples import sample_path
from gmscreen.rules import resolve

from _cli_helpers import cli_english, run  # noqa: F401 (fixture)

REQUEST = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2}
RESULT = resolve(REQUEST, seed=1)        # a whole result: the log's entries are real rolls
WORDS = "warning: roll[1]: session: expected an integer from 1 to 1,000,000, got 100000000000… (31 digits): " \
        "roll log entry ignored"


@pytest.fixture
def camp(tmp_path) -> Path:
    path = tmp_path / "c.toml"
    shutil.copyfile(sample_path("mir"), path)     # its session: 3
    rolls = [format_roll(RollRecord(seq, "2025-03-01T21:04:11+01:00", 3, "Loriane", f"roll {seq}", REQUEST, RESULT))
             for seq in (1, 2, 3)]
    rolls[1] = rolls[1].replace("session = 3\n", f"session = {10**30}\n")
    text = _HEADER.format(campaign="c.toml") + "".join(rolls)
    rolls_path(path).write_text(text, "utf-8")
    return path


def _where(camp: Path) -> str:
    text = rolls_path(camp).read_text("utf-8")
    return f"{rolls_path(camp)}:{text.count(chr(10), 0, text.index('seq = 2')):d}:"


def test_validate_says_the_entry_in_one_line_and_stays_valid(camp, capsys):
    status, out, err = run(capsys, "validate", str(camp))
    assert status == 0 and "2 rolls in the log" in out
    assert err == f"{_where(camp)} {WORDS}\n"


def test_export_says_it_in_one_line_and_exports_the_others(camp, capsys, tmp_path):
    status, out, err = run(capsys, "export", str(camp))
    assert status == 0 and err == f"{_where(camp)} {WORDS}\n"
    assert "| 1 |" in out and "| 3 |" in out and "| 2 |" not in out
    status, _, err = run(capsys, "export", str(camp), "-o", str(tmp_path / "out.md"))
    assert status == 0 and err == f"{_where(camp)} {WORDS}\n"
    assert (tmp_path / "out.md").read_text("utf-8") == out


def test_recap_says_it_in_one_line(camp, capsys):
    status, out, err = run(capsys, "recap", str(camp))
    assert status == 0 and "Traceback" not in err
    assert err.count("\n") == 1 and WORDS in err and _where(camp) in err
    assert "2 rolls this session" in out


@pytest.mark.parametrize("seed", ["-1", str(2**63), "9" * 5000])
def test_a_seed_outside_what_the_log_keeps_is_one_line(seed, capsys):
    status, out, err = run(capsys, "roll", "mir", "--pool", "3", "--difficulty", "2", "--seed", seed)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "expected an integer seed from 0 to 9223372036854775807" in err
