"""Close names for a word the line does not know: a typo gets an answer ("Escrime?").

The line names things by prefix (`marg` is Marguerite), so a typed word is compared with each
candidate's folded words whole and cut to the typed length: `escrme` is near `escrime`,
`margo` near `margu(erite)`. Accents and case never count (`text.fold`).
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Sequence

from .text import Candidate

CUTOFF = 0.75          # difflib's ratio below which a name is not offered
SHORTEST = 3           # a word shorter than this is too short to guess from
MOST = 3               # names offered at most


def _closeness(typed: str, form: tuple[str, ...]) -> float:
    whole = " ".join(form)
    pieces = [whole, *form]
    pieces += [w[:len(typed)] for w in form if len(w) > len(typed)]
    pieces += [w[:len(typed) + 1] for w in form if len(w) > len(typed) + 1]
    return max(SequenceMatcher(None, typed, p).ratio() for p in pieces)


def close_labels(typed: str, candidates: Sequence[Candidate]) -> tuple[str, ...]:
    """The labels of the candidates nearest to the folded word `typed`, best first (none
    when the word is short or nothing is near): what "did you mean …?" offers."""
    if len(typed) < SHORTEST:
        return ()
    scored: dict[str, float] = {}
    for cand in candidates:
        forms = [form for form in (cand.words,) + cand.aliases if form]
        if not forms:
            continue
        score = max(_closeness(typed, form) for form in forms)
        if score >= CUTOFF and score > scored.get(cand.label, 0.0):
            scored[cand.label] = score
    best = sorted(scored.items(), key=lambda item: -item[1])
    if not best:
        return ()
    top = best[0][1]
    return tuple(label for label, score in best[:MOST] if score >= top - 0.1)
