"""The append-only roll log: format, append-only writes, torn entries, concurrent writers."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _store_helpers import child_env, mir_result
from gmscreen.campaign import CampaignError
from gmscreen.campaign.rolllog import RollLog, append_one, format_roll, rolls_path

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")


def open_log(path) -> RollLog:
    log = RollLog.load(path)
    log.open_append()
    return log


def record(log: RollLog, seed: int, **kw):
    request, result = mir_result(seed, hidden=kw.pop("hidden", False))
    return log.record(session=kw.pop("session", 1), who=kw.pop("who", f"Perso {seed}"),
                      line=kw.pop("line", f"perso tir sd2 #{seed}"), request=request, result=result, seed=seed, **kw)


def test_rolls_path():
    assert rolls_path("/a/b/camp.toml").name == "camp.rolls.toml"
    assert rolls_path("/a/b/camp").name == "camp.rolls.toml"


def test_record_and_load_round_trip(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    recs = [record(log, s) for s in range(1, 6)]
    recs.append(record(log, 6, gm_only=True, session=2))
    log.close()
    assert [r.seq for r in recs] == [1, 2, 3, 4, 5, 6]
    loaded = RollLog.load(path)
    assert loaded.warnings == []
    assert loaded.records == recs
    assert loaded.last_seq == 6
    # Plain TOML: any TOML reader sees the same entries.
    data = tomllib.loads(path.read_text("utf-8"))
    assert data["format"] == 1 and len(data["roll"]) == 6
    assert data["roll"][5]["gm_only"] is True and data["roll"][0]["result"]["dice"] == recs[0].result["dice"]


def test_none_values_are_dropped_on_write(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    rec = log.record(session=1, who="A", line="x", request={"system": "mir", "note": None},
                     result={"outcome": "success", "failure_reason": None, "nested": {"a": None, "b": 1}})
    assert rec.result == {"outcome": "success", "nested": {"b": 1}}
    assert rec.request == {"system": "mir"}
    log.close()
    assert RollLog.load(path).records == [rec]


def test_text_that_utf8_cannot_hold_is_replaced_not_fatal(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    log.record(session=1, who="Ren\udce9", line="tir", request={}, result={"note": "x\ud800"})
    log.close()
    (rec,) = RollLog.load(path).records
    assert rec.who == "Ren\ufffd" and rec.result == {"note": "x\ufffd"}


def test_an_entry_reads_on_a_few_lines(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    rec = record(log, 1, who='Alexis "le Borgne"', line="alexis tir sd2\nsecond line")
    log.close()
    chunk = format_roll(rec)
    assert chunk.startswith("\n[[roll]]\nseq = 1\n")
    assert chunk.rstrip("\n").splitlines()[-1].startswith("result = {")
    assert 'who = "Alexis \\"le Borgne\\""' in chunk and 'line = "alexis tir sd2\\nsecond line"' in chunk
    assert len(chunk.splitlines()) == 10


def test_the_log_is_append_only(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    previous = b""
    secrets = []
    for seed in range(1, 30):
        if seed % 5 == 0 and secrets:
            log.reveal(secrets.pop())
        else:
            rec = record(log, seed, gm_only=seed % 3 == 0)
            if rec.gm_only:
                secrets.append(rec.seq)
        now = path.read_bytes()
        assert now.startswith(previous) and len(now) > len(previous)
        previous = now
    log.close()


def test_reveal_is_its_own_small_entry(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    record(log, 1)
    secret = record(log, 2, gm_only=True)
    hidden = record(log, 3, hidden=True)
    before = path.read_bytes()
    log.reveal(secret.seq)
    log.reveal(secret.seq)          # twice: nothing more written
    after = path.read_bytes()
    assert after.startswith(before)
    added = after[len(before):].decode()
    assert added.startswith("\n[[reveal]]\nseq = 2\ntime = ") and added.count("\n") == 4
    log.reveal(hidden.seq)          # a secret difficulty can be revealed too
    with pytest.raises(ValueError, match="not a GM-only roll"):
        log.reveal(1)
    with pytest.raises(KeyError):
        log.reveal(99)
    log.close()
    loaded = RollLog.load(path)
    assert [r.revealed for r in loaded.records] == [False, True, True]
    assert loaded.records[1].gm_only


def _log_with(tmp_path, n: int):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    recs = [record(log, s, gm_only=(s % 3 == 0)) for s in range(1, n + 1)]
    log.close()
    return path, recs


def test_a_torn_last_entry_is_reported_at_every_cut(tmp_path):
    path, recs = _log_with(tmp_path, 3)
    full = path.read_bytes()
    last = format_roll(recs[-1]).encode()
    start = len(full) - len(last)
    for cut in range(len(last) + 1):
        path.write_bytes(full[: start + cut])
        loaded = RollLog.load(path)
        fragment = last[:cut]
        complete = fragment.rstrip(b"\n") == last.rstrip(b"\n")
        assert loaded.records == (recs if complete else recs[:-1]), cut
        if complete or not fragment.strip():
            assert loaded.warnings == [], cut
        else:
            (warning,) = loaded.warnings
            assert warning.warning and warning.path == "roll[2]", cut
            assert warning.line == full[:start].count(b"\n") + 2, cut
            assert "incomplete" in warning.message and "crash" in warning.message


def test_a_torn_reveal_is_reported_and_the_rolls_stay(tmp_path):
    path, recs = _log_with(tmp_path, 3)
    with path.open("ab") as fh:
        fh.write(b"\n[[reveal]]\nseq = 3\nti")
    loaded = RollLog.load(path)
    assert loaded.records == recs and not loaded.records[2].revealed
    (warning,) = loaded.warnings
    assert warning.path == "reveal[0]" and "incomplete" in warning.message


def test_the_next_writer_cuts_a_torn_tail_off(tmp_path):
    path, recs = _log_with(tmp_path, 4)
    good = path.read_bytes()
    torn = good + b"\n[[roll]]\nseq = 5\ntime = \"2025-01-01T"
    path.write_bytes(torn)
    log = RollLog.load(path)
    assert len(log.warnings) == 1
    log.open_append()
    assert path.read_bytes() == torn                 # opening writes nothing: cut by the next roll
    assert len(log.warnings) == 1                    # reported once, not twice
    rec = record(log, 50)
    log.close()
    assert path.read_bytes().startswith(good + b"\n[[roll]]\nseq = 5\ntime = ")
    assert rec.seq == 5
    loaded = RollLog.load(path)
    assert loaded.warnings == []
    assert loaded.records == recs + [rec]


def test_append_one_numbers_from_the_tail_and_cuts_a_torn_one(tmp_path):
    path, recs = _log_with(tmp_path, 4)
    good = path.read_bytes()
    path.write_bytes(good + b"\n[[roll]]\nseq = 5\nsession = 1\n")     # torn after two lines
    request, result = mir_result(9)
    rec, warnings = append_one(path, campaign_name="c.toml", session=1, who="B", line="b", request=request,
                               result=result, seed=9)
    assert rec.seq == 5
    assert len(warnings) == 1 and "incomplete" in warnings[0].message
    loaded = RollLog.load(path)
    assert loaded.warnings == [] and loaded.records == recs + [rec]


def test_append_one_when_the_last_roll_itself_was_torn(tmp_path):
    path, recs = _log_with(tmp_path, 2)
    good = path.read_bytes()
    path.write_bytes(good + b"\n[[roll]]\nseq = 3\ntime = \"x\"\nsession = 1\nwho = \"a\"\nline = \"b\"\nrequest = {}\n"
                            b"result = { outcome = \"succ")
    request, result = mir_result(1)
    rec, _ = append_one(path, campaign_name="c.toml", session=1, who="B", line="b", request=request, result=result)
    assert rec.seq == 3
    assert RollLog.load(path).records == recs + [rec]


def test_append_one_reads_back_past_a_large_entry(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    record(log, 1)
    big = log.record(session=1, who="A", line="x" * 300_000, request={}, result={"outcome": "success"})
    log.close()
    rec, warnings = append_one(path, campaign_name="c.toml", session=1, who="B", line="b", request={},
                               result={"outcome": "failure"})
    assert rec.seq == 3 and warnings == []
    assert [r.seq for r in RollLog.load(path).records] == [1, 2, 3]


def test_append_one_creates_the_log_with_its_header(tmp_path):
    path = tmp_path / "new.rolls.toml"
    rec, warnings = append_one(path, campaign_name="new.toml", session=2, who="A", line="a", request={},
                               result={"outcome": "success"}, gm_only=True)
    assert rec.seq == 1 and warnings == []
    text = path.read_text("utf-8")
    assert text.startswith("# gmscreen roll log of new.toml") and "\nformat = 1\n" in text
    assert RollLog.load(path).records == [rec]


def test_damage_in_the_middle_costs_only_that_entry(tmp_path):
    path, recs = _log_with(tmp_path, 5)
    text = path.read_text("utf-8")
    damaged = text.replace("seq = 3\n", "seq = 3\nseq = oops\n", 1)
    path.write_text(damaged, "utf-8")
    loaded = RollLog.load(path)
    assert [r.seq for r in loaded.records] == [1, 2, 4, 5]
    (warning,) = loaded.warnings
    assert warning.path == "roll[2]" and "ignored" in warning.message
    lines = damaged.splitlines()
    assert lines[warning.line - 1] == "[[roll]]" and lines[warning.line] == "seq = 3"


def test_an_entry_with_a_wrong_type_is_reported_not_torn(tmp_path):
    path, recs = _log_with(tmp_path, 2)
    text = path.read_text("utf-8")
    path.write_text(text + '\n[[roll]]\nseq = 3\ntime = "t"\nsession = "deux"\nwho = "a"\nline = "b"\n'
                           'request = {}\nresult = {}\n', "utf-8")
    loaded = RollLog.load(path)
    assert loaded.records == recs
    (warning,) = loaded.warnings
    assert "session: expected an integer" in warning.message and "incomplete" not in warning.message
    log = RollLog.load(path)
    log.open_append()
    log.close()
    assert "deux" in path.read_text("utf-8")         # not torn: never cut off


def test_newer_log_format_is_refused(tmp_path):
    path = tmp_path / "c.rolls.toml"
    path.write_text("format = 3\n\n[[roll]]\nseq = 1\n", "utf-8")
    with pytest.raises(CampaignError, match="newer gmscreen"):
        RollLog.load(path)
    with pytest.raises(CampaignError, match="newer gmscreen"):
        append_one(path, campaign_name="c.toml", session=1, who="a", line="b", request={}, result={})
    assert path.read_text("utf-8") == "format = 3\n\n[[roll]]\nseq = 1\n"


def test_a_torn_header_at_creation_is_repaired(tmp_path):
    path = tmp_path / "c.rolls.toml"
    path.write_bytes(b"# gmscreen roll log\nformat = ")
    log = RollLog.load(path)
    assert log.records == [] and len(log.warnings) == 1
    log.open_append()
    rec = record(log, 1)
    log.close()
    loaded = RollLog.load(path)
    assert loaded.records == [rec] and loaded.warnings == []


def test_rolls_appended_by_another_writer_are_picked_up(tmp_path):
    path = tmp_path / "c.rolls.toml"
    screen = open_log(path)
    record(screen, 1)
    request, result = mir_result(2)
    other, _ = append_one(path, campaign_name="c.toml", session=1, who="CLI", line="cli", request=request,
                          result=result)
    assert other.seq == 2
    mine = record(screen, 3)
    assert mine.seq == 3
    assert [r.seq for r in screen.records] == [1, 2, 3]
    assert screen.records[1].who == "CLI"
    screen.close()


def test_the_log_replaced_under_a_writer_is_followed(tmp_path):
    path = tmp_path / "c.rolls.toml"
    log = open_log(path)
    record(log, 1)
    record(log, 2)
    path.unlink()
    rec = record(log, 3)
    log.close()
    assert rec.seq == 1
    assert RollLog.load(path).records == [rec]


_WRITER = """
import sys
from gmscreen.campaign.rolllog import append_one
path, who = sys.argv[1], sys.argv[2]
for i in range(40):
    append_one(path, campaign_name="c.toml", session=1, who=who, line=str(i), request={}, result={"i": i})
