"""MIR in the quick-roll line: what its words and numbers mean, the request they build,
its completion words and its `?` help (see gmscreen.play.quickroll.line_rules)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence, cast

from gmscreen.i18n import _, ngettext
from gmscreen.rules.mir import dice_count

from ...quickroll.grammar import Context, Draft, QuickRollError, Side, SystemGrammar, flat, sign
from ...quickroll.grammar_kit import against, chunks, finish, groups_or_split, next_number, once_after, plain_difficulty
from ...quickroll.grammar_kit import raw_dice, refuse_helpers, side_id, trait
from ...quickroll.line_help import game_help
from ...quickroll.line_rules import LineRules
from ...quickroll.text import Candidate, Token, candidate

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


_MIR_INTERVALS = {"tour": "tour", "tours": "tour", "round": "tour", "rounds": "tour",
                  "heure": "heure", "heures": "heure", "hour": "heure", "hours": "heure", "h": "heure",
                  "jour": "jour", "jours": "jour", "journee": "jour", "journees": "jour", "day": "jour", "days": "jour",
                  "semaine": "semaine", "semaines": "semaine", "week": "semaine", "weeks": "semaine"}


# R4: negative antecedents bite « lors d'un combat ou d'une Intrigue »: the word says this roll is one.
_INTRIGUE_WORDS = ("intrigue", "antecedents", "antecedent")


class MirGrammar(SystemGrammar):
    system_id = "mir"
    keywords = frozenset({"sd", "max", "malus", "penalite", "penalty", "blessures", "blessure", "wounds",
                          "etendu", "extended", "initiateur", "opposant"} | set(_INTRIGUE_WORDS) | set(_MIR_INTERVALS))

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        from gmscreen.rules import mir

        self._mir = mir
        self._skills = [candidate(s.label, ("skill", s.key, s.parent), s.key) for s in mir.SKILLS]
        self._voie_label = {v.key: v.label for v in mir.VOIES}

    def traits(self, side: Side) -> list[Candidate]:
        return self._skills

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm
        if norm == "sd":
            return once_after(ctx, tokens, i, "difficulty", "SD", _("the difficulty (SD)"))
        if norm == "max":
            return once_after(ctx, tokens, i, "max_tests", _("number of tests"), _("the maximum of tests"))
        if norm in ("malus", "penalite", "penalty"):
            value = next_number(tokens, i, _("dice removed"))
            ctx.add("penalty", abs(value))
            ctx.modifiers.append(f"malus {abs(value)}")
            return 2
        if norm in ("blessures", "blessure", "wounds"):
            side = ctx.side
            wounds = int(side.sheet("state").get("blessures", 0) or 0)
            ctx.add("penalty" if side.role == "actor" else "opponent_penalty", wounds)
            ctx.modifiers.append(f"blessures {wounds}")
            return 1
        if norm in _MIR_INTERVALS:
            ctx.once("interval", _MIR_INTERVALS[norm], tok, _("the interval"))
            return 1
        if norm in _INTRIGUE_WORDS:
            from .effects import INTRIGUE

            ctx.scene.add(INTRIGUE)
            ctx.modifiers.append("Intrigue")
            return 1
        if norm in ("etendu", "extended"):
            ctx.values["extended"] = True
            return 1
        if norm in ("initiateur", "opposant") and ctx.opponent is not None:
            ctx.values["initiator"] = "opponent"
            return 1
        return 0

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        side = raw_dice(ctx, tok, r"(\d+)d(12)?", "already_pool", lambda m: {"pool": int(m.group(1))})
        if side is not None:                        # `6d12` or `6d`: a pool of 6 dice, shown as `6d12`
            side.raw_text = tok.norm.partition("d")[0] + "d12"
            ctx.spans[f"{side.role}_pool"] = (tok.start, tok.end)
            return 1
        norm = tok.norm.replace("−", "-")
        m = re.fullmatch(r"([+\-])(\d+)d?(12)?", norm)
        if m:
            value = int(m.group(2)) * (1 if m.group(1) == "+" else -1)
            key = "modifier" if ctx.side.role == "actor" else "opponent_modifier"
            ctx.add(key, value)
            ctx.spans[key] = (tok.start, tok.end)
            ctx.modifiers.append(f"{sign(value)}d")
            return 1
        m = re.fullmatch(r"sd(\d+)", norm)
        if m:
            ctx.once("difficulty", int(m.group(1)), tok, _("the difficulty (SD)"))
            return 1
        m = re.fullmatch(r"max(\d+)", norm)
        if m:
            ctx.once("max_tests", int(m.group(1)), tok, _("the maximum of tests"))
            return 1
        return plain_difficulty(ctx, tok, _("the difficulty (SD)"))

    def _roller(self, side: Side, prefix: str, ctx: Context) -> tuple[dict[str, Any], str, int, str | None]:
        """Request fields of one side, its description, its skill level, and its skill key."""
        if side.raw and not side.traits:
            pool = side.raw["pool"]
            return {prefix + "pool": pool}, ngettext("{n} die", "{n} dice", pool).format(n=pool), pool, None
        found = trait(side, "skill")
        if found is None:
            raise QuickRollError("which_skill_examples", len(ctx.line), name=side.name, examples="éloquence, tir…")
        cand, _tok = found
        _kind, key, voie = cast("tuple[str, str, str]", cand.value)  # self._skills: ("skill", key, voie)
        skill = int(side.sheet("skills").get(key, 0) or 0)
        voie_level = int(side.sheet("voies").get(voie, 1) or 1)
        text = f"{cand.label} ({self._voie_label.get(voie, voie)}) {skill}+{voie_level}"
        return {prefix + "skill": skill, prefix + "voie": voie_level}, text, skill, key

    def build(self, ctx: Context) -> Draft:
        v = ctx.values
        actor = ctx.actor
        opp = ctx.opponent
        who = actor.name
        mods: dict[str, Any] = {}
        if v.get("modifier"):
            mods["modifier"] = v["modifier"]
        if v.get("penalty"):
            mods["penalty"] = v["penalty"]
        if opp is not None:
            refuse_helpers(ctx, "help_not_opposed")
            a, a_text, _pool, _key = self._roller(actor, "actor_", ctx)
            o, o_text, _pool, _key = self._roller(opp, "opponent_", ctx)
            request = {**a, **o, **{"actor_" + k: x for k, x in mods.items()}}
            if v.get("opponent_modifier"):
                request["opponent_modifier"] = v["opponent_modifier"]
            if v.get("opponent_penalty"):
                request["opponent_penalty"] = v["opponent_penalty"]
            if v.get("initiator"):
                request["initiator"] = v["initiator"]
            if "difficulty" in v:
                raise QuickRollError("opposed_no_sd", *ctx.spans["difficulty"])
            baseline = {**a, **o} if mods else None
            label = against(f"{actor.name} · {a_text}", f"{opp.name} · {o_text}")
            return finish(self, ctx, "opposed", request, who=who, who_id=side_id(actor), label=label,
                          baseline=baseline)
        base, text, skill, skill_key = self._roller(actor, "", ctx)
        extended = bool(v.get("extended") or "interval" in v or "max_tests" in v)
        if extended:
            refuse_helpers(ctx, "help_each_interval")
            threshold = v.get("difficulty")
            missing = "" if threshold is not None else _("how many successes to reach? (a number: 8)")
            request = {**base, **mods, "threshold": threshold if threshold is not None else 8,
                       "max_tests": v.get("max_tests", 0), "interval": v.get("interval", "")}
            ctx.spans["threshold"] = ctx.spans.get("difficulty", (0, 0))
            interval_words = {"tour": _("1 round"), "heure": _("1 hour"), "jour": _("1 day"), "semaine": _("1 week")}
            skill_label = text.rsplit(" ", 1)[0]
            max_tests = request["max_tests"]
            inner = ", ".join(p for p in (interval_words.get(request["interval"], ""),
                                          _("{n} max.").format(n=max_tests) if max_tests else "") if p)
            goal = request["threshold"]
            notation = (f"{skill_label}{f' ({inner})' if inner else ''} "
                        + ngettext("{n} success", "{n} successes", goal).format(n=goal))
            label = f"{who} · {notation} · " + _("extended test")
            timer = {"label": notation, "kind": "extended", "who": side_id(actor)}
            return finish(self, ctx, "extended", request, who=who, who_id=side_id(actor), label=label,
                          missing=missing, timer=timer, difficulty_text=notation)
        difficulty = v.get("difficulty")
        missing = "" if difficulty is not None else _("SD missing: type sd3, “difficile”, or pick a row")
        if difficulty is not None and difficulty > 7:
            raise QuickRollError("sd_simple_range", *ctx.spans["difficulty"], difficulty=difficulty)
        sd = difficulty if difficulty is not None else 3
        word = v.get("difficulty_label") or next((d.label for d in self.system.difficulties if d.value == sd), "")
        sd_text = f"SD {sd}" + (f" ({word})" if word else "")
        if difficulty is None:
            sd_text = "SD ?"
        if ctx.helpers:
            if skill_key is None:
                h = ctx.helpers[0][2]
                raise QuickRollError("help_needs_skill_not_pool", h.start, h.end)
            pools, names = [], []
            for index, helper, tok in ctx.helpers:
                h_skill = int((helper.sheet.get("skills") or {}).get(skill_key, 0) or 0)
                voie = next(s.parent for s in self._mir.SKILLS if s.key == skill_key)
                h_voie = int((helper.sheet.get("voies") or {}).get(voie, 1) or 1)
                pools.append(h_skill + h_voie)
                names.append(helper.name)
            ctx.modifiers.append(_("help {names}").format(names=", ".join(names)))
            request = {**base, **mods, "difficulty": max(sd, 1), "helper_pools": pools}
            baseline = {**base, "difficulty": max(sd, 1)}
            label = f"{who} · {text} · {sd_text} · " + _("help {names}").format(names=", ".join(names))
            baseline = {**baseline, "kind": "simple", "difficulty": sd}
            return finish(self, ctx, "group", request, who=who, who_id=side_id(actor), label=label,
                          missing=missing, baseline=baseline, difficulty_text=sd_text, dice_helpers=names)
        request = {**base, **mods, "difficulty": sd}
        baseline = {**base, "difficulty": sd} if mods else None
        label = f"{who} · {text} · {sd_text}"
        return finish(self, ctx, "simple", request, who=who, who_id=side_id(actor), label=label, missing=missing,
                      baseline=baseline, difficulty_text=sd_text)

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        def count(prefix: str = "", extra: int = 0) -> int:
            return dice_count(request, prefix, extra)

        faces = flat(ctx)
        if kind == "simple":
            return {"dice": [] if request["difficulty"] == 0 else faces}
        if kind == "opposed":
            a, o = groups_or_split(ctx, [count("actor_"), count("opponent_")])
            return {"actor_dice": a, "opponent_dice": o}
        if kind == "extended":
            groups = ctx.faces or [[]]
            if len(groups) > 1:
                return {"rolls": [list(g) for g in groups]}
            n = count()
            return {"rolls": [faces[p:p + n] for p in range(0, len(faces), n)] or [[]]}
        if kind == "group":
            sizes = [dice_count({"pool": p}) for p in request["helper_pools"]]
            groups = ctx.faces or [[]]
            if len(groups) > 1:
                if len(groups) != len(sizes) + 1:
                    raise QuickRollError("helper_groups", ctx.faces_pos, len(ctx.line), expected=len(sizes) + 1)
                return {"helper_dice": [list(g) for g in groups[:-1]], "dice": list(groups[-1])}
            helpers = chunks(faces, sizes + [0])
            return {"helper_dice": helpers[:-1], "dice": helpers[-1]}
        return {}


class MirLine(LineRules):
    """The words of MIR in the quick-roll line, their help, and how a difficulty is written."""

    grammar_class = MirGrammar
    completion_words = ("vs", "aide", "sd", "jour", "heure", "tour", "semaine", "max", "malus", "blessures",
                        "intrigue", "mj")
    help_title, help_examples, help_notes = game_help(__file__)     # from help.toml, in this folder

    def difficulty_token(self, value: int) -> str:
        return f"sd{value}"          # as the help writes a SD


LINE = MirLine()
