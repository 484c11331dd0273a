"""Te Deum in the quick-roll line: what its words and numbers mean, the request they build,
its completion words and its `?` help (see gmscreen.play.quickroll.line_rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence, cast

from gmscreen.i18n import _

from ...quickroll.grammar import Choice, Context, Draft, QuickRollError, Side, SystemGrammar, flat
from ...quickroll.grammar_kit import against, characteristic_candidates, finish, free_skills, nested_skills, once_after
from ...quickroll.grammar_kit import plain_difficulty, raw_dice, refuse_helpers, set_flags, side_id, to_int, trait
from ...quickroll.line_help import game_help
from ...quickroll.line_rules import LineRules
from ...quickroll.text import Candidate, Token

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


# Words that only set values of the request: an attack, with no defence when surprised ...
_FLAGS = {"attaque": {"attack": True}, "attack": {"attack": True},
          "surpris": {"attack": True, "no_defence": True}}
# ... and after `sans`: `sans défense` is an attack the other side does not answer.
_WITHOUT = dict.fromkeys(("defense", "reaction", "parade"), {"attack": True, "no_defence": True})


class TeDeumGrammar(SystemGrammar):
    system_id = "tedeum"
    keywords = frozenset({"providence", "prov", "bonus", "malus", "attaque", "attack", "surpris", "seuil",
                          "ouvert"})

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        self._chars = characteristic_candidates(self.system, "characteristics")
        self._labels = {c.value[1]: c.label for c in self._chars}  # type: ignore[index]
        self._known = free_skills(campaign, nested=True)

    def traits(self, side: Side) -> list[Candidate]:
        out = list(self._chars)
        return out + nested_skills(side, self._known)

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm
        role = ctx.side.role
        if norm in ("providence", "prov"):
            ctx.values[f"{role}_providence"] = True
            ctx.spans["use_providence"] = (tok.start, tok.end)
            ctx.modifiers.append("Providence")
            return 1
        if norm in ("bonus", "malus"):
            ctx.add(f"{role}_shift", 1 if norm == "bonus" else -1)
            ctx.spans["die_shift"] = (tok.start, tok.end)
            ctx.modifiers.append(norm)
            return 1
        if set_flags(ctx, norm, _FLAGS):
            return 1
        if norm == "seuil":
            return once_after(ctx, tokens, i, "difficulty", _("threshold"), _("the difficulty"))
        return 0

    def negated(self, ctx: Context, token: Token) -> bool:
        if token.norm in ("providence", "prov"):
            ctx.values[f"{ctx.side.role}_providence"] = False
            return True
        return set_flags(ctx, token.norm, _WITHOUT)

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        # `d8+2`: a die of that size and a skill (a negative skill reads as 0).
        if raw_dice(ctx, tokens[i], r"1?d(4|6|8|10|12|20)([+\-−]\d+)?", "already_die",
                    lambda m: {"die": int(m.group(1)), "skill": max(0, to_int(m.group(2) or "0"))}):
            return 1
        return plain_difficulty(ctx, tokens[i], _("the difficulty"))

    def _roller(self, side: Side, prefix: str, ctx: Context) -> tuple[dict[str, Any], str, str | None]:
        """Fields of one side, its description, and the characteristic key (for XP)."""
        shift = ctx.values.get(f"{side.role}_shift", 0)
        use = ctx.values.get(f"{side.role}_providence")
        if side.raw and not side.traits:
            fields: dict[str, Any] = {prefix + "die": side.raw["die"], prefix + "skill": side.raw["skill"], prefix + "negative_die": 6}
            if shift:
                fields[prefix + "die_shift"] = shift
            return fields, side.raw_text, None
        char_t = trait(side, "char")
        skill_t = trait(side, "skill")
        if skill_t is not None:
            # nested_skills' traits: ("skill", name, level, characteristic key)
            _kind, name, value, parent = cast("tuple[str, str, int, str]", skill_t[0].value)
            key = cast("tuple[str, str, str]", char_t[0].value)[1] if char_t is not None else parent
            text = f"{name} ({self._labels.get(key, key)})"
        elif char_t is not None:
            # characteristic_candidates' traits: ("char", key, label)
            key, value = cast("tuple[str, str, str]", char_t[0].value)[1], 0
            text = self._labels.get(key, key)
        else:
            raise QuickRollError("which_skill", side.start, name=side.name)
        die = int(side.sheet("characteristics").get(key, 8) or 8)
        negative = int(side.sheet("negative_dice").get(key, 6) or 6)
        providence = int(side.sheet("resources").get("providence", 0) or 0)
        fields = {prefix + "die": die, prefix + "skill": value, prefix + "negative_die": negative}
        if shift:
            fields[prefix + "die_shift"] = shift
        if providence:
            fields[prefix + "providence_die"] = providence
        if use:
            if not providence:
                span = ctx.spans.get("use_providence", (0, len(ctx.line)))
                raise QuickRollError("lost_sheep", *span, name=side.name)
            fields[prefix + "use_providence"] = True
        return fields, f"{text} D{die}+{value}", key

    def build(self, ctx: Context) -> Draft:
        v = ctx.values
        actor, opp = ctx.actor, ctx.opponent
        refuse_helpers(ctx, "no_help_in_tests", game="Te Deum")
        a, a_text, a_key = self._roller(actor, "" if opp is None and not v.get("attack") else "actor_", ctx)
        mods_keys = {k for k in a if k.endswith("die_shift") or k.endswith("use_providence")}
        if v.get("attack"):
            request: dict[str, Any] = dict(a)
            label = _("{name} attacks").format(name=actor.name) + f" · {a_text}"
            if v.get("no_defence") or opp is None:
                request["defender_reacts"] = False
                if opp is not None:
                    label += " · " + _("{name} without defence").format(name=opp.name)
            else:
                o, o_text, _key = self._roller(opp, "opponent_", ctx)
                request.update(o)
                mods_keys |= {k for k in o if k.endswith("die_shift") or k.endswith("use_providence")}
                label += " · " + _("{name} defends").format(name=opp.name) + f" · {o_text}"
            if "difficulty" in v:
                raise QuickRollError("attack_no_difficulty", *ctx.spans["difficulty"])
            kind = "attack"
            missing = diff = ""
        elif opp is not None:
            o, o_text, _key = self._roller(opp, "opponent_", ctx)
            request = {**a, **o}
            mods_keys |= {k for k in o if k.endswith("die_shift") or k.endswith("use_providence")}
            if "difficulty" in v:
                raise QuickRollError("opposition_no_difficulty", *ctx.spans["difficulty"])
            label = against(f"{actor.name} · {a_text}", f"{opp.name} · {o_text}")
            kind = "opposed"
            missing = diff = ""
        else:
            difficulty = v.get("difficulty")
            missing = "" if difficulty is not None else _("difficulty missing: a number (13) or “périlleux”")
            request = {**a, "difficulty": difficulty if difficulty is not None else 7}
            words = v.get("difficulty_label") or _tedeum_label(difficulty)
            diff = _("difficulty {value}").format(
                value=f"{difficulty}" + (f" ({words})" if words else "") if difficulty is not None else "?")
            label = f"{actor.name} · {a_text} · {diff}"
            kind = "simple"
        baseline = {k: x for k, x in request.items() if k not in mods_keys} if mods_keys else None
        prefix = "" if kind == "simple" else "actor_"
        asked = _providence_asked(ctx, [(actor, prefix)] + ([(opp, "opponent_")] if "opponent_die" in request else []))
        choice = Choice("tedeum_providence", {"prefix": asked[0][0], "providence": asked[0][1], "sides": asked}) \
            if asked else None
        draft = finish(self, ctx, kind, request, who=actor.name, who_id=side_id(actor), label=label, missing=missing,
                       baseline=baseline, choice=choice, difficulty_text=diff)
        draft.choice = choice if not draft.forced else None
        return draft

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        groups = ctx.faces or [[]]
        prefixes = [""] if kind == "simple" else ["actor_"]
        if kind == "opposed" or (kind == "attack" and request.get("defender_reacts", True)):
            prefixes.append("opponent_")
        if len(groups) > 1 and len(groups) != len(prefixes):
            raise QuickRollError("dice_groups", ctx.faces_pos, len(ctx.line), expected=len(prefixes))
        queue = list(flat(ctx)) if len(groups) == 1 else None
        out: dict[str, Any] = {}
        for n, prefix in enumerate(prefixes):
            faces = queue if queue is not None else list(groups[n])
            from gmscreen.rules.tedeum import effective_die

            die = effective_die(request[prefix + "die"], request.get(prefix + "die_shift", 0))
            chain: list[int] = []
            while faces:
                face = faces.pop(0)
                chain.append(face)
                if face != die:
                    break
            out[prefix + "dice"] = chain
            if request.get(prefix + "use_providence"):
                out[prefix + "providence_dice"] = faces[:1]
                del faces[:1]
            if chain and chain[0] == 1:
                neg = request[prefix + "negative_die"]
                take = 1
                if request.get("open_negative_die"):
                    take = 0
                    while take < len(faces) and faces[take] == neg:
                        take += 1
                    take += 1
                out[prefix + "negative_dice"] = faces[:take]
                del faces[:take]
            if queue is None and faces:
                out[prefix + "dice"] = chain + faces
        if queue:
            out[prefixes[-1] + "dice"] = out[prefixes[-1] + "dice"] + queue
        return out


def _providence_asked(ctx: Context, sides: list[tuple[Side | None, str]]) -> list[tuple[str, int, int]]:
    """The sides asked in turn whether they call on Providence (R11), actor first, then the
    defender: (request prefix, Providence die, index in `draft.sides`). Asked only for player
    characters with a die, when the line said nothing for them; an NPC calls on Providence with
    the word in the line."""
    out = []
    for n, (side, prefix) in enumerate(sides):
        if side is None or side.character is None or side.character.side != "party":
            continue
        die = int(side.sheet("resources").get("providence", 0) or 0)
        if die > 0 and ctx.values.get(f"{side.role}_providence") is None:
            out.append((prefix, die, n))
    return out


def _tedeum_label(value: int | None) -> str:
    from gmscreen.rules.tedeum import difficulty_label

    return (difficulty_label(value) or "") if value is not None else ""


class TeDeumLine(LineRules):
    """The words of Te Deum in the quick-roll line and their help."""

    grammar_class = TeDeumGrammar
    completion_words = ("vs", "providence", "bonus", "malus", "attaque", "surpris", "mj")
    help_title, help_examples, help_notes = game_help(__file__)     # from help.toml, in this folder


LINE = TeDeumLine()
