"""Completion of the word under the cursor: names, then that character's skills, then keywords."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gmscreen.i18n import _
from gmscreen.rules.records import record

from ..effects import condition_names
from .grammar import COMMON_WORDS, HELP_WORDS, NO_WORDS, VS_WORDS, People, QuickRollError, Side, grammar_for, is_numeric, \
    match_character
from .text import Candidate, fold, tokenize, words

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ..game import GameTable

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@record(frozen=True)
class Completion:
    """Replace line[start:end] by one of `candidates` (display forms, lower case)."""

    start: int
    end: int
    candidates: tuple[str, ...]

    def apply(self, line: str, choice: str) -> tuple[str, int]:
        """The new line and cursor after taking `choice` (a space follows it)."""
        text = line[:self.start] + choice + " " + line[self.end:].lstrip(" ")
        return text, self.start + len(choice) + 1


def complete(line: str, cursor: int, campaign: Campaign, *, game: GameTable, selected: str | None = None) -> Completion:
    """Candidates for the word that ends at `cursor` (or a fresh word after a space), in the
    words of `game` (the campaign's, as its caller holds it)."""
    grammar = grammar_for(campaign, game)
    before = line[:cursor]
    start = cursor
    while start > 0 and not before[start - 1].isspace():
        start -= 1
    prefix = fold(before[start:])
    end = cursor
    while end < len(line) and not line[end].isspace():
        end += 1
    if "=" in before[:start] or is_numeric(prefix):
        return Completion(start, end, ())
    tokens = [t for t in tokenize(before[:start])]
    reserved = COMMON_WORDS | grammar.keywords
    roster = People(campaign)
    people = roster.candidates
    # Which side is being written, and is its character named yet?
    side_tokens = tokens
    for n, tok in enumerate(tokens):
        if tok.norm in VS_WORDS:
            side_tokens = tokens[n + 1:]
    after_help = bool(tokens) and tokens[-1].norm in HELP_WORDS
    side = Side("actor" if side_tokens is tokens else "opponent", 0)
    if side_tokens and not after_help:
        try:
            found = match_character(side_tokens, 0, reserved, roster, _("characters"))
        except QuickRollError:
            found = None
        if found is not None:
            side.character = campaign.characters[int(found[0].value)]  # type: ignore[call-overload]
    if side.character is None and side.role == "actor" and selected is not None and not after_help:
        side.character = next((c for c in campaign.characters if c.id == selected), None)
    if tokens and tokens[-1].norm in NO_WORDS:
        return _without_completion(start, end, prefix, tokens, campaign, roster, reserved, selected)
    pool: list[Candidate] = []
    if after_help or not side_tokens or (side.character is None and not side_tokens):
        pool += people
    if side.character is not None and not after_help:
        pool += grammar.traits(side)
        pool += grammar.difficulty_candidates()
    if not after_help and side_tokens == [] and side.role == "actor" and side.character is not None:
        pool = people + pool
    out: list[str] = []
    seen = set()
    for cand in pool:
        forms = (cand.words,) + cand.aliases
        if not prefix or any(any(w.startswith(prefix) for w in form) for form in forms) or _glued(prefix, cand, roster):
            text = _display(cand)
            if text not in seen:
                seen.add(text)
                out.append(text)
    for word in game.line.completion_words:
        if prefix and word.startswith(prefix) and word not in seen:
            out.append(word)
    if prefix and "sans".startswith(prefix) and "sans" not in seen and side.character is not None \
            and condition_names(campaign, [side.character.id]):
        out.append("sans")
    return Completion(start, end, tuple(out[:50]))


def _glued(prefix: str, cand: Candidate, roster: People) -> bool:
    """`garde2` / `garde1` typed as one word: the copy with that number (the full name goes in)."""
    glued = re.fullmatch(r"(.*[^0-9])([0-9]+)", prefix)
    number = roster.number(cand)
    if glued is None or number is None or not str(number).startswith(glued.group(2)):
        return False
    return any(any(w.startswith(glued.group(1)) for w in form) for form in (cand.words,) + cand.aliases)


def _display(cand: Candidate) -> str:
    """What completion inserts: the label's words, lower case, as the parser reads them back."""
    text = " ".join(_CONTROL.sub("", cand.label).lower().split())
    return text or " ".join(words(cand.label))


def _without_completion(start: int, end: int, prefix: str, tokens: list, campaign: Campaign, roster: People,
                        reserved: frozenset[str], selected: str | None) -> Completion:
    """After `sans`: the conditions of the people named in the line (a condition left out of
    this roll), by their names as the line reads them back."""
    ids: list[str | None] = []
    segment: list = []
    for tok in tokens + [None]:
        if tok is None or tok.norm in VS_WORDS:
            try:
                found = match_character(segment, 0, reserved, roster, _("characters")) if segment else None
            except QuickRollError:
                found = None
            if found is not None:
                ids.append(campaign.characters[int(found[0].value)].id)  # type: ignore[call-overload]
            elif not ids and selected is not None:
                ids.append(selected)
            segment = []
        else:
            segment.append(tok)
    out = []
    for name in condition_names(campaign, ids or [None]):
        cand = Candidate(name, words(name))
        if not prefix or any(w.startswith(prefix) for w in cand.words):
            out.append(_display(cand))
    return Completion(start, end, tuple(out[:50]))
