"""The limits of `gmscreen.campaign.limits`, enforced where data enters and where it is written.

A number out of its range, a number too long for Python, an entry or a timer too large: the
validator, the loader of the screen and the commands, and the roll log's readers (whole, from
its tail with the index of its older part, piece by piece) each report it with its place and
go on; every writer refuses (or, for the revision, counts again from 0) before writing it.
The log read piece by piece holds one piece at a time: proved by counting what it reads.
"""

from __future__ import annotations

import os
import re
import shutil
import tracemalloc
from pathlib import Path

import pytest

from gmscreen.campaign import _appendlog, limits, open_session, outside
from gmscreen.campaign.changes import ChangeError
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.journal import journal_path
from gmscreen.campaign.model import RollRecord
from gmscreen.campaign.pending import parse_pending
from gmscreen.campaign.rolllog import _HEADER, RollLog, append_one, format_reveal, format_roll, rolls_path
from gmscreen.campaign.rollstream import RollStream, SeqRanges
from gmscreen.campaign.samples import sample_path
from gmscreen.campaign.store import load_campaign
from gmscreen.campaign.validate import parse_campaign, validate_file

pytestmark = pytest.mark.usefixtures("english")

HUGE = 10**30
RESULT = {"system": "mir", "kind": "simple", "outcome": "success", "successes": 2, "dice": [7, 12, 3]}
REQUEST = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2}


def roll(seq: int, session: int = 1, **fields) -> str:
    return format_roll(RollRecord(seq, "2025-03-01T21:04:11+01:00", session, "Loriane", "loriane tir sd2",
                                  dict(REQUEST), dict(RESULT), seq % 5 == 0, False, fields.get("seed")))


def write_log(path: Path, chunks: list[str]) -> Path:
    path.write_text(_HEADER.format(campaign="c.toml") + "".join(chunks), "utf-8")
    return path


def line_of_roll(path: Path, index: int) -> int:
    text = path.read_text("utf-8")
    starts = [m.start() for m in re.finditer(r"^\[\[roll\]\]$", text, re.M)]
    return text.count("\n", 0, starts[index]) + 1


@pytest.fixture
def camp(tmp_path) -> Path:
    path = tmp_path / "c.toml"
    shutil.copyfile(sample_path("mir"), path)
    return path


# ---------------------------------------------------------------- a number out of range in the roll log


BAD_ENTRIES = [
    ("session", lambda: roll(3).replace("session = 1\n", f"session = {HUGE}\n"),
     "session: expected an integer from 1 to 1,000,000, got 100000000000… (31 digits)"),
    ("session", lambda: roll(3).replace("session = 1\n", "session = 0\n"),
     "session: expected an integer from 1 to 1,000,000, got 0"),
    ("seq", lambda: roll(3).replace("seq = 3\n", f"seq = {2**31}\n"),
     "seq: expected an integer from 1 to 2,147,483,647, got 2147483648"),
    ("seed", lambda: roll(3, seed=2**64),
     "seed: expected an integer from 0 to 9,223,372,036,854,775,807, got 18446744073709551616"),
    ("digits", lambda: roll(3).replace("session = 1\n", "session = " + "7" * 5000 + "\n"),
     "a number of more than 4,300 digits: too long to read"),
]


@pytest.mark.parametrize("key, bad, words", BAD_ENTRIES, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(BAD_ENTRIES)])
def test_an_entry_out_of_range_is_left_out_with_its_place_by_every_reader(tmp_path, key, bad, words):
    path = write_log(tmp_path / "c.rolls.toml", [roll(1), roll(2), bad(), roll(4), roll(5)])
    where = f"{path}:{line_of_roll(path, 2)}: warning: roll[2]: {words}: roll log entry ignored"
    whole = RollLog.load(path)
    assert [r.seq for r in whole.records] == [1, 2, 4, 5]
    assert [str(p) for p in whole.warnings] == [where]
    said = []
    stream = RollStream(path, on_problem=said.append)
    assert [r.seq for r in stream.rolls()] == [1, 2, 4, 5] and stream.count == 4
    assert [str(p) for p in said] == [where]