"""


def test_two_processes_appending_at_once_never_collide(tmp_path):
    path = tmp_path / "c.rolls.toml"
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), who], env=child_env())
             for who in ("A", "B")]
    for p in procs:
        assert p.wait(timeout=60) == 0
    loaded = RollLog.load(path)
    assert loaded.warnings == []
    assert [r.seq for r in loaded.records] == list(range(1, 81))
    for who in ("A", "B"):
        assert [r.result["i"] for r in loaded.records if r.who == who] == list(range(40))


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=True),
    lambda inner: st.lists(inner.filter(lambda v: v is not None), max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(who=st.text(max_size=30), line=st.text(max_size=60), result=st.dictionaries(st.text(max_size=8), plain,
                                                                                  max_size=6))
def test_any_values_round_trip(tmp_path, who, line, result):
    path = tmp_path / "h.rolls.toml"
    path.unlink(missing_ok=True)
    log = open_log(path)
    rec = log.record(session=1, who=who, line=line, request={"k": [1, [2, 3]]}, result=result)
    log.close()
    loaded = RollLog.load(path)
    assert loaded.warnings == [] and loaded.records == [rec]


def test_a_long_log_is_parsed_a_piece_at_a_time_to_the_same_entries(tmp_path, monkeypatch):
    """The log is parsed in pieces cut where an entry starts (so that a thread reading it never
    holds the interpreter for long); a cut inside a multi-line string falls back to the whole."""
    import tomllib

    from gmscreen.campaign import _appendlog
    from gmscreen.campaign.rolllog import RollLog

    entries = []
    for seq in range(1, 41):
        who = '"""Alexis\n[[roll]]\nseq = 999"""' if seq == 20 else '"Alexis"'
        entries.append(f'\n[[roll]]\nseq = {seq}\ntime = "2025-03-01T21:04:11+01:00"\nsession = 1\nwho = {who}\n'
                       f'line = "3d12 sd1"\nrequest = {{ system = "mir", kind = "simple", pool = 3 }}\n'
                       f'result = {{ outcome = "success" }}\n')
        if seq == 30:
            entries.append("\n[[reveal]]\nseq = 3\ntime = \"2025-03-01T21:05:00+01:00\"\n")
    text = "format = 1\n" + "".join(entries)
    path = tmp_path / "c.rolls.toml"
    path.write_text(text, encoding="utf-8")
    whole = tomllib.loads(text)
    for chunk in (64, 300, 1 << 20):
        monkeypatch.setattr(_appendlog, "_CHUNK", chunk)
        assert _appendlog._loads_in_chunks(text.encode(), ("roll", "reveal")) == whole
        log = RollLog.load(path)
        assert [r.seq for r in log.records] == list(range(1, 41)) and log.records[19].who.startswith("Alexis\n")
        assert log.by_seq[3].revealed and not log.warnings
