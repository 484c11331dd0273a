"""Crash safety: children killed with SIGKILL at random moments, then everything must load.

Each child is a process of its own, forked from the test (gmscreen already imported, as a
child started afresh would have it once imported: no interpreter start nor imports paid for each
kill); it runs a small script, prints "ready", then a number after each save / roll / change has
returned (durable). The parent kills it with SIGKILL after a random (seeded) delay and checks
what is on disk against what the child reported.
"""

from __future__ import annotations

import copy
import os
import random
import signal
import sys
import time
import traceback
import warnings

from gmscreen.campaign import load_campaign, open_session, save_campaign
from gmscreen.campaign.changes import apply_change
from gmscreen.campaign.rolllog import RollLog
from gmscreen.campaign.store import backup_path

KILLS = 40

BUILD = '''
from gmscreen.campaign.changes import Change, delete_op, insert_op, set_op
from gmscreen.campaign.model import Campaign, Character, Condition

VOIES = ("heritage", "secret", "espoir", "peur", "dogme", "mensonge")


def build(k):
    """Campaign number k: sizes vary with k so that saves differ in length."""
    chars = [Character(id=f"p{i}", name=f"Perso {i} v{k}", side="party" if i % 3 else "npc",
                       sheet={"voies": {v: 1 + (i + j + k) % 6 for j, v in enumerate(VOIES)},
                              "skills": {"tir": (i + k) % 7, "combat": i % 7}},
                       notes="note " * ((k * 37 + i) % 300))
             for i in range(20 + k % 7)]
    return Campaign(name=f"Campagne {k}", system="mir", session=1 + k % 5, notes=f"état {k}\\n" * (k % 9),
                    characters=chars, revision=k)


def step(c, r):
    """The change that takes a campaign from revision r - 1 to r."""
    who = r % len(c.characters)
    if r % 3 == 0:
        return Change(f"notes {r}", [set_op(c, ("notes",), f"notes {r}\\nligne")])
    if r % 3 == 1:
        # The oldest kept goes first: each op's `old` is read from the state it applies to.
        ops = [delete_op(c, ("characters", who, "conditions"), 2)] if len(c.characters[who].conditions) >= 3 else []
        ops.append(insert_op(c, ("characters", who, "conditions"), 0, Condition(f"c{r}", "", r % 4 or None)))
        return Change(f"condition {r}", ops)
    return Change(f"peur {r}", [set_op(c, ("characters", who, "sheet", "voies", "peur"), 1 + r % 6),
                               set_op(c, ("session",), 1 + r % 9)])
'''

SAVER = BUILD + '''
import sys
from gmscreen.campaign.store import save_campaign
path, k = sys.argv[1], int(sys.argv[2])
print("ready", flush=True)
while True:
    k += 1
    # Written whole: patching the text happens in memory before the same atomic write, and
    # costs ten times more here (every value changes), which would leave few saves to kill.
    save_campaign(build(k), path, preserve=False)
    print(k, flush=True)
'''

ROLLER = '''
import sys
from gmscreen.campaign.rolllog import RollLog, append_one


def content(seq):
    big = seq % 8 == 0           # some entries span several pages: a kill could cut one mid-write
    return dict(who=f"Perso {seq}", line=f"perso tir sd{seq % 7}",
                request={"system": "mir", "kind": "simple", "pool": seq % 12, "difficulty": 1 + seq % 7},
                result={"seq": seq, "dice": [(seq * j) % 12 + 1 for j in range(1200 if big else 6)]},
                gm_only=seq % 5 == 0, seed=seq)


path, mode = sys.argv[1], sys.argv[2]
if mode == "session":
    log = RollLog.load(path)
    log.open_append()
    nxt = log.last_seq + 1
    print("ready", flush=True)
    while True:
        rec = log.record(session=1, **content(nxt))
        assert rec.seq == nxt, (rec.seq, nxt)
        print(nxt, flush=True)
        nxt += 1
else:
    nxt = int(sys.argv[3])
    print("ready", flush=True)
    while True:
        rec, _ = append_one(path, campaign_name="c.toml", session=1, **content(nxt))
        assert rec.seq == nxt, (rec.seq, nxt)
        print(nxt, flush=True)
        nxt += 1
'''

EDITOR = BUILD + '''
import sys
from gmscreen.campaign import open_session
s = open_session(sys.argv[1], autosave_every=4)
assert not s.read_only
print("ready", flush=True)
while True:
    r = s.campaign.revision + 1
    s.apply(step(s.campaign, r))
    print(r, flush=True)
'''

_defs: dict = {}
exec(compile(BUILD, "BUILD", "exec"), _defs)
build = _defs["build"]
step = _defs["step"]
_roll_defs: dict = {}
exec(compile(ROLLER.split("path, mode = ")[0], "ROLLER", "exec"), _roll_defs)
content = _roll_defs["content"]


