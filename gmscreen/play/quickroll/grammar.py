"""One quick-roll grammar for every system: a line in the words of the table -> a request.

    [mj] [name] skill… [difficulty] [modifiers…] [vs name skill…] [aide name…] [= faces…]

The scanner below is shared; each game's line part (`gmscreen/play/games/<id>/line.py`, a
`LineRules`) says what its words and numbers mean and builds the `gmscreen.rules` request.
Nothing here imports Textual.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from gmscreen.i18n import _
from gmscreen.rules import RequestError, check, get_system, resolve

# The records a line is read into, and the base every game's grammar fills, named here too
# (`from gmscreen.play.quickroll.grammar import Draft`, as the games and the screen do).
from ..exchange import Choice, Draft, Side, Spend
from .grammar_base import Context, QuickRollError, SystemGrammar
from .text import Candidate, Token, candidate, match, ranked, tokenize

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ..game import GameTable

VS_WORDS = frozenset({"vs", "v", "contre", "versus", "against"})
HELP_WORDS = frozenset({"aide", "aidee", "aide_par", "help", "helped", "avec", "with"})
GM_WORDS = frozenset({"mj", "gm", "secret", "prive", "private"})
HIDDEN_WORDS = frozenset({"cache", "hidden", "sdcache"})
NO_WORDS = frozenset({"sans", "no", "without", "pas"})
COMMON_WORDS = VS_WORDS | HELP_WORDS | GM_WORDS | HIDDEN_WORDS | NO_WORDS | {"="}
MAX_PHRASE = 6


def character_candidates(campaign: Campaign) -> list[Candidate]:
    return [Candidate(c.name, _name_words(c.name), i, _id_aliases(c.id)) for i, c in enumerate(campaign.characters)]


def _name_words(name: str) -> tuple[str, ...]:
    from .text import words

    return words(name)


def _id_aliases(char_id: str) -> tuple[tuple[str, ...], ...]:
    from .text import words

    form = words(char_id.replace("-", " ").replace("_", " "))
    return (form,) if form else ()


_DIGITS = re.compile(r"[0-9]+")
_GLUED = re.compile(r"(.*[^0-9])([0-9]+)")


def _numbered(form: tuple[str, ...]) -> tuple[tuple[str, ...], int | None]:
    """A name's words without their last number ('garde 2' -> ('garde',), 2), as the roster's
    duplicate action names copies; (words, None) for a name without one."""
    if len(form) > 1 and _DIGITS.fullmatch(form[-1]):
        return form[:-1], int(form[-1])
    return form, None


class People:
    """The campaign's characters as the line names them, copies ('Le garde 2') by their number.

    Characters whose names differ only by a last number are one family: the base name alone
    names none of them (ambiguous) when the family has several, `garde 2` / `garde2` names the
    copy numbered 2 (never 12), and the unnumbered original is number 1 unless one is numbered 1."""

    def __init__(self, campaign: Campaign) -> None:
        self.candidates = character_candidates(campaign)
        split = [_numbered(c.words) for c in self.candidates]
        families: dict[tuple[str, ...], list[Candidate]] = {}
        for cand, (base, _n) in zip(self.candidates, split):
            families.setdefault(base, []).append(cand)
        self._family = {id(c): families[base] for c, (base, _n) in zip(self.candidates, split)}
        self._number: dict[int, int] = {}
        for cand, (base, number) in zip(self.candidates, split):
            if number is not None:
                self._number[id(cand)] = number
            elif len(families[base]) > 1 and not any(_numbered(m.words)[1] == 1 for m in families[base]):
                self._number[id(cand)] = 1

    def family(self, cand: Candidate) -> list[Candidate]:
        return self._family[id(cand)]

    def number(self, cand: Candidate) -> int | None:
        return self._number.get(id(cand))

    def numbered(self, typed: Sequence[str], number: int) -> tuple[int, list[Candidate]]:
        """The best tier and the characters numbered `number` whose name without it the typed words name."""
        def forms(c: Candidate) -> list[tuple[str, ...]]:
            return [f[:-1] if len(f) > 1 and _DIGITS.fullmatch(f[-1]) and int(f[-1]) == number else f
                    for f in (c.words,) + c.aliases]

        return ranked(typed, [c for c in self.candidates if self.number(c) == number], forms)


def match_character(tokens: Sequence[Token], i: int, reserved: frozenset[str], people: People,
                    what: str) -> tuple[Candidate, int] | None:
    """The character named from i and the tokens used: as `longest_match`, and a copy by its
    number (`garde 2`, `garde2`, `le garde de la porte 2`); the base name of several copies
    is an error listing them."""
    phrase = _phrase(tokens, i, reserved)
    after = tokens[i + len(phrase)] if i + len(phrase) < len(tokens) else None
    for k in range(len(phrase), 0, -1):
        typed = [t.norm for t in phrase[:k]]
        tier, found = ranked(typed, people.candidates, lambda c: (c.words,) + c.aliases)
        if k == len(phrase) and after is not None and _DIGITS.fullmatch(after.norm):
            n_tier, copies = people.numbered(typed, int(after.norm))
            # The number names a copy, never a difficulty: unless the words alone name better
            # someone without copies ('Garde' with 'Garde du roi 2': `garde 2` is Garde, SD 2).
            if copies and (n_tier >= tier or any(len(people.family(f)) > 1 for f in found)):
                return _one(copies, [*phrase, after], what), k + 1
        if not found:
            glued = _GLUED.fullmatch(typed[-1])
            if glued:
                _t, copies = people.numbered(typed[:-1] + [glued.group(1)], int(glued.group(2)))
                if copies:
                    return _one(copies, phrase[:k], what), k
            continue
        if len(found) == 1 and len(people.family(found[0])) > 1 and tuple(typed) != found[0].words:
            found = people.family(found[0])   # 'garde' among 'Le garde', 'Le garde 2'…: which one?
        return _one(found, phrase[:k], what), k
    return None


def _one(found: Sequence[Candidate], typed: Sequence[Token], what: str) -> Candidate:
    """The one candidate found, or the ambiguity error listing them where `typed` sits."""
    if len(found) == 1:
        return found[0]
    raise QuickRollError("ambiguous", typed[0].start, typed[-1].end, text=" ".join(t.text for t in typed), what=what,
                         labels=tuple(c.label for c in found[:8]), extra=max(0, len(found) - 8))


NUMERIC = re.compile(r"^[+\-−±]?\d|^[±]?\d*d\d|^[+\-]\d*d$|^(sd|max|x|×)\d+$")


def is_numeric(norm: str) -> bool:
    return bool(NUMERIC.match(norm))


def _phrase(tokens: Sequence[Token], i: int, reserved: frozenset[str]) -> list[Token]:
    """The longest run of plain words from i (no keyword, number, '=')."""
    out = []
    for tok in tokens[i:i + MAX_PHRASE]:
        if tok.norm in reserved or is_numeric(tok.norm) or tok.norm == "=" or tok.norm == "/":
            break
        out.append(tok)
    return out


def longest_match(tokens: Sequence[Token], i: int, reserved: frozenset[str], candidates: Sequence[Candidate],
                  what: str) -> tuple[Candidate, int] | None:
    """The candidate named by the longest phrase from i; ambiguity is an error listing them."""
    phrase = _phrase(tokens, i, reserved)
    for k in range(len(phrase), 0, -1):
        found = match([t.norm for t in phrase[:k]], candidates)
        if len(found) == 1:
            return found[0], k
        if found:
            # Several candidates share this name: same label twice is still ambiguous.
            text = " ".join(t.text for t in phrase[:k])
            raise QuickRollError("ambiguous", phrase[0].start, phrase[k - 1].end, text=text, what=what,
                                 labels=tuple(c.label for c in found[:8]), extra=max(0, len(found) - 8))
    return None


def grammar_for(campaign: Campaign, game: GameTable) -> SystemGrammar:
    """The grammar of the campaign's system, for its characters: `game`'s line part, handed
    its game (the caller's: the `Table`'s, a view's), which the draft carries on."""
    get_system(campaign.system)          # an unknown system: the rules' one clear error
    grammar = game.line.grammar(campaign)
    grammar.game = game
    return grammar


def parse(line: str, campaign: Campaign, *, game: GameTable, selected: str | None = None,
          people: People | None = None) -> Draft:
    """Read one quick-roll line with `game` (the campaign's, as its caller holds it). Raises
    `QuickRollError(code, position, **params)`. `people`: the campaign's names built once for
    many lines (the history), not once a line."""
    grammar = grammar_for(campaign, game)
    tokens = tokenize(line)
    if not tokens:
        raise QuickRollError("empty_line", 0)
    ctx = Context(line, tokens, campaign, selected, [Side("actor", tokens[0].start)])
    reserved = COMMON_WORDS | grammar.keywords
    people = people if people is not None else People(campaign)
    helper_mode = False
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        norm = tok.norm
        if norm == "=":
            ctx.faces, ctx.faces_pos = _faces(tokens[i + 1:], tok)
            break
        if norm in VS_WORDS:
            if ctx.opponent is not None:
                raise QuickRollError("one_vs", tok.start, tok.end)
            _finish_side(ctx, grammar, tok)
            ctx.sides.append(Side("opponent", tok.end))
            helper_mode = False
            i += 1
            continue
        if norm in HELP_WORDS:
            helper_mode = True
            i += 1
            if i >= len(tokens):
                raise QuickRollError("helper_who", tok.start, tok.end)
            continue
        if norm in GM_WORDS:
            ctx.gm_only = True
            i += 1
            continue
        if norm in HIDDEN_WORDS:
            ctx.hidden = True
            i += 1
            continue
        if norm in NO_WORDS:
            if i + 1 < len(tokens) and grammar.negated(ctx, tokens[i + 1]):
                i += 2
                continue
            used = _without_condition(ctx, tokens, i + 1, reserved)
            if not used:
                raise QuickRollError("without_what", tok.start, tok.end, word=tok.text)
            i += 1 + used
            continue
        used = grammar.keyword(ctx, tokens, i)
        if used:
            helper_mode = False
            i += used
            continue
        if is_numeric(norm):
            used = grammar.number(ctx, tokens, i)
            if not used:
                raise QuickRollError("unexpected_number", tok.start, tok.end, word=tok.text)
            helper_mode = False
            i += used
            continue
        if helper_mode:
            found = match_character(tokens, i, reserved, people, _("characters"))
            if found is None:
                raise _no_character("unknown_character", tok, people)
            cand, k = found
            index = int(cand.value)  # type: ignore[call-overload]
            ctx.helpers.append((index, campaign.characters[index], tok))
            i += k
            continue
        side = ctx.side
        if not side.named:
            found = match_character(tokens, i, reserved, people, _("characters"))
            if found is not None:
                cand, k = found
                side.index = int(cand.value)  # type: ignore[call-overload]
                side.character = campaign.characters[side.index]
                side.start = tok.start
                i += k
                continue
            if side.role == "actor" and selected is not None:
                _use_selected(ctx, side, selected)
        if side.named:
            found = longest_match(tokens, i, reserved, grammar.traits(side), _("skills"))
            if found is not None:
                cand, k = found
                side.traits.append((cand, tok))
                i += k
                continue
        found = longest_match(tokens, i, reserved, grammar.difficulty_candidates(), _("difficulties"))
        if found is not None:
            cand, k = found
            ctx.once("difficulty", cand.value, tok, _("the difficulty"), tokens[i + k - 1])
            ctx.values["difficulty_label"] = cand.label
            i += k
            continue
        if not side.named:
            raise _no_character("name_first", tok, people, role=side.role)
        raise _unknown_word(tok, side, grammar, people)
    _finish_side(ctx, grammar, None)
    return grammar.build(ctx)


def _no_character(code: str, tok: Token, people: People, **params: Any) -> QuickRollError:
    """No character of that name; with the close names when a typo is likely (`margo`)."""
    from .suggest import close_labels

    near = close_labels(tok.norm, people.candidates)
    if near:
        return QuickRollError("no_character_near", tok.start, tok.end, word=tok.text, names=near)
    return QuickRollError(code, tok.start, tok.end, word=tok.text, **params)


def _unknown_word(tok: Token, side: Side, grammar: SystemGrammar, people: People) -> QuickRollError:
    """A word neither a trait of the side nor a word of the line: the close traits, or (the
    side being the selected character, not named) the close names, when there are some."""
    from .suggest import close_labels

    near = close_labels(tok.norm, grammar.traits(side))
    if near:
        return QuickRollError("unknown_word_near", tok.start, tok.end, word=tok.text, name=side.name, labels=near)
    if side.implicit:
        near = close_labels(tok.norm, people.candidates)
        if near:
            return QuickRollError("no_character_near", tok.start, tok.end, word=tok.text, names=near)
    return QuickRollError("unknown_word", tok.start, tok.end, word=tok.text, name=side.name)


def _without_condition(ctx: Context, tokens: Sequence[Token], i: int, reserved: frozenset[str]) -> int:
    """`sans ébloui`: the words from i that name a condition of someone in the campaign (the
    one left out of this roll; the sides' own are checked when the roll is built), kept in
    `ctx.without`; the number of tokens used, 0 when they name none."""
    from ..effects import condition_names

    names = [candidate(n) for n in condition_names(ctx.campaign)]
    phrase = _phrase(tokens, i, reserved)
    for k in range(len(phrase), 0, -1):
        if match([t.norm for t in phrase[:k]], names):
            ctx.without.append((tuple(t.norm for t in phrase[:k]), (phrase[0].start, phrase[k - 1].end)))
            return k
    return 0


def _use_selected(ctx: Context, side: Side, selected: str) -> None:
    for index, character in enumerate(ctx.campaign.characters):
        if character.id == selected:
            side.character, side.index, side.implicit = character, index, True
            return


def _finish_side(ctx: Context, grammar: SystemGrammar, at: Token | None) -> None:
    side = ctx.side
    if not side.named and side.role == "actor" and ctx.selected is not None:
        _use_selected(ctx, side, ctx.selected)
    if not side.named:
        pos = at.start if at is not None else len(ctx.line)
        if side.role == "opponent":
            raise QuickRollError("vs_whom", pos)
        raise QuickRollError("who_rolls", pos)


def _faces(tokens: Sequence[Token], eq: Token) -> tuple[list[list[int]], int]:
    """Faces after '=': integers, groups separated by '/' (or ',' or '|')."""
    groups: list[list[int]] = [[]]
    for tok in tokens:
        for part in re.split(r"([/|,;])", tok.text):
            if not part:
                continue
            if part in "/|,;":
                groups.append([])
                continue
            if not re.fullmatch(r"\d{1,3}", part):
                raise QuickRollError("face_not_number", tok.start, tok.end, word=part)
            groups[-1].append(int(part))
    while len(groups) > 1 and not groups[-1]:
        groups.pop()
    return groups, eq.start


def typed_faces(text: str) -> list[list[int]]:
    """Faces typed as the line takes them after `=` ("3 7 12", "= 14 / 9"), for dice rolled at
    the table and entered elsewhere (the next interval of an extended test). QuickRollError."""
    tokens = [t for t in tokenize(text) if t.text != "="]
    return _faces(tokens, tokens[0] if tokens else Token("=", "=", 0, 0))[0]


def flat(ctx: Context) -> list[int]:
    return [f for g in (ctx.faces or []) for f in g]


def check_request(request: dict[str, Any], ctx: Context, forced: bool) -> None:
    """Refuse, as a positioned error, a request the rules would refuse. Forced faces are
    checked by resolving them (cheap); otherwise no odds are computed here: the tray and the
    difficulty table compute them once, through the memo in `gmscreen.play.chances`."""
    try:
        if forced:
            resolve(request)
        else:
            check(request)
    except RequestError as exc:
        raise QuickRollError("rule", *_error_span(exc.field, ctx, forced), error=exc) from None


def _error_span(field_name: str, ctx: Context, forced: bool) -> tuple[int, int]:
    if forced and ("dice" in field_name or field_name == "rolls"):
        return ctx.faces_pos, len(ctx.line)
    for key, span in ctx.spans.items():
        if key in field_name or field_name.endswith(key):
            return span
    return 0, len(ctx.line)


def opponent_name(line: str, campaign: Campaign, game: GameTable) -> str | None:
    """The opponent's full name as `parse` matches it after `vs` / `contre` (the log and the
    tray name the winner; the line may say "garde" for "Le garde de la porte"), or None."""
    tokens = tokenize(line)
    for i, tok in enumerate(tokens):
        if tok.norm in VS_WORDS:
            reserved = COMMON_WORDS | grammar_for(campaign, game).keywords
            try:
                found = match_character(tokens, i + 1, reserved, People(campaign), _("characters"))
            except QuickRollError:
                return None
            return campaign.characters[int(found[0].value)].name if found else None  # type: ignore[call-overload]
    return None


def sign(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"

