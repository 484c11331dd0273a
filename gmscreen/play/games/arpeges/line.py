"""Les Arpèges in the quick-roll line: what its words and numbers mean, the request they build,
its completion words and its `?` help (see gmscreen.play.quickroll.line_rules)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from gmscreen.i18n import _, ngettext
from gmscreen.i18n.typography import signed
from gmscreen.rules.arpeges import SIMULTANEOUS_PENALTY

from ...declarations import simultaneous_actions
from ...quickroll.grammar import Choice, Context, Draft, QuickRollError, Side, SystemGrammar, flat, sign
from ...quickroll.grammar_kit import against, finish, flat_skills, free_skills, once_after, raw_dice, refuse_helpers
from ...quickroll.grammar_kit import set_flags, side_id, to_int, trait
from ...quickroll.line_help import game_help
from ...quickroll.line_rules import LineRules
from ...quickroll.text import Candidate, Token, candidate

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


# Words that only set values of the request: an open roll, a parry (a confrontation), how an
# opposition is rolled ...
_FLAGS = {**dict.fromkeys(("ouvert", "open"), {"open_roll": True}),
          **dict.fromkeys(("parade", "parry"), {"parry": True, "confrontation": True}),
          **dict.fromkeys(("confrontation", "conf"), {"confrontation": True}),
          **dict.fromkeys(("2j", "deuxjets"), {"two_rolls": True}), "1j": {"two_rolls": False}}
# ... and after `sans`: `sans parade` is a confrontation the other side does not parry.
_WITHOUT = dict.fromkeys(("parade", "parry"), {"parry": False, "confrontation": True})


class ArpegesGrammar(SystemGrammar):
    system_id = "arpeges"
    keywords = frozenset({"ouvert", "open", "parade", "parry", "confrontation", "conf", "2j", "deuxjets",
                          "1j", "actions", "difficulte"})

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        self._groups = {}
        for key in ("caracteristiques", "moyens"):
            group = self.system.group(key)
            assert group is not None
            self._groups[key] = [(s.key, s.label) for s in group.stats]
        self._known = free_skills(campaign)

    def traits(self, side: Side) -> list[Candidate]:
        out = [candidate(label, (group, key, label), key) for group, stats in self._groups.items()
               for key, label in stats]
        return out + flat_skills(side, self._known)

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        if set_flags(ctx, tokens[i].norm, _FLAGS):
            return 1
        if tokens[i].norm == "difficulte":
            return once_after(ctx, tokens, i, "difficulty", _("difficulty"), _("the difficulty"))
        return 0

    def negated(self, ctx: Context, token: Token) -> bool:
        return set_flags(ctx, token.norm, _WITHOUT)

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        # `±d10+2` (the ° of an open roll allowed): a skill level of 2 with no sheet.
        if raw_dice(ctx, tok, r"±?d10°?([+\-−]\d+)?", "already_level",
                    lambda m: {"level": to_int(m.group(1) or "0")}):
            return 1
        norm = tok.norm.replace("−", "-")
        m = re.fullmatch(r"[x×](\d+)|(\d+)actions?", norm)
        # `x2` counts for the side it is typed on: the actor's, or after `vs` the opponent's.
        key = "opponent_simultaneous_actions" if ctx.side.role == "opponent" else "simultaneous_actions"
        if m:
            ctx.once(key, int(m.group(1) or m.group(2)), tok, _("the number of actions"))
            return 1
        if re.fullmatch(r"(\d+)", norm) and i + 1 < len(tokens) and tokens[i + 1].norm == "actions":
            ctx.once(key, int(norm), tok, _("the number of actions"), tokens[i + 1])
            return 2
        if re.fullmatch(r"[+\-]?\d+", norm):
            if "difficulty" in ctx.values:
                ctx.values["difficulty"] += to_int(norm)
                start = ctx.spans["difficulty"][0]
                ctx.spans["difficulty"] = (start, tok.end)
            else:
                ctx.once("difficulty", to_int(norm), tok, _("the difficulty"))
            return 1
        return 0

    def _level(self, side: Side) -> tuple[int, str]:
        """Niveau de Compétence = Caractéristique + Moyen + Compétence (best ones when not named)."""
        if side.raw and not side.traits:
            return side.raw["level"], side.raw_text
        skill_t = trait(side, "skill")
        parts = []
        total = 0
        for group in ("caracteristiques", "moyens"):
            named = trait(side, group)
            values = side.sheet(group)
            if named is not None:
                _group, key, label = named[0].value  # type: ignore[misc]
            else:
                if skill_t is None:
                    raise QuickRollError("which_skill", side.start, name=side.name)
                key, label = max(self._groups[group], key=lambda kl: int(values.get(kl[0], 0) or 0))
            value = int(values.get(key, 0) or 0)
            total += value
            parts.append(f"{label} {sign(value)}")
        if skill_t is not None:
            value = int(skill_t[0].value[2])  # type: ignore[index]
            total += value
            parts.append(f"{skill_t[0].label} {sign(value)}")
        return total, f"{' + '.join(parts)} = {sign(total)}"

    def _declared(self, side: Side) -> int:
        """Actions the side's character declared for the round in the queue (R12), at least 1."""
        char_id = side_id(side)
        return 1 if char_id is None else simultaneous_actions(self.campaign, char_id)

    def build(self, ctx: Context) -> Draft:
        v = ctx.values
        actor, opp = ctx.actor, ctx.opponent
        refuse_helpers(ctx, "no_help_rule_plural", game="Les Arpèges")
        level, a_text = self._level(actor)
        common: dict[str, Any] = {}
        if v.get("open_roll"):
            common["open_roll"] = True
        explicit = "simultaneous_actions" in v
        actions = v["simultaneous_actions"] if explicit else self._declared(actor)
        if opp is None:
            if v.get("confrontation"):
                raise QuickRollError("confrontation_needs_vs", len(ctx.line))
            difficulty = v.get("difficulty")
            missing = "" if difficulty is not None else _("difficulty missing: a signed number (−3, +2, 0)")
            request = {"difficulty": difficulty if difficulty is not None else 0, "skill_level": level, **common}
            if actions > 1:
                request["simultaneous_actions"] = actions
                ctx.modifiers.append(_actions(actions, explicit))
            baseline = {k: x for k, x in request.items() if k != "simultaneous_actions"} if actions > 1 else None
            diff = _("difficulty {value}").format(value=sign(difficulty) if difficulty is not None else "?")
            label = f"{actor.name} · {a_text} · {diff}"
            return finish(self, ctx, "simple", request, who=actor.name, who_id=side_id(actor), label=label,
                          missing=missing, baseline=baseline, difficulty_text=diff)
        o_level, o_text = self._level(opp)
        o_explicit = "opponent_simultaneous_actions" in v
        o_actions = v["opponent_simultaneous_actions"] if o_explicit else self._declared(opp)
        # R12 on both sides: each side's actions named with the malus they take (baseline: none).
        for name, count, typed in ((actor.name, actions, explicit), (opp.name, o_actions, o_explicit)):
            if count > 1:
                ctx.modifiers.append(_side_actions(name, count, typed))
        confrontation = v.get("confrontation") or "difficulty" in v
        if confrontation:
            request = {"difficulty": v.get("difficulty", 0), "actor_skill_level": level,
                       "opponent_skill_level": o_level, **common}
            if v.get("parry") is False:
                request["parry"] = False
            baseline = dict(request) if actions > 1 or o_actions > 1 else None
            if actions > 1:
                request["simultaneous_actions"] = actions
            if o_actions > 1:
                # The spec's parry level is the defender's "own attributes and penalties": R12 in it.
                request["opponent_skill_level"] = o_level - _malus(o_actions)
            diff = _("difficulty {value}").format(value=sign(request["difficulty"]))
            label = f"{actor.name} · {a_text} · {diff} · " + _("{name} parries").format(name=opp.name) + f" · {o_text}"
            choice = Choice("arpeges_parry", {}) if v.get("parry") is None else None
            return finish(self, ctx, "confrontation", request, who=actor.name, who_id=side_id(actor), label=label,
                          baseline=baseline, choice=choice, difficulty_text=diff)
        kind = "opposed_two_rolls" if v.get("two_rolls") else "opposed_one_roll"
        request = {"actor_skill_level": level, "opponent_skill_level": o_level, **common}
        baseline = dict(request) if actions > 1 or o_actions > 1 else None
        if actions > 1:
            request["actor_simultaneous_actions"] = actions
        if o_actions > 1:
            request["opponent_simultaneous_actions"] = o_actions
        how = _("opposition in two rolls") if kind == "opposed_two_rolls" else _("opposition in one roll")
        label = against(f"{actor.name} · {a_text}", f"{opp.name} · {o_text}") + f" · {how}"
        return finish(self, ctx, kind, request, who=actor.name, who_id=side_id(actor), label=label,
                      baseline=baseline)

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        open_roll = bool(request.get("open_roll"))
        names = {
            "simple": ["chance_dice", "malchance_dice"],
            "opposed_one_roll": ["chance_dice", "malchance_dice"],
            "opposed_two_rolls": ["actor_chance_dice", "actor_malchance_dice", "opponent_chance_dice",
                                  "opponent_malchance_dice"],
            "confrontation": ["actor_chance_dice", "actor_malchance_dice", "opponent_chance_dice",
                              "opponent_malchance_dice"],
        }[kind]
        groups = ctx.faces or [[]]
        faces = flat(ctx) if len(groups) == 1 else None
        per_side = [list(g) for g in groups] if faces is None else None
        out: dict[str, Any] = {}
        for n, name in enumerate(names):
            if per_side is not None:
                side_faces = per_side[n // 2] if n // 2 < len(per_side) else []
                source = side_faces
            else:
                source = faces  # type: ignore[assignment]
            chain: list[int] = []
            while source:
                face = source.pop(0)
                chain.append(face)
                if not (open_roll and face == 10):
                    break
            if chain or not name.startswith("opponent_") or kind == "opposed_two_rolls":
                out[name] = chain
        leftover = faces if faces is not None else [f for g in (per_side or []) for f in g]
        if leftover:
            last = names[-1] if names[-1] in out else names[1]
            out[last] = out.get(last, []) + leftover
        return out


def _actions(actions: int, explicit: bool) -> str:
    """The modifier of simultaneous actions (R12): typed in the line, or declared in the queue."""
    if explicit:
        return ngettext("{n} action", "{n} actions", actions).format(n=actions)
    return ngettext("{n} action declared", "{n} actions declared", actions).format(n=actions)


def _malus(actions: int) -> int:
    """R12: what each of `actions` simultaneous actions loses (0 for one)."""
    return SIMULTANEOUS_PENALTY * (actions - 1)


def _side_actions(name: str, actions: int, explicit: bool) -> str:
    """One side's simultaneous actions in an opposition, named, with the malus each takes."""
    return _("{name}: {actions} ({malus} each)").format(name=name, actions=_actions(actions, explicit),
                                                       malus=signed(-_malus(actions)))


class ArpegesLine(LineRules):
    """The words of Les Arpèges in the quick-roll line and their help."""

    grammar_class = ArpegesGrammar
    completion_words = ("vs", "ouvert", "2j", "sans parade", "mj")
    help_title, help_examples, help_notes = game_help(__file__)     # from help.toml, in this folder

    def difficulty_token(self, value: int) -> str:
        return f"{value:+d}"         # a difficulty is a signed number (−3, +2, +0)


LINE = ArpegesLine()