def test_the_screen_reads_the_tail_and_indexes_the_older_part_without_the_bad_entries(tmp_path):
    chunks = [roll(seq) for seq in range(1, 13)]
    chunks[1] = chunks[1].replace("session = 1\n", f"session = {HUGE}\n")      # in the older part
    chunks[10] = chunks[10].replace("seq = 11\n", f"seq = {HUGE}\n")           # in the tail
    path = write_log(tmp_path / "c.rolls.toml", chunks)
    log = RollLog.load_recent(path, tail=4)
    assert [r.seq for r in log.records] == [9, 10, 12]
    assert any("seq: expected an integer from 1 to 2,147,483,647" in str(p) for p in log.warnings)
    index = log.index_older()
    log.install_index(index)
    assert [str(p) for p in index.problems] == [
        f"{path}:{line_of_roll(path, 1)}: warning: roll[1]: session: expected an integer from 1 to 1,000,000, "
        f"got 100000000000… (31 digits): roll log entry ignored"]
    assert [r.seq for r in log.records] == [1, 3, 4, 5, 6, 7, 8, 9, 10, 12]
    assert all(1 <= log.records.session_of(i) <= limits.MAX_COUNT for i in range(len(log.records)))


def test_one_session_found_by_bisection_says_its_bad_entry_with_its_line(tmp_path):
    chunks = [roll(seq, 1 + seq // 50) for seq in range(1, 200)]
    chunks[120] = chunks[120].replace("seq = 121\n", f"seq = 121\nseed = {2**64}\n")
    path = write_log(tmp_path / "c.rolls.toml", chunks)
    log = RollLog.load_session(path, 3)
    assert [r.seq for r in log.records] == [n for n in range(100, 150) if n != 121]
    assert [str(p) for p in log.warnings] == [
        f"{path}:{line_of_roll(path, 120)}: warning: roll[120]: seed: expected an integer from 0 to "
        f"9,223,372,036,854,775,807, got 18446744073709551616: roll log entry ignored"]


def test_the_session_the_screen_opens_reads_such_a_log_without_a_traceback(camp):
    write_log(rolls_path(camp), [roll(1), roll(2).replace("session = 1\n", f"session = {HUGE}\n"), roll(3)])
    session = open_session(camp, read_only=True, defer_rolls=True)
    try:
        problems = session.load_rolls(tail=500)
        assert [r.seq for r in session.rolls] == [1, 3]
        assert any("session: expected an integer from 1 to 1,000,000" in str(p) for p in problems)
    finally:
        session.close()


# ---------------------------------------------------------------- numbers too long for Python


def test_a_number_too_long_in_the_campaign_is_one_error_with_its_line(camp):
    text = camp.read_text("utf-8").replace("session = 3", "session = " + "9" * 5000)
    camp.write_text(text, "utf-8")
    line = text[: text.index("session = 9")].count("\n") + 1
    assert [str(p) for p in validate_file(camp)] == [f"{camp}:{line}: a number of more than 4,300 digits: "
                                                     f"too long to read"]
    with pytest.raises(CampaignError):
        load_campaign(camp)


def test_a_number_too_long_in_a_pending_roll_is_a_campaign_error(tmp_path):
    from gmscreen.campaign.pending import read_pending

    path = tmp_path / "c.pending.toml"
    path.write_text('format = 1\nid = "x"\nsession = ' + "1" * 5000 + "\n", "utf-8")
    with pytest.raises(CampaignError, match="more than 4,300 digits"):
        read_pending(path)
    doc = {"format": 1, "id": "x", "campaign": "c.toml", "game": "mir", "time": "t", "who": "w", "line": "l",
           "session": HUGE, "request": {}, "result": {}}
    with pytest.raises(CampaignError, match="session: expected an integer from 1 to 1000000"):
        parse_pending(doc)


# ---------------------------------------------------------------- the campaign file


def test_revision_past_its_range_is_one_error_naming_the_range(camp):
    camp.write_text(f"revision = {2**64}\n" + camp.read_text("utf-8"), "utf-8")
    assert [str(p) for p in validate_file(camp)] == [
        f"{camp}:1: revision: expected the number of changes made to the campaign, an integer from 0 to 2147483647, "
        f"got 18446744073709551616"]


def _timer(dice_lists: int, per_list: int, round_stats: bool) -> str:
    rolls = ", ".join("[" + ", ".join(["7"] * per_list) + "]" for _ in range(dice_lists))
    return ('\n[[timers]]\nid = "sans-fin"\nlabel = "Un test sans fin"\nkind = "extended"\nwho = "loriane"\n'
            + ("round_stats = [{}]\n" if round_stats else "")
            + '\n[timers.request]\nsystem = "mir"\nkind = "extended"\nskill = 2\nvoie = 3\nthreshold = 99\n'
            + f"\n[timers.dice]\nrolls = [{rolls}]\n")


@pytest.mark.parametrize("round_stats", [False, True])
def test_a_timer_with_more_dice_than_a_real_test_rolls_is_refused_by_validator_and_loader(camp, round_stats):
    camp.write_text(camp.read_text("utf-8") + _timer(42, 250, round_stats), "utf-8")
    line = camp.read_text("utf-8").count("\n", 0, camp.read_text("utf-8").rindex("[timers.dice]")) + 1
    expected = [f"{camp}:{line}: timers[2].dice: too many dice: a timer keeps at most 10,000, got 10,500"]
    assert [str(p) for p in validate_file(camp) if not p.warning] == expected
    with pytest.raises(CampaignError) as caught:
        parse_campaign(camp.read_text("utf-8"), str(camp))
    assert [str(p) for p in caught.value.problems if not p.warning] == expected


# ---------------------------------------------------------------- what gmscreen writes


def test_changes_never_set_a_counter_or_a_timer_past_what_the_validator_takes(camp):
    session = open_session(camp)
    try:
        with pytest.raises(ChangeError, match=r"^session: expected an integer from 1 to 1,000,000, got 1000001$"):
            with session.edit("session") as b:
                b.set(("session",), limits.MAX_COUNT + 1)
        with pytest.raises(ChangeError, match="encounter.round: expected an integer from 0 to 1,000,000"):
            with session.edit("round") as b:
                b.set(("encounter", "round"), HUGE)
        with pytest.raises(ChangeError, match="timers.0.dice: too many dice"):
            with session.edit("dice") as b:
                b.set(("timers", 0, "dice"), {"rolls": [[7] * 100] * 101})
        assert session.history == [] and load_campaign(camp).session == session.campaign.session
    finally:
        session.close()


def test_the_next_interval_is_refused_before_a_timer_passes_its_dice():
    from gmscreen.campaign.model import Timer
    from gmscreen.play.tables import table_for
    from gmscreen.play.timers import interval_refusal

    timer = Timer("t", "Poursuite", kind="opposition", who="a", request={},
                  dice={"actor_dice": [10] * 4950, "opponent_dice": [10] * 4951})
    assert interval_refusal(None, timer, game=table_for("mir")) == (
        "Poursuite keeps 9,901 dice, the most a timer keeps: end it and start another")


def test_a_roll_is_never_written_with_a_number_the_reader_refuses(tmp_path):
    path = tmp_path / "c.rolls.toml"
    for session, seed, words in ((HUGE, None, "session: expected an integer from 1 to 1,000,000"),
                                 (1, -1, "seed: expected an integer from 0 to 9,223,372,036,854,775,807")):
        with pytest.raises(CampaignError, match=words):
            append_one(path, campaign_name="c.toml", session=session, who="x", line="y", request=REQUEST,
                       result=RESULT, seed=seed)
    write_log(path, [roll(limits.MAX_SEQ)])
    with pytest.raises(CampaignError, match="the log has reached roll number 2,147,483,647"):
        append_one(path, campaign_name="c.toml", session=1, who="x", line="y", request=REQUEST, result=RESULT)
    assert RollLog.load(path).warnings == []       # nothing half-written


def test_an_entry_too_large_is_never_written_and_is_left_out_when_found(tmp_path, monkeypatch):
    monkeypatch.setattr(_appendlog, "MAX_LOG_ENTRY_BYTES", 2000)
    monkeypatch.setattr("gmscreen.campaign.rolllog.MAX_LOG_ENTRY_BYTES", 2000)
    path = tmp_path / "c.rolls.toml"
    big = roll(2).replace('line = "loriane tir sd2"', 'line = "' + "x" * 3000 + '"')
    write_log(path, [roll(1), big, roll(3)] + [roll(n) for n in range(4, 40)])
    monkeypatch.setattr("gmscreen.campaign.rolltail.MAX_LOG_ENTRY_BYTES", 2000)
    recent = RollLog.load_recent(path, tail=10)
    index = recent.index_older()
    recent.install_index(index)
    assert 2 not in [r.seq for r in recent.records] and len(recent.records) == 38
    for problems in (RollLog.load(path).warnings, _streamed_problems(path), index.problems):
        assert [str(p) for p in problems] == [
            f"{path}:{line_of_roll(path, 1)}: warning: roll[1]: larger than 1 KiB ({len(big):,} bytes), the most "
            f"one entry holds: roll log entry ignored"]
    with pytest.raises(CampaignError, match="roll not recorded: larger than 1 KiB"):
        append_one(path, campaign_name="c.toml", session=1, who="x", line="y" * 3000, request=REQUEST,
                   result=RESULT)


def test_pieces_skip_an_entry_larger_than_they_hold_and_keep_every_place(tmp_path, monkeypatch):
    """Pieces of 4 KiB and entries of at most 2,000 bytes: a 20 KB entry is skipped over unread,
    and the readers say the same as the whole-file reader, lines and places included."""
    monkeypatch.setattr(_appendlog, "MAX_LOG_ENTRY_BYTES", 2000)
    monkeypatch.setattr(_appendlog, "PIECE_BYTES", 4096)
    path = tmp_path / "c.rolls.toml"
    chunks = [roll(n) for n in range(1, 60)]
    chunks[20] = chunks[20].replace('line = "loriane tir sd2"', 'line = "' + "x" * 20_000 + '"')
    chunks[40] = chunks[40].replace("session = 1\n", f"session = {HUGE}\n")
    write_log(path, chunks)
    whole = RollLog.load(path)
    said: list = []
    stream = RollStream(path, on_problem=said.append)
    assert [r.seq for r in stream.rolls()] == [r.seq for r in whole.records] == [n for n in range(1, 60)
                                                                              if n not in (21, 41)]
    assert [str(p) for p in said] == [str(p) for p in whole.warnings]
    assert [(p.path, p.line) for p in said] == [(f"roll[{k}]", line_of_roll(path, k)) for k in (20, 40)]


def _streamed_problems(path: Path) -> list:
    said: list = []
    list(RollStream(path, on_problem=said.append).rolls())
    return said


def test_a_log_is_never_appended_past_the_size_its_readers_read(tmp_path, monkeypatch):
    from gmscreen.campaign import safeload

    path = write_log(tmp_path / "c.rolls.toml", [roll(1)])
    monkeypatch.setattr(safeload, "MAX_LOG_BYTES", path.stat().st_size + 100)
    before = path.read_bytes()
    with pytest.raises(OSError, match="the file has reached"):
        append_one(path, campaign_name="c.toml", session=1, who="x", line="y", request=REQUEST, result=RESULT)
    assert path.read_bytes() == before


def test_revision_counts_again_from_0_at_a_save_and_never_passes_its_range(camp):
    camp.write_text(f"revision = {limits.MAX_REVISION}\n" + camp.read_text("utf-8"), "utf-8")
    session = open_session(camp)
    try:
        with session.edit("a change") as b:            # past MAX_REVISION: saved as 0 first, then journalled as 1
            b.set(("notes",), "une")
        assert session.campaign.revision == 1 and load_campaign(camp).revision == 0
        assert "revision = 1\n" in journal_path(camp).read_text("utf-8")
        with session.edit("another") as b:
            b.set(("notes",), "deux")
        session.save_now()
        assert load_campaign(camp).revision == 2
    finally:
        session.close()
    again = open_session(camp, read_only=True)
    assert again.campaign.notes == "deux" and again.campaign.revision == 2
    again.close()


def test_a_save_past_the_wrap_point_writes_revision_0(camp):
    session = open_session(camp)
    try:
        session.campaign.revision = limits.REVISION_WRAP
        with session.edit("a change") as b:
            b.set(("notes",), "une")
        session.save_now()
        assert session.campaign.revision == 0 and load_campaign(camp).revision == 0
    finally:
        session.close()


# ---------------------------------------------------------------- the conflict's side files, as the README names them


def test_side_files_are_named_as_the_readme_says():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    said = " ".join(readme.split())
    for kind, words in (("mine-aside", "`t` take theirs (yours kept as `X.toml.mine-<date>`)"),
                        ("theirs", "`m` keep mine (theirs kept as `X.toml.theirs-<date>`)"),
                        ("mine", "`b` keep both (yours saved as `X.mine-<date>.toml`")):
        assert words in said
        pattern = re.escape(re.search(r"`(X\.[^`]*)`", words).group(1)).replace("<date>", r"\d{8}-\d{6}")
        assert re.fullmatch(pattern.replace("X", "c"), outside.side_path("/tmp/c.toml", kind).name), kind


# ---------------------------------------------------------------- the log read piece by piece


def test_a_long_log_is_read_one_piece_at_a_time(tmp_path, monkeypatch):
    """5,000 rolls in pieces of 16 KiB: no read larger than a piece and one entry, every byte
    read once, and the memory traced at its peak that of a few pieces, not of the rolls."""
    piece = 1 << 14
    monkeypatch.setattr(_appendlog, "PIECE_BYTES", piece)
    path = tmp_path / "c.rolls.toml"
    one = roll(999_999_999, 999_999)
    chunks = [one.replace("seq = 999999999", f"seq = {seq}").replace("session = 999999", f"session = {1 + seq // 1000}")
              for seq in range(1, 5_001)]
    chunks.insert(3_500, format_reveal(17, "2025-03-02T21:00:00+01:00"))
    write_log(path, chunks)
    reads: list[int] = []
    pread = os.pread

    def counted(fd: int, n: int, at: int) -> bytes:
        reads.append(n)
        return pread(fd, n, at)

    list(RollStream(write_log(tmp_path / "warm.rolls.toml", chunks[:3])).rolls())   # modules and caches loaded
    monkeypatch.setattr(_appendlog.os, "pread", counted)
    stream = RollStream(path)
    tracemalloc.start()
    try:
        seen = sessions = 0
        for rec in stream.rolls():
            seen += 1
            sessions = max(sessions, rec.session)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen == stream.count == 5_000 and sessions == 6 and stream.revealed(17) and not stream.revealed(18)
    assert len(reads) > 50 and max(reads) <= piece + limits.MAX_LOG_ENTRY_BYTES
    assert sum(reads) <= path.stat().st_size + 4096         # each byte once (and the head, for its format)
    window = piece + _appendlog._LOOKAHEAD  # a piece and what is read past it to find its end
    assert peak < 24 * window, peak         # what parsing one window takes; the 5,000 rolls parsed take 10 MB


def test_seq_ranges_keep_a_numbered_log_as_one_range():
    seen = SeqRanges()
    for seq in range(1, 1001):
        seen.add(seq)
    assert (seen.firsts, seen.lasts) == ([1], [1000])
    for seq in (2000, 1500, 1002, 1001):
        seen.add(seq)
    assert (seen.firsts, seen.lasts) == ([1, 1500, 2000], [1002, 1500, 2000])
    assert 1001 in seen and 1003 not in seen and 1500 in seen and "x" not in seen