def fork_child(script: str, args: list[str]) -> tuple[int, "os.FileIO", "os.FileIO"]:
    """A child process running `script` with `args` as its argv, its output and errors on pipes:
    (pid, output, errors). It never comes back into the test: it ends killed, or by `os._exit`."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)     # fork with threads (Python >= 3.12)
        pid = os.fork()
    if pid == 0:                                                 # the child
        code = 1
        try:
            os.close(out_r)
            os.close(err_r)
            os.dup2(out_w, 1)
            os.dup2(err_w, 2)
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
            sys.argv = ["-c", *args]
            exec(compile(script, "child", "exec"), {"__name__": "__main__"})
            code = 0
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(out_w)
    os.close(err_w)
    return pid, os.fdopen(out_r, "rb"), os.fdopen(err_r, "rb")


def run_and_kill(script: str, args: list[str], rng: random.Random, max_delay: float, *,
                 after_first: bool = False) -> list[int]:
    """Start the child, kill it at a random moment once it runs (`after_first`: once it printed
    its first number, so that a loaded machine, slow to start it, still kills it among its
    work); the numbers it printed."""
    pid, stdout, stderr = fork_child(script, args)
    status = None
    try:
        first = stdout.readline()
        assert first == b"ready\n", first + stderr.read()
        done = stdout.readline() if after_first else b""
        time.sleep(rng.uniform(0, max_delay))
        os.kill(pid, signal.SIGKILL)
        status = os.waitpid(pid, 0)[1]
        # Read through the same buffered pipe as `readline` above: it may already hold the
        # first numbers printed after "ready".
        out, err = stdout.read(), stderr.read()
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        stdout.close()
        stderr.close()
    # It died by the kill, not by itself.
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, err.decode()
    return [int(x) for x in (done + out).split()]


def test_saves_killed_at_random_always_leave_old_or_new(tmp_path):
    rng = random.Random(20250301)
    path = tmp_path / "c.toml"
    save_campaign(build(0), path)
    k = 0
    saves = 0
    for _ in range(KILLS):
        printed = run_and_kill(SAVER, [str(path), str(k)], rng, 0.04, after_first=True)
        last = printed[-1] if printed else k
        loaded = load_campaign(path)
        assert loaded.revision in (last, last + 1), (printed, loaded.revision)
        assert loaded == build(loaded.revision)
        if loaded.revision > 1:
            bak = load_campaign(backup_path(path))
            assert bak.revision <= loaded.revision and bak == build(bak.revision)
        saves += loaded.revision - k
        k = loaded.revision
    assert saves > KILLS                # the kills did land among saves, not only after the first


def test_rolls_killed_at_random_are_all_there_but_the_one_being_written(tmp_path, english):
    rng = random.Random(7)
    torn_seen = 0
    path = tmp_path / "c.rolls.toml"
    known: list = []                    # the rolls checked so far, as loaded
    for i in range(KILLS):
        if i % 10 == 0:                 # a fresh log every 10 kills keeps the loads short
            path = tmp_path / f"c{i // 10}.rolls.toml"
            known = []
        mode = "session" if i % 2 == 0 else "cli"
        printed = run_and_kill(ROLLER, [str(path), mode, str(len(known) + 1)], rng, 0.02)
        log = RollLog.load(path)
        seqs = [r.seq for r in log.records]
        assert seqs == list(range(1, len(seqs) + 1))
        assert log.records[: len(known)] == known           # nothing recorded earlier was lost
        assert set(printed) <= set(seqs), (printed, seqs[-3:])
        assert len(seqs) <= (printed[-1] if printed else len(known)) + 1   # at most the one being written
        assert len(log.warnings) <= 1, log.warnings
        if log.warnings:
            torn_seen += 1
            assert "incomplete" in log.warnings[0].message and log.warnings[0].path == f"roll[{len(seqs)}]"
        for rec in log.records[len(known):]:
            want = content(rec.seq)
            assert (rec.who, rec.line, rec.request, rec.result, rec.gm_only, rec.seed) == (
                want["who"], want["line"], want["request"], want["result"], want["gm_only"], want["seed"])
        known = log.records
    final = RollLog.load(path)
    final.open_append()                 # the next writer leaves a clean log behind
    final.close()
    assert RollLog.load(path).warnings == []
    print(f"torn last entries seen: {torn_seen} in {KILLS} kills")


def test_session_killed_at_random_loses_no_journalled_change(tmp_path, english):
    rng = random.Random(99)
    path = tmp_path / "c.toml"
    save_campaign(build(0), path)
    expected = [build(0)]

    def state(r: int):
        while len(expected) <= r:
            c = copy.deepcopy(expected[-1])
            apply_change(c, step(c, len(expected)))
            c.revision = len(expected)
            expected.append(c)
        return expected[r]

    last = 0
    for _ in range(25):
        printed = run_and_kill(EDITOR, [str(path)], rng, 0.15)
        done = printed[-1] if printed else last
        s = open_session(path)
        try:
            assert not s.read_only
            assert all("incomplete" in w.message for w in s.warnings), s.warnings   # only a torn last change
            assert s.campaign.revision in (done, done + 1), (printed, s.campaign.revision)
            assert s.campaign == state(s.campaign.revision)
            last = s.campaign.revision
        finally:
            s.close()
    assert last >= 25
