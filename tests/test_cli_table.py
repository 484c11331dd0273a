"""`gmscreen line` and `gmscreen turn`: the table played from a shell, on real campaign files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, sample_path
from gmscreen.campaign.pending import pending_path
from gmscreen.campaign.session import open_session

from _cli_helpers import assert_one_line_error, cli_english, cli_french, run  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def copy_sample(tmp_path: Path):
    def copy(system: str) -> Path:
        target = tmp_path / f"{system}.toml"
        shutil.copyfile(sample_path(system), target)
        return target
    return copy


def _rolls(path: Path) -> list:
    with open_session(path, read_only=True) as session:
        return list(session.rolls)


def test_a_line_is_rolled_logged_and_printed_as_the_tray_reads_it(capsys, copy_sample) -> None:
    path = copy_sample("mir")
    status, out, err = run(capsys, "line", str(path), "loriane eloquence sd3", "--seed", "4")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "#1 Loriane · loriane eloquence sd3"
    assert lines[1] == "MIR · simple test" and "SD 3" in out
    [record] = _rolls(path)
    assert record.line == "loriane eloquence sd3" and record.request["difficulty"] == 3
    assert record.request == {"system": "mir", "kind": "simple", "skill": 3, "voie": 2, "difficulty": 3}


def test_json_gives_the_logged_roll_and_the_same_seed_replays_it(capsys, copy_sample) -> None:
    path = copy_sample("mir")
    _, first, _ = run(capsys, "line", str(path), "loriane eloquence sd3", "--json", "--seed", "7")
    _, second, _ = run(capsys, "line", str(path), "loriane eloquence sd3", "--json", "--seed", "7")
    one, two = json.loads(first), json.loads(second)
    assert (one["seq"], two["seq"]) == (1, 2)
    assert one["result"] == two["result"] and one["result"]["outcome"] in ("success", "failure",
                                                                           "critical_success")
    assert [r.result for r in _rolls(path)] == [one["result"], two["result"]]


def test_a_choice_takes_the_odds_policy_or_the_key_given_and_spends_on_the_sheet(capsys, copy_sample) -> None:
    path = copy_sample("tedeum")
    before = load_campaign(path).characters[0].sheet["resources"]["providence"]
    # The odds assume no Providence: the sheet keeps its die.
    _, out, _ = run(capsys, "line", str(path), "louvensac entregent 6", "--json", "--seed", "3")
    roll = json.loads(out)
    assert [a["key"] for a in roll["answers"]] == ["n"] and roll["spent"] == []
    assert load_campaign(path).characters[0].sheet["resources"]["providence"] == before
    # `--choose p` calls the Providence: its die steps down on the sheet, as in the tray.
    _, out, _ = run(capsys, "line", str(path), "louvensac entregent 6", "--json", "--seed", "3", "--choose", "p")
    roll = json.loads(out)
    assert [a["key"] for a in roll["answers"]] == ["p"] and roll["spent"]
    assert load_campaign(path).characters[0].sheet["resources"]["providence"] == before - 2
    assert roll["request"]["use_providence"] is True


def test_a_bad_line_or_key_is_one_error_line_and_writes_nothing(capsys, copy_sample) -> None:
    path = copy_sample("tedeum")
    text = path.read_bytes()
    assert_one_line_error(*run(capsys, "line", str(path), "louvensac zzz"), "gmscreen line", "zzz")
    assert_one_line_error(*run(capsys, "line", str(path), "louvensac\x1b[2J entregent 6"), "\\x1b")
    assert path.read_bytes() == text and _rolls(path) == []


def test_a_campaign_open_in_another_gmscreen_is_refused(capsys, copy_sample) -> None:
    path = copy_sample("mir")
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from gmscreen.campaign.session import open_session\n"
        f"s = open_session({str(path)!r}, if_locked='raise'); print('locked', flush=True); time.sleep(30)")],
        cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        for args in (("line", str(path), "loriane eloquence sd3"), ("turn", str(path), "next")):
            assert_one_line_error(*run(capsys, *args), "open in another gmscreen")
    finally:
        holder.kill()
        holder.wait()
    assert _rolls(path) == []


@pytest.mark.usefixtures("cli_french")
def test_turns_tick_and_previous_gives_the_ticks_back_across_runs(capsys, copy_sample) -> None:
    path = copy_sample("mir")
    assert load_campaign(path).encounter.round == 2
    _, out, _ = run(capsys, "turn", str(path), "next", "--json")
    first = json.loads(out)
    _, out, _ = run(capsys, "turn", str(path), "next", "--json")
    second = json.loads(out)
    assert second["notices"] and "expire" in " ".join(second["notices"])
    conditions = load_campaign(path).characters
    _, out, _ = run(capsys, "turn", str(path), "previous", "--json")
    back = json.loads(out)
    assert back["current"] == first["current"] and "revient" in " ".join(back["notices"])
    assert load_campaign(path).characters != conditions      # the condition is back on its sheet


def test_turn_in_a_campaign_with_nobody_in_the_fight_is_one_error(capsys, copy_sample, tmp_path: Path) -> None:
    path = tmp_path / "new.toml"
    assert run(capsys, "new", str(path), "--system", "eclats")[0] == 0
    assert_one_line_error(*run(capsys, "turn", str(path), "next"), "gmscreen turn")


def test_choose_and_policy_reach_the_second_sides_choice(capsys, copy_sample) -> None:
    path = copy_sample("tedeum")
    text = path.read_text(encoding="utf-8").replace('side = "npc"', 'side = "party"', 1)   # Saint-Gelais a PC
    path.write_text(text, encoding="utf-8")
    line = "saint-gelais étiquette vs louvensac étiquette"
    # Two keys: the second answers the defender, whose die steps down on her own sheet.
    status, out, err = run(capsys, "line", str(path), line, "--json", "--seed", "2", "--choose", "np",
                           "--policy", "enter")
    assert status == 0, err
    roll = json.loads(out)
    assert [a["key"] for a in roll["answers"]] == ["n", "p"] and roll["request"]["opponent_use_providence"] is True
    assert "Louvensac" in roll["answers"][1]["question"]
    # One key given: the attacker's; the defender's question takes the odds' choice (without).
    _, out, _ = run(capsys, "line", str(path), line, "--json", "--seed", "2", "--choose", "p")
    roll = json.loads(out)
    assert [a["key"] for a in roll["answers"]] == ["p", "n"] and "opponent_use_providence" not in roll["request"]
    campaign = load_campaign(path)
    assert campaign.character("louvensac").sheet["resources"]["providence"] == 4
    assert campaign.character("saint-gelais").sheet["resources"]["providence"] == 0      # D4 used once: gone


def _gmscreen(*args: str, stdout: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gmscreen", *args], cwd=REPO, stdout=stdout,
                            stderr=subprocess.PIPE, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO),
                                                         "LANGUAGE": "en"})


@pytest.mark.parametrize("reader", ["head -c1", "closed at once"])
def test_a_roll_printed_to_a_reader_that_left_is_logged_once_and_succeeds(copy_sample, reader: str) -> None:
    """`gmscreen line ... | head -c1`: the roll is logged, so the command succeeds (exit 0, no
    traceback); before, it exited 2 and a script that retries logged it twice. The Éclats line
    ending in `=` (no die) also printed a traceback once logged."""
    path = copy_sample("eclats")
    args = ("line", str(path), "ysaure emp calmer 15 =")
    if reader == "head -c1":
        line = _gmscreen(*args, stdout=subprocess.PIPE)
        head = subprocess.Popen(["head", "-c1"], stdin=line.stdout, stdout=subprocess.PIPE)
        line.stdout.close()                      # head holds the only reading end
        assert head.communicate(timeout=60)[0] == b"#"
    else:
        line = _gmscreen(*args, stdout=subprocess.PIPE)
        line.stdout.close()                      # nobody reads: the first write fails
    err = line.stderr.read()
    assert line.wait(60) == 0 and err == b""
    assert [r.line for r in _rolls(path)] == ["ysaure emp calmer 15 ="]


def test_a_turn_printed_to_a_reader_that_left_is_moved_once_and_succeeds(copy_sample) -> None:
    path = copy_sample("mir")
    before = load_campaign(path).encounter
    turn = _gmscreen("turn", str(path), "next", stdout=subprocess.PIPE)
    turn.stdout.close()
    err = turn.stderr.read()
    assert turn.wait(60) == 0 and err == b""
    after = load_campaign(path).encounter
    assert (after.round, after.turn) != (before.round, before.turn)


def test_a_key_too_many_is_refused_before_anything_is_rolled(capsys, copy_sample) -> None:
    """`--choose` with one key more than the roll asks: one error, nothing logged nor kept
    (before: the roll was logged at its default, the rerolls made thrown away, then exit 2)."""
    path = copy_sample("eclats")
    line = "ysaure emp calmer 15"
    rolls = load_campaign(path).character("ysaure").sheet["characteristics"]["emp"]   # each reroll asked
    assert rolls >= 2
    text = path.read_bytes()
    status, out, err = run(capsys, "line", str(path), line, "--seed", "3", "--choose", "r" * rolls)
    assert_one_line_error(status, out, err, "--choose", "1 choice left over ('r')")
    assert _rolls(path) == [] and path.read_bytes() == text and not pending_path(path).exists()
    status, out, err = run(capsys, "line", str(path), line, "--seed", "3", "--choose", "r" * (rolls - 1), "--json")
    assert status == 0, err
    [record] = _rolls(path)
    assert len(record.request["dice"]) == rolls == len(json.loads(out)["answers"]) + 1    # every reroll logged
