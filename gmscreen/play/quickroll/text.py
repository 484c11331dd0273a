"""Words of the quick-roll line: accent- and case-free, with their place in the line.

Names and skills come from campaign files and may hold anything (brackets, escape
characters); matching works on a folded copy and never changes what is shown.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterable, Sequence

from gmscreen.campaign.textsafe import CONTROL
from gmscreen.rules.records import record

_SPLIT_INSIDE = re.compile(r"(?<=[^\W\d_])[-'’](?=[^\W\d_])")
_EDGE = re.compile(r"^[^\w]+|[^\w]+$")
# As gmscreen.campaign.textsafe.clean: a name read from the file and the same name as shown
# (control characters as U+FFFD, e.g. put in the line by the palette) fold alike.
_CONTROL = CONTROL


_FOLDED: dict[str, str] = {}      # character -> its folded form


def fold(text: str) -> str:
    """Lower case without accents, the one way every name, skill and search is matched:
    'Éloquence' -> 'eloquence', 'Manœuvre' -> 'manoeuvre'; controls as U+FFFD (as shown).
    Character by character, remembered: the roll log folds every line it searches."""
    text = str(text)
    if text.isascii():
        return _CONTROL.sub("\ufffd", text).casefold()
    out = []
    for ch in text:
        folded = _FOLDED.get(ch)
        if folded is None:
            decomposed = unicodedata.normalize("NFKD", _CONTROL.sub("\ufffd", ch))
            plain = "".join(c for c in decomposed if not unicodedata.combining(c))
            folded = _FOLDED[ch] = plain.casefold().replace("œ", "oe").replace("æ", "ae")
        out.append(folded)
    return "".join(out)


def words(text: str) -> tuple[str, ...]:
    """The folded words of a name: split on spaces, and on hyphens/apostrophes inside words.

    Punctuation at a word's edges is dropped ('Gorlois,' -> 'gorlois'); a word made only of
    punctuation ('[/]') is kept as it is, so that every name can be typed.
    """
    out = []
    for raw in _SPLIT_INSIDE.sub(" ", fold(text)).split():
        stripped = _EDGE.sub("", raw)
        out.append(stripped or raw)
    return tuple(out)


@record(frozen=True)
class Token:
    """One word of the line: as typed, folded, and where it sits (character offsets)."""

    text: str
    norm: str
    start: int
    end: int


def tokenize(line: str) -> list[Token]:
    """Split on spaces, then on hyphens/apostrophes between letters ('saint-gelais' is two words).

    '=' is always a token of its own so that '=1 5' and '= 1 5' read the same.
    """
    tokens: list[Token] = []
    for match in re.finditer(r"\S+", line):
        text, base = match.group(), match.start()
        pieces = []
        pos = 0
        for sep in re.finditer(r"=", text):
            pieces.append((pos, sep.start()))
            pieces.append((sep.start(), sep.end()))
            pos = sep.end()
        pieces.append((pos, len(text)))
        for a, b in pieces:
            if a == b:
                continue
            chunk = text[a:b]
            sub_pos = 0
            for inner in _SPLIT_INSIDE.finditer(chunk):
                _add(tokens, chunk[sub_pos:inner.start()], base + a + sub_pos)
                sub_pos = inner.end()
            _add(tokens, chunk[sub_pos:], base + a + sub_pos)
    return tokens


def _add(tokens: list[Token], text: str, start: int) -> None:
    if not text:
        return
    folded = fold(text)
    norm = _EDGE.sub("", folded) if re.search(r"\w", folded) and not re.match(r"^[+\-=/]", folded) else folded
    tokens.append(Token(text, norm or folded, start, start + len(text)))


@record(frozen=True)
class Candidate:
    """Something a phrase can name: a character, a skill, a characteristic, a table row."""

    label: str                 # shown to the GM (untrusted when it comes from a file)
    words: tuple[str, ...]
    value: object = None
    aliases: tuple[tuple[str, ...], ...] = ()


def candidate(label: str, value: object = None, *aliases: str) -> Candidate:
    return Candidate(label, words(label), value, tuple(words(a) for a in aliases if words(a)))


def _score(typed: Sequence[str], forms: Iterable[tuple[str, ...]]) -> int:
    """0 no match; 3 exact; 2 prefixes from the first word; 1 prefixes from a later word."""
    best = 0
    for form in forms:
        if not form:
            continue
        if tuple(typed) == form:
            return 3
        for start in range(len(form) - len(typed) + 1):
            if all(form[start + i].startswith(t) for i, t in enumerate(typed)):
                best = max(best, 2 if start == 0 else 1)
                break
    return best


def match(typed: Sequence[str], candidates: Sequence[Candidate]) -> list[Candidate]:
    """The candidates that the typed words name, best tier only (exact > from start > inside)."""
    return ranked(typed, candidates, lambda c: (c.words,) + c.aliases)[1]


def ranked(typed: Sequence[str], candidates: Sequence[Candidate],
           forms: Callable[[Candidate], Iterable[tuple[str, ...]]]) -> tuple[int, list[Candidate]]:
    """The best tier (3 exact, 2 from the first word, 1 inside, 0 none) of the typed words
    against each candidate's `forms`, and the candidates in it."""
    if not typed:
        return 0, []
    scored = [(_score(typed, forms(c)), c) for c in candidates]
    top = max((s for s, _ in scored), default=0)
    if top == 0:
        return 0, []
    return top, [c for s, c in scored if s == top]
