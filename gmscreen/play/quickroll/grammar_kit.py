"""Pieces every game's quick-roll grammar builds with (the games' `line.py` modules).

Reading a number after a keyword, a bare difficulty, dice typed without a sheet, words that
only set flags, the one trait of a kind a side named, the skills other characters have, the
common tail that turns gathered values into a checked `Draft`, and cutting typed faces into
groups: written once here so that no two games copy them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from gmscreen.i18n import _

from ..effects import APPLIED, apply_conditions, scene_of
from .grammar import Choice, Context, Draft, QuickRollError, Side, SystemGrammar, check_request, flat
from .text import Candidate, Token, candidate, fold

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.rules._base import System

# Known skills of a campaign: folded name -> (name as written, parent key or None).
KnownSkills = dict[str, tuple[str, str | None]]


def to_int(text: str) -> int:
    """An integer as typed, the typographic minus included."""
    return int(text.replace("−", "-"))


def next_number(tokens: Sequence[Token], i: int, what: str) -> int:
    """The number after the keyword at i (`sd 3`, `seuil 15`), or an error naming `what`."""
    if i + 1 >= len(tokens) or not re.fullmatch(r"[+\-−]?\d+", tokens[i + 1].norm):
        tok = tokens[i]
        raise QuickRollError("number_must_follow", tok.start, tok.end, word=tok.text, what=what)
    return to_int(tokens[i + 1].norm)


def once_after(ctx: Context, tokens: Sequence[Token], i: int, key: str, word: str, what: str) -> int:
    """The number after the keyword at i (`seuil 15`, `max 3`) is the value `key`, given once;
    2 tokens used. `word` names the number in an error, `what` the value given twice."""
    ctx.once(key, next_number(tokens, i, word), tokens[i], what, tokens[i + 1])
    return 2


def plain_difficulty(ctx: Context, tok: Token, what: str) -> int:
    """A bare whole number (`15`) is the difficulty, given once: 1 token used, 0 for any other."""
    if not re.fullmatch(r"\d+", tok.norm):
        return 0
    ctx.once("difficulty", int(tok.norm), tok, what)
    return 1


def set_flags(ctx: Context, word: str, flags: Mapping[str, Mapping[str, Any]]) -> bool:
    """A word that only sets values of the request (`ouvert`, `sans parade`): True when
    `flags` (word -> values) knows it."""
    values = flags.get(word)
    if values is None:
        return False
    ctx.values.update(values)
    return True


def trait(side: Side, kind: str) -> tuple[Candidate, Token] | None:
    """The one trait of `kind` the side named (a second one is an error), or None."""
    found = [(c, t) for c, t in side.traits if isinstance(c.value, tuple) and c.value[0] == kind]
    if len(found) > 1:
        c, t = found[1]
        raise QuickRollError("already_has", t.start, t.end, word=t.text, name=side.name, label=found[0][0].label)
    return found[0] if found else None


def raw_dice(ctx: Context, tok: Token, pattern: str, code: str,
             read: Callable[[re.Match[str]], dict[str, int]]) -> Side | None:
    """Dice typed without a sheet (`6d12`, `1d20+3`): when the folded token matches `pattern`,
    the side they are for gets `read(match)` as its numbers and the token as their text; error
    `code` (with `word` and `name`) when that side already has a character or its dice. None
    when the token is another number."""
    m = re.fullmatch(pattern, tok.norm)
    if m is None:
        return None
    side = ctx.side
    if side.named:
        raise QuickRollError(code, tok.start, tok.end, word=tok.text, name=side.name)
    side.raw = read(m)
    side.raw_text = tok.text
    return side


def refuse_helpers(ctx: Context, code: str, **params: Any) -> None:
    """Error `code` on the first helper named, when this test takes no help."""
    if ctx.helpers:
        h = ctx.helpers[0][2]
        raise QuickRollError(code, h.start, h.end, **params)


def against(actor: str, opponent: str) -> str:
    """Two sides of a draft label: "Ana · Épée 3 contre Bob · Esquive 2" ("against" in English)."""
    return _("{actor} against {opponent}").format(actor=actor, opponent=opponent)


def side_id(side: Side) -> str | None:
    """The id of the side's character (None for raw dice)."""
    return side.character.id if side.character is not None else None


def characteristic_candidates(system: System, group_key: str) -> list[Candidate]:
    """The fixed stats of one sheet group, as traits `("char", key, label)`."""
    group = system.group(group_key)
    assert group is not None
    return [candidate(s.label, ("char", s.key, s.label), s.key) for s in group.stats]


def free_skills(campaign: Campaign, group: str = "skills", nested: bool = False) -> KnownSkills:
    """Every skill name used in the campaign, folded -> (name, parent key or None)."""
    out: KnownSkills = {}
    for character in campaign.characters:
        skills = character.sheet.get(group)
        if not isinstance(skills, dict):
            continue
        if nested:
            for parent, table in skills.items():
                if isinstance(table, dict):
                    for name in table:
                        out.setdefault(fold(name), (name, parent))
        else:
            for name in skills:
                out.setdefault(fold(name), (name, None))
    return out


