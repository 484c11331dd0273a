"""validate / export / new / append_roll, in process: exit codes, messages, nothing written."""

from __future__ import annotations

import io
import re

import pytest

from _store_helpers import copy_sample, mir_result, snapshot
from gmscreen.campaign import CampaignError, Change, load_campaign, open_session, set_op
from gmscreen.campaign.commands import append_roll, cmd_export, cmd_new, cmd_validate
from gmscreen.campaign.rolllog import RollLog, rolls_path

PROBLEM_LINE = re.compile(r"^\S.*?(:\d+)?: (warning: )?([^:]+: )?.+$")


def run(fn, *args, **kw):
    out, err = io.StringIO(), io.StringIO()
    if fn is cmd_export:
        code = fn(*args, stdout=out, err=err, **kw)
    else:
        code = fn(*args, out=out, err=err, **kw)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.usefixtures("english")
def test_validate_a_valid_campaign(tmp_path):
    path = copy_sample(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = run(cmd_validate, path)
    assert code == 0 and err == ""
    assert out == f"{path}: valid (mir, 5 characters, 0 rolls in the log)\n"
    assert snapshot(tmp_path) == before


def test_validate_prints_every_problem_on_its_own_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('format = 1\nname = "x"\nsystem = "mir"\nsession = 0\n\n[[characters]]\nid = "A B"\n'
                    'name = "a"\nside = "enemy"\n', "utf-8")
    before = snapshot(tmp_path)
    code, out, err = run(cmd_validate, path)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) >= 3 and "Traceback" not in err
    for line in lines:
        assert line.startswith(f"{path}:") and PROBLEM_LINE.match(line), line
    assert any(line.startswith(f"{path}:4: session:") for line in lines)
    assert any(":9: characters[0].side:" in line for line in lines)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("content", [b"", b"\xff\xfe garbage", b"name = [unclosed\n", b"format = 99\nname='x'\n"])
def test_validate_never_tracebacks_and_never_writes(tmp_path, content):
    path = tmp_path / "c.toml"
    path.write_bytes(content)
    before = snapshot(tmp_path)
    code, out, err = run(cmd_validate, path)
    assert code == 2 and err.strip() and "Traceback" not in err
    assert all(line.startswith(f"{path}") for line in err.splitlines())
    assert snapshot(tmp_path) == before


def test_validate_missing_file(tmp_path):
    code, _, err = run(cmd_validate, tmp_path / "absent.toml")
    assert code == 2 and "absent.toml" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.usefixtures("english")
def test_validate_warnings_keep_exit_zero(tmp_path):
    path = copy_sample(tmp_path)
    with open_session(path) as s:
        request, result = mir_result(1)
        s.record_roll(who="A", line="a", request=request, result=result)
        s.record_roll(who="B", line="b", request=request, result=result)
    log = rolls_path(path)
    log.write_bytes(log.read_bytes()[:-30])                # a torn last roll
    before = snapshot(tmp_path)
    code, out, err = run(cmd_validate, path)
    assert code == 0 and "1 roll in the log" in out
    (warning,) = err.splitlines()
    assert warning.startswith(f"{log}:") and "warning:" in warning and "incomplete" in warning
    assert snapshot(tmp_path) == before


@pytest.mark.usefixtures("english")
def test_validate_refuses_a_roll_log_from_a_newer_gmscreen(tmp_path):
    path = copy_sample(tmp_path)
    (tmp_path / "camp.rolls.toml").write_text("format = 2\n", "utf-8")
    code, out, err = run(cmd_validate, path)
    assert code == 2 and out == ""
    assert err == f"{tmp_path / 'camp.rolls.toml'}:1: format: written by a newer gmscreen (roll log format 2); " \
                  "this version reads format 1\n"


@pytest.mark.usefixtures("english")
def test_validate_reports_a_journal_that_cannot_be_replayed(tmp_path):
    path = copy_sample(tmp_path)
    s = open_session(path)
    s.apply(Change("x", [set_op(s.campaign, ("notes",), "x")]))
    s._journal.close()
    s._rolls.close()
    s._lock_file.release()
    journal = tmp_path / "camp.journal.toml"
    journal.write_text(journal.read_text("utf-8").replace("revision = 1", "revision = 9"), "utf-8")
    before = snapshot(tmp_path)
    code, _, err = run(cmd_validate, path)
    assert code == 2 and "does not follow" in err
    assert snapshot(tmp_path) == before


