"""The roll log read from its end (the screen) and one session of it (`export --session`):
the same rolls as a whole read, whatever the log's length, layout or reveals."""

from __future__ import annotations

import io

import pytest

from _store_helpers import mir_result
from gmscreen.campaign.commands import cmd_export
from gmscreen.campaign.model import RollRecord
from gmscreen.campaign.rolllog import _HEADER, RollLog, append_one, format_reveal, format_roll, rolls_path
from gmscreen.campaign.rolltail import CHUNK_ROLLS, LazyRecords
from gmscreen.play.logline import log_line
from gmscreen.rules import get_system

pytestmark = pytest.mark.usefixtures("english")


def write_log(path, rolls: int, *, per_session: int = 100, reveals=(), extra: str = "") -> None:
    """`rolls` rolls as gmscreen writes them (every 7th GM-only), then `[[reveal]]` entries
    (after roll `at`: reveal `seq`), then `extra` text."""
    request, result = mir_result(1)
    after = {}
    for at, seq in reveals:
        after.setdefault(at, []).append(seq)
    parts = [_HEADER.format(campaign="c.toml")]
    for seq in range(1, rolls + 1):
        parts.append(format_roll(RollRecord(seq, "2025-03-01T21:04:11+01:00", 1 + seq // per_session, f"P{seq}",
                                            f"p{seq} tir sd2", request, result, seq % 7 == 0, False, seq)))
        parts += [format_reveal(s, "2025-03-01T22:00:00+01:00") for s in after.get(seq, ())]
    path.write_text("".join(parts) + extra, encoding="utf-8")


def read_from_tail(path, tail: int = 100) -> RollLog:
    log = RollLog.load_recent(path, tail)
    log.install_index(log.index_older())
    return log


def test_the_tail_alone_is_parsed_then_the_older_rolls_on_demand(tmp_path):
    path = tmp_path / "c.rolls.toml"
    write_log(path, 1000, reveals=[(10, 7), (995, 14), (996, 980)])
    log = RollLog.load_recent(path, 100)
    records = log.records
    assert isinstance(records, LazyRecords)
    assert len(records) == 100 and records[0].seq == 901 and log.last_seq == 1000
    assert records[-21].revealed                    # 980, revealed in the tail
    log.install_index(log.index_older())
    assert len(records) == 1000 and records.parsed == 0
    assert records[13].seq == 14 and records[13].revealed     # revealed in the tail, older than it
    assert records.parsed == CHUNK_ROLLS
    assert log.by_seq.get(7).revealed and records.index_of(500) == 499
    assert list(records) == RollLog.load(path).records
    assert log.warnings == []


def test_the_index_pauses_before_each_piece_it_reads(tmp_path, monkeypatch):
    """A worker thread indexing a long log can give way to the screen between pieces."""
    from gmscreen.campaign import rolltail

    path = tmp_path / "c.rolls.toml"
    write_log(path, 1000)
    monkeypatch.setattr(rolltail, "_PIECE", 4096)
    log = RollLog.load_recent(path, 100)
    pauses = []
    index = log.index_older(pause=lambda: pauses.append(1))
    older = log.records.older_end
    assert len(pauses) >= older // 4096 and len(index.seqs) == 900
    log.install_index(index)
    assert list(log.records) == RollLog.load(path).records


def test_a_torn_last_entry_is_left_out_and_cut_by_the_next_roll(tmp_path):
    path = tmp_path / "c.rolls.toml"
    write_log(path, 300, extra="\n[[roll]]\nseq = 301\ntime = ")
    log = read_from_tail(path)
    assert len(log.records) == 300 and "incomplete" in str(log.warnings[0])
    log.open_append()
    request, result = mir_result(2)
    log.record(session=9, who="X", line="x", request=request, result=result)
    log.close()
    assert [r.seq for r in RollLog.load(path).records] == list(range(1, 302))


