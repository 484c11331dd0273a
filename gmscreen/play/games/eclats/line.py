"""Éclats in the quick-roll line: what its words and numbers mean, the request they build,
its completion words and its `?` help (see gmscreen.play.quickroll.line_rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, cast

from gmscreen.i18n import _

from ...quickroll.grammar import Choice, Context, Draft, QuickRollError, Side, SystemGrammar, flat
from ...quickroll.grammar_kit import characteristic_candidates, finish, flat_skills, free_skills, once_after
from ...quickroll.grammar_kit import plain_difficulty, raw_dice, refuse_helpers, side_id, trait
from ...quickroll.line_help import game_help
from ...quickroll.line_rules import LineRules
from ...quickroll.text import Candidate, Token

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


class EclatsGrammar(SystemGrammar):
    system_id = "eclats"
    keywords = frozenset({"seuil"})

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        self._chars = characteristic_candidates(self.system, "characteristics")
        self._known = free_skills(campaign)

    def traits(self, side: Side) -> list[Candidate]:
        return self._chars + flat_skills(side, self._known)

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        if tokens[i].norm == "seuil":
            return once_after(ctx, tokens, i, "difficulty", _("threshold"), _("the threshold"))
        return 0

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        # `2d10+3`: characteristic 2, skill 3.
        if raw_dice(ctx, tokens[i], r"(\d)d(10)?([+\-]\d+)?", "already_characteristics",
                    lambda m: {"characteristic": int(m.group(1)), "skill": int(m.group(3) or 0)}):
            return 1
        return plain_difficulty(ctx, tokens[i], _("the threshold"))

    def build(self, ctx: Context) -> Draft:
        if ctx.opponent is not None:
            raise QuickRollError("no_opposed_test", ctx.opponent.start, game="Éclats")
        refuse_helpers(ctx, "no_help_rule", game="Éclats")
        side = ctx.actor
        if side.raw:
            level, skill = side.raw["characteristic"], side.raw["skill"]
            text = side.raw_text
        else:
            char = trait(side, "char")
            if char is None:
                names = ", ".join(s.label[:3].upper() for s in self.system.group("characteristics").stats)  # type: ignore[union-attr]
                raise QuickRollError("which_characteristic", len(ctx.line), name=side.name, names=names)
            _group, key, label = cast("tuple[str, str, str]", char[0].value)  # ("char", key, label)
            level = int(side.sheet("characteristics").get(key, 0) or 0)
            skill_t = trait(side, "skill")
            skill = int(cast("tuple[str, str, int]", skill_t[0].value)[2]) if skill_t else 0  # flat_skills
            text = f"{label} {level}" + (f" + {skill_t[0].label} {skill}" if skill_t else "")
        threshold = ctx.values.get("difficulty")
        missing = "" if threshold is not None else _("threshold missing: type a number (1–15), “difficile”…")
        seuil = _("threshold {value}").format(value=threshold if threshold is not None else "?")
        request = {"characteristic": level, "skill": skill, "threshold": threshold if threshold is not None else 5}
        ctx.spans["threshold"] = ctx.spans.get("difficulty", (0, 0))
        forced_empty = ctx.faces == [[]]
        choice = Choice("eclats_reroll", {"characteristic": level}) if level > 0 and not forced_empty else None
        return finish(self, ctx, "simple", request, who=side.name, who_id=side_id(side),
                      label=f"{side.name} · {text} · {seuil}", missing=missing, choice=choice, difficulty_text=seuil)

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        return {"dice": flat(ctx)}


class EclatsLine(LineRules):
    """The words of Éclats in the quick-roll line and their help."""

    grammar_class = EclatsGrammar
    completion_words = ("mj", "seuil")
    help_title, help_examples, help_notes = game_help(__file__)     # from help.toml, in this folder


LINE = EclatsLine()