def test_export_to_stdout_and_to_a_file(tmp_path):
    path = copy_sample(tmp_path)
    with open_session(path) as s:
        request, result = mir_result(3)
        s.record_roll(who="Loriane", line="loriane eloquence sd2", request=request, result=result)
        s.apply(Change("notes", [set_op(s.campaign, ("notes",), "Notes du moment")]))
        s._journal.close()      # a crash: the note lives only in the journal
        s._rolls.close()
        s._lock_file.release()
        s._closed = True
    before = snapshot(tmp_path)
    code, out, err = run(cmd_export, path)
    assert code == 0 and err == ""
    assert out.startswith("# Les geôles de Vaskov\n") and "Notes du moment" in out
    assert "| 1 |" in out and "loriane eloquence sd2" in out and "**réussite**" in out
    assert snapshot(tmp_path) == before
    target = tmp_path / "out" / "journal.md"
    target.parent.mkdir()
    code, out2, _ = run(cmd_export, path, target)
    assert code == 0 and out2 == "" and target.read_text("utf-8") == out


@pytest.mark.usefixtures("english")
def test_export_refuses_to_write_over_the_campaign(tmp_path):
    path = copy_sample(tmp_path)
    before = snapshot(tmp_path)
    for own in (path, tmp_path / "camp.rolls.toml", tmp_path / "camp.toml.bak"):
        code, _, err = run(cmd_export, path, own)
        assert code == 2 and "campaign's own files" in err
    assert snapshot(tmp_path) == before


def test_export_of_a_bad_campaign(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("format = 1\n", "utf-8")
    code, out, err = run(cmd_export, path)
    assert code == 2 and out == "" and "Traceback" not in err and err.startswith(str(path))


@pytest.mark.usefixtures("english")
def test_new_creates_a_campaign(tmp_path):
    path = tmp_path / "ma_campagne.toml"
    code, out, err = run(cmd_new, path, "mir")
    assert code == 0 and err == ""
    assert out == f'{path}: new MIR campaign "ma campagne" (format 1)\n'
    campaign = load_campaign(path)
    assert campaign.system == "mir" and campaign.name == "ma campagne" and campaign.characters == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ma_campagne.toml"]
    with open_session(path) as s:
        assert not s.read_only


@pytest.mark.usefixtures("english")
def test_new_never_overwrites(tmp_path):
    path = copy_sample(tmp_path)
    before = snapshot(tmp_path)
    code, _, err = run(cmd_new, path, "mir")
    assert code == 2 and "already exists" in err
    assert snapshot(tmp_path) == before
    fresh = tmp_path / "fresh.toml"
    (tmp_path / "fresh.rolls.toml").write_text("format = 1\n", "utf-8")
    code, _, err = run(cmd_new, fresh, "mir")
    assert code == 2 and "fresh.rolls.toml: already exists" in err and not fresh.exists()


@pytest.mark.usefixtures("english")
def test_new_with_a_bad_system_or_folder(tmp_path):
    code, _, err = run(cmd_new, tmp_path / "x.toml", "donjons")
    assert code == 2 and "system" in err and "mir" in err and not list(tmp_path.iterdir())
    code, _, err = run(cmd_new, tmp_path / "missing" / "x.toml", "mir")
    assert code == 2 and "cannot create" in err and "Traceback" not in err


def test_append_roll_records_in_the_campaign_log(tmp_path):
    path = copy_sample(tmp_path)
    request, result = mir_result(4)
    err = io.StringIO()
    rec = append_roll(path, who="Alexis", line="alexis tir sd2", request=request, result=result, seed=4, err=err)
    assert rec.seq == 1 and rec.session == 3 and rec.seed == 4 and err.getvalue() == ""
    assert RollLog.load(rolls_path(path)).records == [rec]


def test_append_roll_while_the_screen_holds_the_campaign(tmp_path):
    path = copy_sample(tmp_path)
    with open_session(path) as s:
        s.apply(Change("session 4", [set_op(s.campaign, ("session",), 4)]))      # journalled, not saved
        request, result = mir_result(1)
        s.record_roll(who="A", line="a", request=request, result=result)
        rec = append_roll(path, who="CLI", line="cli", request=request, result=result, seed=1, err=io.StringIO())
        assert rec.seq == 2 and rec.session == 4                                # the journal is read too
        mine = s.record_roll(who="B", line="b", request=request, result=result)
        assert mine.seq == 3 and [r.who for r in s.rolls] == ["A", "CLI", "B"]


def test_append_roll_to_a_bad_campaign_raises_and_writes_nothing(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('format = 1\nname = "x"\n', "utf-8")
    before = snapshot(tmp_path)
    with pytest.raises(CampaignError) as exc:
        append_roll(path, who="A", line="a", request={}, result={}, seed=None)
    assert "system" in str(exc.value)
    assert snapshot(tmp_path) == before