def test_a_log_laid_out_by_hand_is_read_whole_and_right(tmp_path):
    path = tmp_path / "c.rolls.toml"
    write_log(path, 300)
    text = path.read_text("utf-8").replace("[[roll]]\nseq = 5\ntime", "[[roll]]\ntime", 1).replace(
        "who = \"P5\"", "who = \"P5\"\nseq = 5", 1)
    path.write_text(text, "utf-8")
    log = read_from_tail(path)
    assert list(log.records) == RollLog.load(path).records and len(log.records) == 300


def test_an_older_entry_damaged_by_hand_keeps_its_place(tmp_path):
    path = tmp_path / "c.rolls.toml"
    write_log(path, 300)
    path.write_text(path.read_text("utf-8").replace('who = "P5"', 'who = "P5', 1), "utf-8")
    log = read_from_tail(path)
    assert len(log.records) == 300 and [r.seq for r in log.records][:6] == [1, 2, 3, 4, 5, 6]
    damaged = log.records[4]
    assert damaged.line == "?"
    assert log_line(damaged, get_system("mir")).who == ""      # shown, not a crash


def test_rolls_appended_by_another_process_are_followed(tmp_path):
    path = tmp_path / "c.rolls.toml"
    write_log(path, 300)
    log = read_from_tail(path)
    log.open_append()
    assert log.follow() == 0
    request, result = mir_result(3)
    append_one(path, campaign_name="c.toml", session=4, who="Autre", line="autre tir sd2", request=request,
               result=result)
    assert log.follow() == 1
    assert log.records[-1].who == "Autre" and log.records[-1].seq == 301 and len(log.records) == 301
    log.close()


def test_a_reader_that_must_not_write_follows_read_only_and_waits_for_a_whole_entry(tmp_path):
    """The player view's way: a log only readable, appended by another process, an entry caught
    half written; nothing is created or locked beside the log."""
    path = tmp_path / "c.rolls.toml"
    write_log(path, 300, reveals=[(300, 7)])
    path.chmod(0o444)
    log = RollLog.load_recent(path, 30)
    assert log.read_appended() == 0
    request, result = mir_result(3)
    path.chmod(0o644)
    append_one(path, campaign_name="c.toml", session=4, who="Autre", line="autre tir sd2", request=request,
               result=result)
    whole = path.read_bytes()
    entry = whole.rindex(b"[[roll]]")
    path.write_bytes(whole[: entry + 40])           # the entry half written
    path.chmod(0o444)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert log.read_appended() == 0 and log.warnings == []
    path.chmod(0o644)
    path.write_bytes(whole + format_reveal(301, "2025-03-01T22:00:00+01:00").encode())
    path.chmod(0o444)
    assert log.read_appended() == 1
    assert log.records[-1].who == "Autre" and log.records[-1].seq == 301 and log.records[-1].revealed
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("session", [1, 2, 5, 10, 11])
def test_one_session_read_alone_is_that_session_of_the_whole(tmp_path, session):
    path = tmp_path / "c.rolls.toml"
    write_log(path, 1000, reveals=[(150, 140), (999, 126), (700, 7)])
    one = RollLog.load_session(path, session)
    assert one.records == [r for r in RollLog.load(path).records if r.session == session]
    assert one.warnings == []


def test_sessions_numbered_out_of_order_by_hand_are_still_found(tmp_path):
    path = tmp_path / "c.rolls.toml"
    write_log(path, 500)
    request, result = mir_result(4)
    append_one(path, campaign_name="c.toml", session=2, who="Retour", line="x", request=request, result=result)
    one = RollLog.load_session(path, 2)
    assert [r.who for r in one.records][-1] == "Retour"
    assert one.records == [r for r in RollLog.load(path).records if r.session == 2]


def test_export_of_one_session(tmp_path):
    import shutil

    from gmscreen.campaign import sample_path

    campaign = tmp_path / "c.toml"
    shutil.copyfile(sample_path("mir"), campaign)
    write_log(rolls_path(campaign), 450)
    out = io.StringIO()
    assert cmd_export(campaign, stdout=out, err=io.StringIO(), session=3) == 0
    text = out.getvalue()
    assert "Session 3" in text and "Session 2" not in text and "Session 4" not in text
    assert "| P200 |" in text and "| P299 |" in text
    assert "| P199 |" not in text and "| P300 |" not in text
