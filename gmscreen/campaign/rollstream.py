"""The roll log read from its start to its end a piece at a time, for the commands that go
through all of it (`gmscreen validate`, `export`, `recap` when a session cannot be found by
bisection).

`RollLog.load` keeps every roll in memory: a million rolls are 400 MB of file and over 2 GB
once parsed. Here one piece of the file is in memory at a time (`_appendlog.stream_scan`: at
most a megabyte plus one entry), the rolls of that piece are handed on and forgotten, and what
must outlive them is small by construction: the ranges of roll numbers seen (one range for a
log our writer numbered), the rolls revealed (one per `[[reveal]]` entry), and the reveals
whose roll has not come yet. Problems are said as they are found, in the words `RollLog` uses.
"""

from __future__ import annotations

from bisect import bisect_right
from pathlib import Path
from typing import Callable, Iterator

from gmscreen.i18n import N_, _

from ._appendlog import stream_scan
from .errors import Problem
from .model import RollRecord
from .rollentry import NAMES, convert_entry, head_warnings


class SeqRanges:
    """A set of roll numbers kept as sorted, disjoint [first, last] ranges: a log numbered 1, 2,
    3... is one range, however long."""

    def __init__(self) -> None:
        self.firsts: list[int] = []
        self.lasts: list[int] = []

    def add(self, seq: int) -> None:
        if self.lasts and self.lasts[-1] + 1 == seq:
            self.lasts[-1] = seq            # the usual case: the next number
            return
        k = bisect_right(self.firsts, seq) - 1
        if k >= 0 and seq <= self.lasts[k] + 1:
            self.lasts[k] = max(self.lasts[k], seq)
        else:
            k += 1
            self.firsts.insert(k, seq)
            self.lasts.insert(k, seq)
        if k + 1 < len(self.firsts) and self.lasts[k] + 1 >= self.firsts[k + 1]:   # two ranges meet
            self.lasts[k] = max(self.lasts[k], self.lasts.pop(k + 1))
            self.firsts.pop(k + 1)

    def __contains__(self, seq: object) -> bool:
        if type(seq) is not int:
            return False
        k = bisect_right(self.firsts, seq) - 1
        return k >= 0 and seq <= self.lasts[k]


class RollStream:
    """One pass over the roll log at `path`: `rolls()` yields every roll, oldest first, and
    `on_problem` hears each problem as it is found (a torn or damaged entry, a number out of
    range, a roll out of order, a reveal of no roll). After the pass, `count` is the number of
    rolls and `revealed(seq)` says whether a later `[[reveal]]` showed a roll. Raises
    CampaignError as `RollLog.load` does (unreadable, newer format), before any roll."""

    def __init__(self, path: str | Path, on_problem: Callable[[Problem], object] | None = None) -> None:
        self.path = Path(path)
        self.on_problem = on_problem or (lambda problem: None)
        self.count = 0
        self.seen = SeqRanges()
        self.shown: set[int] = set()        # rolls revealed
        self.last_seq = 0

    def revealed(self, seq: int) -> bool:
        return seq in self.shown

    def rolls(self) -> Iterator[RollRecord]:
        for problem in head_warnings(self.path):       # (raises for a format this version cannot read)
            self.on_problem(problem)
        waiting: list[int] = []             # reveals read before their roll (a log laid out by hand)
        for found in stream_scan(self.path, NAMES, convert_entry, what=N_("roll log entry"), called=N_("roll log"),
                                 expected=N_("expected a roll log gmscreen can read")):
            for problem in found.problems:
                self.on_problem(problem)
            for rec in found.entries["roll"]:
                if rec.seq <= self.last_seq:
                    self.on_problem(Problem(str(self.path), "roll", _("roll seq {seq} out of order or repeated "
                                                                      "(after {last}): kept").format(
                        seq=rec.seq, last=self.last_seq), None, True))
                self.last_seq = max(self.last_seq, rec.seq)
                self.seen.add(rec.seq)
                self.count += 1
                if rec.seq in self.shown:
                    rec.revealed = True
                yield rec
            for seq in found.entries["reveal"]:
                if seq in self.seen:
                    self.shown.add(seq)
                else:
                    waiting.append(seq)
        for seq in waiting:
            if seq in self.seen:
                self.shown.add(seq)
            else:
                self.on_problem(Problem(str(self.path), "reveal", _("reveal of roll {seq}, which is not in the log: "
                                                                    "ignored").format(seq=seq), None, True))
