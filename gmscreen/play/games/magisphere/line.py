"""Magisphère in the quick-roll line: what its words and numbers mean, the request they build,
its completion words and its `?` help (see gmscreen.play.quickroll.line_rules)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence, cast

from gmscreen.i18n import _, ngettext

from ...quickroll.grammar import Choice, Context, Draft, QuickRollError, Side, SystemGrammar, flat, sign
from ...quickroll.grammar_kit import against, finish, free_skills, nested_skills, next_number, once_after, plain_difficulty
from ...quickroll.grammar_kit import raw_dice, side_id, to_int, trait
from ...quickroll.line_help import game_help
from ...quickroll.line_rules import LineRules
from ...quickroll.text import Candidate, Token, candidate, fold

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


_TARGETS = {"breve": 2, "courte": 2, "tendue": 3, "majeure": 5}


class MagisphereGrammar(SystemGrammar):
    system_id = "magisphere"
    keywords = frozenset({"imp", "impulsion", "impulse", "malus", "bonus", "seuil"} | set(_TARGETS))

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        self._known = free_skills(campaign, nested=True)
        self._stats: dict[str, str] = {}
        for character in campaign.characters:
            for name in (character.sheet.get("stats") or {}):
                self._stats.setdefault(fold(name), name)

    def traits(self, side: Side) -> list[Candidate]:
        stats = side.sheet("stats")
        out = [candidate(name, ("stat", name, int(value))) for name, value in stats.items()]
        return out + nested_skills(side, self._known)

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm
        if norm in ("imp", "impulsion", "impulse"):
            ctx.values[f"{ctx.side.role}_impulse"] = True
            ctx.spans["impulse_bonus"] = (tok.start, tok.end)
            ctx.modifiers.append("Impulsion +3")
            return 1
        if norm in ("malus", "bonus"):
            value = abs(next_number(tokens, i, norm))
            key = norm if ctx.side.role == "actor" or norm == "malus" else "opponent_bonus"
            ctx.add(key, value)
            ctx.spans[key] = (tok.start, tokens[i + 1].end)
            ctx.modifiers.append(f"{norm} {value}")
            return 2
        if norm == "seuil":
            return once_after(ctx, tokens, i, "difficulty", _("threshold"), _("the threshold"))
        if norm in _TARGETS:
            ctx.once("target", _TARGETS[norm], tok, _("the length of the opposition"))
            return 1
        return 0

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        # `d20+12`: a score of 12 with no sheet (a negative one reads as 0).
        if raw_dice(ctx, tok, r"1?d20([+\-−]\d+)?", "already_scores",
                    lambda m: {"stat": max(0, to_int(m.group(1) or "0"))}):
            return 1
        m = re.fullmatch(r"([+\-])(\d+)", tok.norm.replace("−", "-"))
        if m:
            value = int(m.group(2))
            if m.group(1) == "+":
                key = "bonus" if ctx.side.role == "actor" else "opponent_bonus"
                ctx.add(key, value)
                ctx.spans[key] = (tok.start, tok.end)
                ctx.modifiers.append(f"+{value}")
            else:
                ctx.add("malus", value)
                ctx.spans["malus"] = (tok.start, tok.end)
                ctx.modifiers.append(f"malus {value}")
            return 1
        return plain_difficulty(ctx, tok, _("the threshold"))

    def _roller(self, side: Side, prefix: str, ctx: Context) -> tuple[dict[str, Any], str, int | None]:
        if side.raw and not side.traits:
            return {prefix + "stat": side.raw["stat"]}, side.raw_text, None
        stat_t = trait(side, "stat")
        skill_t = trait(side, "skill")
        stats = side.sheet("stats")
        if skill_t is not None:
            # nested_skills' traits: ("skill", name, level, statistic name)
            _kind, name, value, parent = cast("tuple[str, str, int, str]", skill_t[0].value)
            if stat_t is not None:
                _kind, stat_name, stat = cast("tuple[str, str, int]", stat_t[0].value)
            elif parent in stats:
                stat_name, stat = parent, int(stats[parent])
            else:
                raise QuickRollError("no_stat", skill_t[1].start, skill_t[1].end, name=side.name, stat=parent)
            text = (f"{name} ({stat_name}) {stat}{sign(value)}" if value
                    else _("{skill} ({stat}, no skill) {value}").format(skill=name, stat=stat_name, value=stat))
            fields = {prefix + "stat": stat}
            if value:
                fields[prefix + "skill"] = value
            return fields, text, value
        if stat_t is not None:
            _kind, name, value = cast("tuple[str, str, int]", stat_t[0].value)  # traits(): ("stat", name, value)
            return {prefix + "stat": value}, f"{name} {value}", None
        raise QuickRollError("which_skill_or_stat", side.start, name=side.name)

    def _impulsions(self, side: Side) -> int | None:
        res = side.sheet("resources")
        if "impulsion" not in res:
            return None
        return int(res.get("impulsion") or 0)

    def _helpers(self, ctx: Context, skill_name: str | None) -> list[int]:
        """Each helper's skill bonus (R23: half of it is given). With no skill fitting the action
        (the test names a statistic alone), the GM sets each helper's bonus, asked in the tray
        (R24); a helper without the skill the test names gives nothing (R23: half of none)."""
        out = []
        for _i, helper, _tok in ctx.helpers:
            if skill_name is None:  # R24: « si aucune compétence ne correspond à l'action effectuée »
                ctx.values.setdefault("gm_helpers", []).append(helper.name)
                out.append(0)
                continue
            value = 0
            for table in (helper.sheet.get("skills") or {}).values():
                if isinstance(table, dict):
                    for name, v in table.items():
                        if fold(name) == fold(skill_name):
                            value = int(v)
            out.append(value)
        if ctx.helpers:
            ctx.modifiers.append(_("help {names}").format(names=", ".join(h.name for _i, h, _t in ctx.helpers)))
        return out

    def build(self, ctx: Context) -> Draft:
        v = ctx.values
        actor, opp = ctx.actor, ctx.opponent
        a, a_text, _key = self._roller(actor, "", ctx)
        skill_t = trait(actor, "skill") if not actor.raw else None
        helpers = self._helpers(ctx, skill_t[0].value[1] if skill_t else None)  # type: ignore[index]
        if opp is None:
            if "target" in v:
                raise QuickRollError("extended_needs_vs", *ctx.spans["target"])
            threshold = v.get("difficulty")
            missing = "" if threshold is not None else _("threshold missing: type a number (20), “difficile”…")
            request: dict[str, Any] = {**a, "threshold": threshold if threshold is not None else 20}
            ctx.spans["threshold"] = ctx.spans.get("difficulty", (0, 0))
            extras = self._extras(v, "", helpers)
            request.update(extras)
            points = self._impulsions(actor)
            if points is not None:
                request["impulsions"] = points
                ctx.spans["impulsions"] = ctx.spans.get("impulse_bonus", (0, len(ctx.line)))
                if v.get("actor_impulse") and points < 1:
                    raise QuickRollError("no_impulsion", *ctx.spans["impulse_bonus"], name=actor.name)
            baseline = None
            if extras:
                baseline = {k: x for k, x in request.items() if k not in extras}
            seuil = _("threshold {value}").format(value=request["threshold"] if threshold is not None else "?")
            if v.get("malus"):
                seuil += f" + malus {v['malus']}"
            label = f"{actor.name} · {a_text} · {seuil}" + (f" · bonus {v['bonus']}" if v.get("bonus") else "")
            choice = Choice("magisphere_reroll", {"sides": {"": (side_id(actor), points, actor.index)},
                                                  "limit": request.get("reroll_limit", "unlimited"),
                                                  "gm_help": v.get("gm_helpers", [])})
            return _asking(finish(self, ctx, "simple", request, who=actor.name, who_id=side_id(actor), label=label,
                                  missing=missing, baseline=baseline, choice=choice if points else None,
                                  difficulty_text=seuil), choice)
        if "difficulty" in v:
            raise QuickRollError("opposition_no_threshold", *ctx.spans["difficulty"])
        if v.get("malus"):
            raise QuickRollError("malus_in_opposition", *ctx.spans["malus"])
        o, o_text, _key = self._roller(opp, "opponent_", ctx)
        extended = "target" in v
        request = {**{"actor_" + k: x for k, x in a.items()}, **o}
        extras = {"actor_" + k: x for k, x in self._extras(v, "", helpers).items()}
        if v.get("opponent_bonus"):
            extras["opponent_bonus"] = v["opponent_bonus"]
        if v.get("opponent_impulse"):
            extras["opponent_impulse_bonus"] = True
        request.update(extras)
        sides: dict[str, tuple[str | None, int | None, int | None]] = {}
        if not extended:
            for side, prefix in ((actor, "actor_"), (opp, "opponent_")):
                points = self._impulsions(side)
                if points is not None:
                    request[prefix + "impulsions"] = points
                    sides[prefix] = (side_id(side), points, side.index)
                    if request.get(prefix + "impulse_bonus") and points < 1:
                        raise QuickRollError("no_impulsion", *ctx.spans["impulse_bonus"], name=side.name)
        else:
            for key in ("actor_impulse_bonus", "opponent_impulse_bonus"):
                if request.pop(key, None):
                    raise QuickRollError("impulsion_extended", *ctx.spans["impulse_bonus"])
            request["target"] = v["target"]
        baseline = {k: x for k, x in request.items() if k not in extras} if extras else None
        label = against(f"{actor.name} · {a_text}", f"{opp.name} · {o_text}")
        if extended:
            target = v["target"]
            goal = ngettext("opposition to {n} success", "opposition to {n} successes", target).format(n=target)
            label += " · " + goal
            timer = {"label": against(actor.name, opp.name) + " "
                     + ngettext("({n} success)", "({n} successes)", target).format(n=target), "kind": "opposition",
                     "who": side_id(actor), "opponent": side_id(opp) or opp.name}
            return finish(self, ctx, "extended_opposed", request, who=actor.name, who_id=side_id(actor), label=label,
                          baseline=baseline, timer=timer, difficulty_text=goal)
        choice = Choice("magisphere_reroll", {"sides": sides, "limit": request.get("reroll_limit", "unlimited"),
                                              "gm_help": v.get("gm_helpers", [])})
        return _asking(finish(self, ctx, "opposed", request, who=actor.name, who_id=side_id(actor), label=label,
                              baseline=baseline, choice=choice if any(p for _id, p, _index in sides.values()) else None),
                       choice)

    @staticmethod
    def _extras(v: dict[str, Any], prefix: str, helpers: list[int]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if v.get("bonus"):
            out["bonus"] = v["bonus"]
        if v.get("actor_impulse"):
            out["impulse_bonus"] = True
        if helpers:
            out["helper_skills"] = helpers
        if v.get("malus"):
            out["malus"] = v["malus"]
        return out

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        if kind == "simple":
            return {"dice": flat(ctx)}
        groups = ctx.faces or [[]]
        if len(groups) == 2:
            return {"actor_dice": list(groups[0]), "opponent_dice": list(groups[1])}
        faces = flat(ctx)
        if kind == "opposed" and len(faces) == 2:
            return {"actor_dice": faces[:1], "opponent_dice": faces[1:]}
        raise QuickRollError("split_sides", ctx.faces_pos, len(ctx.line))


def _asking(draft: Draft, choice: Choice) -> Draft:
    """A helper in a test no skill fits (R24) is asked about in the tray even with typed dice or
    no Impulsion to spend: the draft keeps the choice that says so."""
    if choice.data.get("gm_help"):
        draft.choice = choice
    return draft


class MagisphereLine(LineRules):
    """The words of Magisphère in the quick-roll line and their help."""

    grammar_class = MagisphereGrammar
    completion_words = ("vs", "aide", "imp", "malus", "bonus", "tendue", "breve", "majeure", "mj")
    help_title, help_examples, help_notes = game_help(__file__)     # from help.toml, in this folder


LINE = MagisphereLine()
