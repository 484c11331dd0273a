"""The limits of what a campaign's files may hold, decided once, each with its reason.

Every place data enters checks against these and says the limit it enforced: the validator
(`validate.py`, which also serves the loader that the screen and every command use), the roll
log reader (an entry over a limit is reported with its place and skipped, never a crash), and
every writer (nothing gmscreen writes exceeds them, so what it writes it can read again).
Standard library only: the command line imports it at no cost.
"""

from __future__ import annotations

from typing import Any

from gmscreen.i18n import _

from .safeload import MAX_CAMPAIGN_BYTES, MAX_LOG_BYTES, MiB, thousands

# Integers that count things. 2**31 - 1 is the largest a 32-bit signed integer holds: what the
# screen's index of an old log keeps them in (`rolltail`), and far past any real count.
MAX_INT32 = 2**31 - 1

# Rolls are numbered 1, 2, 3... in the order they were made: a log holds fewer than
# MAX_LOG_BYTES / 100 bytes (its smallest entry) = 10 million, so a number past 2**31 - 1
# is a hand edit, never a roll.
MAX_SEQ = MAX_INT32

# The session number, the round, a countdown's rounds: one a week for 20,000 years, one a
# turn for a lifetime of fights. The campaign and its roll log take the same range.
MAX_COUNT = 1_000_000

# `revision` counts the changes made to the campaign (one per key the GM presses, at most).
# 2**31 - 1 changes is one a second for 68 years; a save made at or above REVISION_WRAP
# starts counting again from 0 (the journal is empty then, so no entry refers to the old
# numbers), so a count never passes MAX_REVISION, and never 64 bits.
MAX_REVISION = MAX_INT32
REVISION_WRAP = MAX_REVISION - 2**20

# A roll's seed: gmscreen draws 63 random bits (`secrets.randbits(63)`); `--seed` takes the
# same range, so a seed always fits a signed 64-bit integer.
MAX_SEED = 2**63 - 1

# The dice kept in one timer, all its lists together. The rules end a MIR extended test within
# 99 tests (threshold and max_tests at most 99, R16-R18) of at most 100 dice each (the rules'
# cap on one list of faces): 9,900 dice. A Magisphère extended opposition is decided at 10
# réussites at most (R18); 10,000 dice is 5,000 rounds, far past any opposition a table plays.
MAX_TIMER_DICE = 10_000
MAX_INTERVAL_DICE = 100         # what one interval (one test, one round) may add to them

# One entry of the roll log: `who` and `line` hold at most MAX_STRING (100,000) characters
# each (at most 600 KB each once escaped), the dice at most 10,000 faces; 2 MiB bounds that
# and what one piece of a log read piece by piece holds (`_appendlog.stream_scan`).
MAX_LOG_ENTRY_BYTES = 2 * MiB

# Text: a name, a note, a typed line (the validator's own limit on any one string).
MAX_STRING = 100_000

__all__ = ["MAX_CAMPAIGN_BYTES", "MAX_COUNT", "MAX_INT32", "MAX_INTERVAL_DICE", "MAX_LOG_BYTES",
           "MAX_LOG_ENTRY_BYTES", "MAX_REVISION", "MAX_SEED", "MAX_SEQ", "MAX_STRING", "MAX_TIMER_DICE",
           "REVISION_WRAP", "COUNTERS", "dice_count", "is_int_in", "out_of_range", "over_limit",
           "shown", "shown_digits", "too_many_dice"]


def is_int_in(value: Any, lo: int, hi: int) -> bool:
    """An integer (not a boolean) from `lo` to `hi`."""
    return type(value) is int and lo <= value <= hi


def shown(value: Any) -> str:
    """A value for a message, on one short line: a long number by its first digits and length."""
    if type(value) is int:
        return shown_digits(str(value))
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def shown_digits(digits: str | bytes) -> str:
    """The digits of a number as `shown` says them (read from a file, never made an int)."""
    text = digits.decode("ascii", "replace") if isinstance(digits, bytes) else digits
    if len(text) <= 24:
        return text
    return _("{start}… ({digits} digits)").format(start=text[:12], digits=thousands(len(text.lstrip("-"))))


def out_of_range(key: str, value: str, lo: int, hi: int) -> str:
    """`key: expected an integer from lo to hi, got value`, `value` already `shown`."""
    return _("{key}: expected an integer from {lo} to {hi}, got {value}").format(
        key=key, lo=thousands(lo), hi=thousands(hi), value=value)


def too_many_dice(count: int) -> str:
    return _("too many dice: a timer keeps at most {most}, got {count}").format(
        most=thousands(MAX_TIMER_DICE), count=thousands(count))


# The counters a change may set, by their key, and the range each keeps (as the validator checks).
COUNTERS = {"session": (1, MAX_COUNT), "round": (0, MAX_COUNT), "rounds": (0, MAX_COUNT),
            "resort_at": (0, MAX_COUNT), "revision": (0, MAX_REVISION)}


def over_limit(path: tuple, value: Any) -> str | None:
    """Why setting `value` at `path` of a campaign would write what its validator refuses (a
    counter past its range, a timer's dice past MAX_TIMER_DICE); None when it would not. What
    the screen and the commands change goes through this (`EditBuilder.set`), so a file
    gmscreen saves always opens again."""
    if not path:
        return None
    key = path[-1]
    if key in COUNTERS and type(value) is int:
        lo, hi = COUNTERS[key]
        if not lo <= value <= hi:
            return out_of_range(".".join(map(str, path)), shown(value), lo, hi)
    elif key == "dice" and len(path) == 3 and path[0] == "timers":
        count = dice_count(value)
        if count > MAX_TIMER_DICE:
            return f"{'.'.join(map(str, path))}: {too_many_dice(count)}"
    return None


def dice_count(dice: Any) -> int:
    """How many faces a timer's dice table (or any nest of lists) holds; iterative, so safe
    on anything a parser returned."""
    count = 0
    stack = [dice]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            for sub in item:
                if isinstance(sub, (list, dict)):
                    stack.append(sub)
                else:
                    count += 1
    return count