def flat_skills(side: Side, known: KnownSkills) -> list[Candidate]:
    """Free skills in one flat table (Éclats, Arpèges): the side's own, then those only
    others have, at 0, so that a line naming them still reads."""
    own = side.sheet("skills")
    out = [candidate(name, ("skill", name, int(value))) for name, value in own.items()]
    owned = {fold(n) for n in own}
    out += [candidate(name, ("skill", name, 0)) for key, (name, _) in known.items() if key not in owned]
    return out


def nested_skills(side: Side, known: KnownSkills) -> list[Candidate]:
    """Skills filed under a parent (Magisphère statistic, Te Deum characteristic): the side's
    own, then those only others have, at 0, so that a line naming them still reads."""
    out, owned = [], set()
    for parent, table in side.sheet("skills").items():
        if isinstance(table, dict):
            for name, value in table.items():
                out.append(candidate(name, ("skill", name, int(value), parent)))
                owned.add(fold(name))
    out += [candidate(name, ("skill", name, 0, parent)) for key, (name, parent) in known.items()
            if key not in owned]
    return out


def finish(grammar: SystemGrammar, ctx: Context, kind: str, request: dict[str, Any], *, who: str,
           who_id: str | None, label: str, missing: str = "", baseline: dict[str, Any] | None = None,
           choice: Choice | None = None, timer: dict[str, Any] | None = None, difficulty_text: str = "",
           dice_helpers: Sequence[str] = ()) -> Draft:
    """Common tail: rule options, hidden, forced faces, validation, the draft. `difficulty_text`:
    the part of `label` (between " · ") that states the difficulty, kept whole where the label
    must shrink; `dice_helpers`, the helpers who roll dice of their own (their luck counts)."""
    request = {"system": grammar.system_id, "kind": kind, **grammar.rules_defaults(kind), **request}
    if ctx.hidden:
        request["hidden"] = True
    unconditioned, request, met, choice = _conditions(grammar, ctx, kind, request, choice)
    forced = ctx.faces is not None
    if forced:
        request.update(grammar.split_faces(ctx, request, kind))
    if not missing or forced:
        if missing and forced:
            raise QuickRollError("missing", len(ctx.line), text=missing)
        check_request(request, ctx, forced)
    else:
        # Validate with the placeholder difficulty so that every other mistake still shows.
        check_request(request, ctx, False)
    if baseline is not None:
        base_kind = baseline.get("kind", kind)
        baseline = {"system": grammar.system_id, **grammar.rules_defaults(base_kind), **baseline, "kind": base_kind}
        if ctx.hidden:
            baseline["hidden"] = True
        if met:
            baseline = apply_conditions(grammar.game, base_kind, baseline, ctx.sides,
                                        [w for w, _s in ctx.without], [h for _i, h, _t in ctx.helpers],
                                        scene_of(ctx.campaign, ctx.scene))[0]
    span = ctx.spans.get("difficulty")
    return Draft(
        line=ctx.line, system=grammar.system_id, kind=kind, request=request, who=who, who_id=who_id,
        label=label, difficulty_text=difficulty_text, gm_only=ctx.gm_only, forced=forced, missing=missing, baseline=baseline,
        modifier_text=", ".join(ctx.modifiers), choice=None if forced else choice, sides=list(ctx.sides),
        difficulty_span=span, timer=timer, conditions=met, unconditioned=unconditioned,
        dice_helpers=list(dice_helpers), game=grammar.game,
    )


def _conditions(grammar: SystemGrammar, ctx: Context, kind: str, request: dict[str, Any],
                choice: Choice | None) -> tuple[dict[str, Any] | None, dict[str, Any], list[Any], Choice | None]:
    """Each side's conditions applied (`gmscreen.play.effects`): the request before them (when
    any was applied), after them, what became of each, and the choice inside the roll after
    them. A `sans X` naming no condition of the sides is an error where it was typed."""
    without = [w for w, _s in ctx.without]
    after, met, unused = apply_conditions(grammar.game, kind, request, ctx.sides, without,
                                          [h for _i, h, _t in ctx.helpers], scene_of(ctx.campaign, ctx.scene))
    if unused:
        start, end = ctx.without[unused[0]][1]
        names = ", ".join([s.name for s in ctx.sides if s.character is not None]
                          + [h.name for _i, h, _t in ctx.helpers])
        raise QuickRollError("without_condition", start, end, word=ctx.line[start:end], names=names)
    if not any(e.state == APPLIED for e in met):
        return None, request, met, choice
    return dict(request), after, met, grammar.game.effects.choice_after(choice, after)


def chunks(faces: list[int], sizes: Sequence[int]) -> list[list[int]]:
    """Cut a flat list of faces by sizes; what is left over goes to the last group."""
    out, pos = [], 0
    for size in sizes:
        out.append(faces[pos:pos + size])
        pos += size
    if pos < len(faces):
        out[-1] = out[-1] + faces[pos:]
    return out


def groups_or_split(ctx: Context, sizes: Sequence[int]) -> list[list[int]]:
    """Use the '/' groups when the GM typed them, else cut the flat list by known sizes."""
    groups = ctx.faces or [[]]
    if len(groups) > 1:
        if len(groups) != len(sizes):
            raise QuickRollError("dice_groups_given", ctx.faces_pos, len(ctx.line), expected=len(sizes),
                                 given=len(groups))
        return [list(g) for g in groups]
    return chunks(flat(ctx), sizes)
