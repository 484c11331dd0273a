"""The log's fast reader (TOML entries read as JSON) reads exactly what tomllib reads, or
leaves the piece to tomllib: it never decides what a file means."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.campaign import _toml
from gmscreen.campaign._fastlog import loads_piece

NAMES = ("roll", "reveal")


def same_as_tomllib(text: str) -> None:
    """Either both refuse, or the fast reader says nothing, or both read the same document."""
    try:
        want = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        want = None
    got = loads_piece(text, NAMES)
    if got is not None:
        assert want is not None, f"accepted what TOML refuses: {text!r}"
        assert got == want and [type(v) for v in got.values()] == [type(v) for v in want.values()]


values = st.recursive(
    st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NAMES), st.dictionaries(st.text(min_size=1, max_size=8), values,
                                                                   max_size=5)), max_size=4))
def test_what_our_writer_writes_reads_the_same(entries):
    text = "".join(f"\n[[{name}]]\n" + "".join(f"{_toml.key(k)} = {_toml.value(_toml.drop_none(v))}\n"
                                                 for k, v in entry.items() if v is not None)
                   for name, entry in entries)
    same_as_tomllib("# header\nformat = 1\n" + text)
    same_as_tomllib(text.lstrip("\n"))


def test_a_roll_as_written_takes_the_fast_road():
    from _store_helpers import mir_result
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.rolllog import _HEADER, format_reveal, format_roll

    request, result = mir_result(1)
    text = _HEADER.format(campaign="c.toml") + "".join(
        format_roll(RollRecord(seq, "2025-03-01T21:04:11+01:00", 1, "Loriane « l'Éloquente » \"x\" {a}",
                               "loriane eloquence sd3 = 1 5 4", request, result, seq % 2 == 0, False, seq,
                               "p-1" if seq == 3 else None))
        for seq in range(1, 5)) + format_reveal(2, "2025-03-01T22:00:00+01:00")
    fast = loads_piece(text, NAMES)
    assert fast is not None and fast == tomllib.loads(text)


@pytest.mark.parametrize("body", [
    'seq = 1, who = "x"',                   # two pairs on a line
    'seq = 1\nseq = 2',                     # a key twice
    'r = { a = 1, a = 2 }',
    'who = "a\\/b"',                        # an escape of JSON only
    'who = "\\ud800"',
    'x = null',
    'x = NaN',
    'x = -Infinity',
    'x = inf',
    'x = 1_000',
    'x = +1',
    'x = 0x10',
    "x = 'literal'",
    'x = """multi\nline"""',
    'x = [1,\n2]',
    'x = [1, 2,]',
    'x = 1979-05-27',
    'a.b = 1',
    '"quoted key" = 1',
    '  indented = 1',
    'x = 1 # comment',
    'x = "tab\there"',
    'x = "del\x7f"',
    'x = { a = "b = c", d = [1, 2] }',
    'x = "{ a = 1 }, b = 2"',
    'x = "line\\nbreak \\"quoted\\" \\\\ back"',
    'who = "x", seq = 3',
    'x = {a = 1}',
    'x = 1\n\ny = 2',
    'x = 1.5e3',
    'x = -0',
    'x = 1e400',
])
def test_hand_edits_read_as_tomllib_reads_them(body):
    same_as_tomllib(f"# h\nformat = 1\n\n[[roll]]\n{body}\n\n[[reveal]]\nseq = 2\n")
    same_as_tomllib(f"[[roll]]\n{body}\n")
