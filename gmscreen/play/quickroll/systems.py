"""What each system's words and numbers mean in the quick-roll line, and the request it builds."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from gmscreen.rules import get_system

from ..declarations import simultaneous_actions
from .grammar import (
    Choice,
    Context,
    Draft,
    QuickRollError,
    Side,
    Spend,
    SystemGrammar,
    check_request,
    flat,
    sign,
)
from .text import Candidate, Token, candidate, fold

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign


def _int(text: str) -> int:
    return int(text.replace("−", "-"))


def _next_number(tokens: Sequence[Token], i: int, what: str) -> int:
    if i + 1 >= len(tokens) or not re.fullmatch(r"[+\-−]?\d+", tokens[i + 1].norm):
        tok = tokens[i]
        raise QuickRollError(f"« {tok.text} » : un nombre doit suivre ({what})", tok.start, tok.end)
    return _int(tokens[i + 1].norm)


def _trait(side: Side, kind: str) -> tuple[Candidate, Token] | None:
    found = [(c, t) for c, t in side.traits if isinstance(c.value, tuple) and c.value[0] == kind]
    if len(found) > 1:
        c, t = found[1]
        raise QuickRollError(f"« {t.text} » : {side.name} a déjà « {found[0][0].label} »", t.start, t.end)
    return found[0] if found else None


def _free_skills(campaign: Campaign, group: str = "skills", nested: bool = False) -> dict[str, tuple[str, str | None]]:
    """Every skill name used in the campaign, folded -> (name, parent key or None)."""
    out: dict[str, tuple[str, str | None]] = {}
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


def _finish(grammar: SystemGrammar, ctx: Context, kind: str, request: dict[str, Any], *, who: str,
            who_id: str | None, label: str, missing: str = "", baseline: dict[str, Any] | None = None,
            choice: Choice | None = None, timer: dict[str, Any] | None = None) -> Draft:
    """Common tail: rule options, hidden, forced faces, validation, the draft."""
    request = {"system": grammar.system_id, "kind": kind, **grammar.rules_defaults(kind), **request}
    if ctx.hidden:
        request["hidden"] = True
    forced = ctx.faces is not None
    if forced:
        request.update(grammar.split_faces(ctx, request, kind))
    if not missing or forced:
        if missing and forced:
            raise QuickRollError(missing, len(ctx.line))
        check_request(request, ctx, forced)
    else:
        # Validate with the placeholder difficulty so that every other mistake still shows.
        check_request(request, ctx, False)
    if baseline is not None:
        base_kind = baseline.get("kind", kind)
        baseline = {"system": grammar.system_id, **grammar.rules_defaults(base_kind), **baseline, "kind": base_kind}
        if ctx.hidden:
            baseline["hidden"] = True
    span = ctx.spans.get("difficulty")
    return Draft(
        line=ctx.line, system=grammar.system_id, kind=kind, request=request, who=who, who_id=who_id,
        label=label, gm_only=ctx.gm_only, forced=forced, missing=missing, baseline=baseline,
        modifier_text=", ".join(ctx.modifiers), choice=None if forced else choice, sides=list(ctx.sides),
        difficulty_span=span, timer=timer,
    )


def _chunks(faces: list[int], sizes: Sequence[int]) -> list[list[int]]:
    out, pos = [], 0
    for size in sizes:
        out.append(faces[pos:pos + size])
        pos += size
    if pos < len(faces):
        out[-1] = out[-1] + faces[pos:]
    return out


def _groups_or_split(ctx: Context, sizes: Sequence[int]) -> list[list[int]]:
    """Use the '/' groups when the GM typed them, else cut the flat list by known sizes."""
    groups = ctx.faces or [[]]
    if len(groups) > 1:
        if len(groups) != len(sizes):
            raise QuickRollError(f"{len(sizes)} groupes de dés attendus (séparés par /), {len(groups)} donnés",
                                 ctx.faces_pos, len(ctx.line))
        return [list(g) for g in groups]
    return _chunks(flat(ctx), sizes)


# ====================================================================== MIR

def _nested_skills(side: Side, known: dict[str, tuple[str, str | None]]) -> list[Candidate]:
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


_MIR_INTERVALS = {"tour": "tour", "tours": "tour", "round": "tour", "rounds": "tour",
                  "heure": "heure", "heures": "heure", "hour": "heure", "hours": "heure", "h": "heure",
                  "jour": "jour", "jours": "jour", "journee": "jour", "journees": "jour", "day": "jour", "days": "jour",
                  "semaine": "semaine", "semaines": "semaine", "week": "semaine", "weeks": "semaine"}


class MirGrammar(SystemGrammar):
    system_id = "mir"
    keywords = frozenset({"sd", "max", "malus", "penalite", "penalty", "blessures", "blessure", "wounds",
                          "etendu", "extended", "initiateur", "opposant"} | set(_MIR_INTERVALS))

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        mir = self._mir = __import__("gmscreen.rules.mir", fromlist=["SKILLS"])
        self._skills = [candidate(s.label, ("skill", s.key, s.parent), s.key) for s in mir.SKILLS]
        self._voie_label = {v.key: v.label for v in mir.VOIES}

    def traits(self, side: Side) -> list[Candidate]:
        return self._skills

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm
        if norm == "sd":
            ctx.once("difficulty", _next_number(tokens, i, "SD"), tok, "la difficulté (SD)", tokens[i + 1])
            return 2
        if norm == "max":
            ctx.once("max_tests", _next_number(tokens, i, "nombre de tests"), tok, "le maximum de tests", tokens[i + 1])
            return 2
        if norm in ("malus", "penalite", "penalty"):
            value = _next_number(tokens, i, "dés retirés")
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
            ctx.once("interval", _MIR_INTERVALS[norm], tok, "la temporalité")
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
        norm = tok.norm.replace("−", "-")
        m = re.fullmatch(r"(\d+)d(12)?", norm)
        if m:
            side = ctx.side
            if side.named:
                raise QuickRollError(f"« {tok.text} » : {side.name} a déjà son pool", tok.start, tok.end)
            side.raw = {"pool": int(m.group(1))}
            side.raw_text = f"{m.group(1)}d12"
            ctx.spans[f"{side.role}_pool"] = (tok.start, tok.end)
            return 1
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
            ctx.once("difficulty", int(m.group(1)), tok, "la difficulté (SD)")
            return 1
        m = re.fullmatch(r"max(\d+)", norm)
        if m:
            ctx.once("max_tests", int(m.group(1)), tok, "le maximum de tests")
            return 1
        if re.fullmatch(r"\d+", norm):
            ctx.once("difficulty", int(norm), tok, "la difficulté (SD)")
            return 1
        return 0

    def _roller(self, side: Side, prefix: str, ctx: Context) -> tuple[dict[str, Any], str, int, str | None]:
        """Request fields of one side, its description, its skill level, and its skill key."""
        if side.raw and not side.traits:
            return {prefix + "pool": side.raw["pool"]}, f"{side.raw['pool']} dés", side.raw["pool"], None
        found = _trait(side, "skill")
        if found is None:
            raise QuickRollError(f"quelle compétence pour {side.name} ? (éloquence, tir…)", len(ctx.line))
        cand, _tok = found
        _, key, voie = cand.value  # type: ignore[misc]
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
            if ctx.helpers:
                h = ctx.helpers[0][2]
                raise QuickRollError("l'aide ne se combine pas avec un test opposé", h.start, h.end)
            a, a_text, _, _ = self._roller(actor, "actor_", ctx)
            o, o_text, _, _ = self._roller(opp, "opponent_", ctx)
            request = {**a, **o, **{"actor_" + k: x for k, x in mods.items()}}
            if v.get("opponent_modifier"):
                request["opponent_modifier"] = v["opponent_modifier"]
            if v.get("opponent_penalty"):
                request["opponent_penalty"] = v["opponent_penalty"]
            if v.get("initiator"):
                request["initiator"] = v["initiator"]
            if "difficulty" in v:
                raise QuickRollError("un test opposé n'a pas de SD", *ctx.spans["difficulty"])
            baseline = {**a, **o} if mods else None
            label = f"{actor.name} · {a_text} contre {opp.name} · {o_text}"
            return _finish(self, ctx, "opposed", request, who=who, who_id=_id(actor), label=label,
                           baseline=baseline)
        base, text, skill, skill_key = self._roller(actor, "", ctx)
        extended = bool(v.get("extended") or "interval" in v or "max_tests" in v)
        if extended:
            if ctx.helpers:
                h = ctx.helpers[0][2]
                raise QuickRollError("l'aide se joue à chaque test de l'intervalle, pas ici", h.start, h.end)
            threshold = v.get("difficulty")
            missing = "" if threshold is not None else "combien de succès à atteindre ? (un nombre : 8)"
            request = {**base, **mods, "threshold": threshold if threshold is not None else 8,
                       "max_tests": v.get("max_tests", 0), "interval": v.get("interval", "")}
            ctx.spans["threshold"] = ctx.spans.get("difficulty", (0, 0))
            interval_words = {"tour": "1 tour", "heure": "1 heure", "jour": "1 jour", "semaine": "1 semaine"}
            skill_label = text.rsplit(" ", 1)[0]
            inner = ", ".join(p for p in (interval_words.get(request["interval"], ""),
                                          f"{request['max_tests']} max." if request["max_tests"] else "") if p)
            notation = f"{skill_label}{f' ({inner})' if inner else ''} {request['threshold']} succès"
            label = f"{who} · {notation} · test étendu"
            timer = {"label": notation, "kind": "extended", "who": _id(actor)}
            return _finish(self, ctx, "extended", request, who=who, who_id=_id(actor), label=label,
                           missing=missing, timer=timer)
        difficulty = v.get("difficulty")
        missing = "" if difficulty is not None else "SD manquant : tapez sd3, « difficile », ou choisissez une ligne"
        if difficulty is not None and difficulty > 7:
            raise QuickRollError(f"SD {difficulty} : un test simple va de 0 à 7 ; pour un test étendu, "
                                 "ajoutez la temporalité (tour, heure, jour, semaine)", *ctx.spans["difficulty"])
        sd = difficulty if difficulty is not None else 3
        word = v.get("difficulty_label") or next((d.label for d in self.system.difficulties if d.value == sd), "")
        sd_text = f"SD {sd}" + (f" ({word})" if word else "")
        if difficulty is None:
            sd_text = "SD ?"
        if ctx.helpers:
            if skill_key is None:
                h = ctx.helpers[0][2]
                raise QuickRollError("l'aide demande une compétence (pas un pool brut)", h.start, h.end)
            pools, names = [], []
            for index, helper, tok in ctx.helpers:
                h_skill = int((helper.sheet.get("skills") or {}).get(skill_key, 0) or 0)
                voie = next(s.parent for s in self._mir.SKILLS if s.key == skill_key)
                h_voie = int((helper.sheet.get("voies") or {}).get(voie, 1) or 1)
                pools.append(h_skill + h_voie)
                names.append(helper.name)
            ctx.modifiers.append("aide " + ", ".join(names))
            request = {**base, **mods, "difficulty": max(sd, 1), "helper_pools": pools}
            baseline = {**base, "difficulty": max(sd, 1)}
            label = f"{who} · {text} · {sd_text} · aide {', '.join(names)}"
            baseline = {**baseline, "kind": "simple", "difficulty": sd}
            return _finish(self, ctx, "group", request, who=who, who_id=_id(actor), label=label,
                           missing=missing, baseline=baseline)
        request = {**base, **mods, "difficulty": sd}
        baseline = {**base, "difficulty": sd} if mods else None
        label = f"{who} · {text} · {sd_text}"
        return _finish(self, ctx, "simple", request, who=who, who_id=_id(actor), label=label, missing=missing,
                       baseline=baseline)

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        def count(prefix: str = "", extra: int = 0) -> int:
            base = request.get(prefix + "pool")
            if base is None:
                base = request.get(prefix + "skill", 0) + request.get(prefix + "voie", 0)
            return max(1, base + request.get(prefix + "modifier", 0) - request.get(prefix + "penalty", 0) + extra)

        faces = flat(ctx)
        if kind == "simple":
            return {"dice": [] if request["difficulty"] == 0 else faces}
        if kind == "opposed":
            a, o = _groups_or_split(ctx, [count("actor_"), count("opponent_")])
            return {"actor_dice": a, "opponent_dice": o}
        if kind == "extended":
            groups = ctx.faces or [[]]
            if len(groups) > 1:
                return {"rolls": [list(g) for g in groups]}
            n = count()
            return {"rolls": [faces[p:p + n] for p in range(0, len(faces), n)] or [[]]}
        if kind == "group":
            sizes = [max(1, p) for p in request["helper_pools"]]
            groups = ctx.faces or [[]]
            if len(groups) > 1:
                if len(groups) != len(sizes) + 1:
                    raise QuickRollError(f"{len(sizes) + 1} groupes attendus : chaque aide, puis le personnage",
                                         ctx.faces_pos, len(ctx.line))
                return {"helper_dice": [list(g) for g in groups[:-1]], "dice": list(groups[-1])}
            helpers = _chunks(faces, sizes + [0])
            return {"helper_dice": helpers[:-1], "dice": helpers[-1]}
        return {}


def _id(side: Side) -> str | None:
    return side.character.id if side.character is not None else None


# ====================================================================== Éclats


class EclatsGrammar(SystemGrammar):
    system_id = "eclats"
    keywords = frozenset({"seuil"})

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        group = self.system.group("characteristics")
        assert group is not None
        self._chars = [candidate(s.label, ("char", s.key, s.label), s.key) for s in group.stats]
        self._labels = {s.key: s.label for s in group.stats}
        self._known = _free_skills(campaign)

    def traits(self, side: Side) -> list[Candidate]:
        own = side.sheet("skills")
        out = list(self._chars)
        out += [candidate(name, ("skill", name, int(value))) for name, value in own.items()]
        owned = {fold(n) for n in own}
        out += [candidate(name, ("skill", name, 0)) for key, (name, _) in self._known.items() if key not in owned]
        return out

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        if tokens[i].norm == "seuil":
            ctx.once("difficulty", _next_number(tokens, i, "seuil"), tokens[i], "le seuil", tokens[i + 1])
            return 2
        return 0

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        m = re.fullmatch(r"(\d)d(10)?([+\-]\d+)?", tok.norm)
        if m:
            side = ctx.side
            if side.named:
                raise QuickRollError(f"« {tok.text} » : {side.name} a déjà ses caractéristiques", tok.start, tok.end)
            side.raw = {"characteristic": int(m.group(1)), "skill": int(m.group(3) or 0)}
            side.raw_text = tok.text
            return 1
        if re.fullmatch(r"\d+", tok.norm):
            ctx.once("difficulty", int(tok.norm), tok, "le seuil")
            return 1
        return 0

    def build(self, ctx: Context) -> Draft:
        if ctx.opponent is not None:
            raise QuickRollError("Éclats n'a pas de test opposé : chacun fait son test contre un seuil",
                                 ctx.opponent.start)
        if ctx.helpers:
            h = ctx.helpers[0][2]
            raise QuickRollError("Éclats n'a pas de règle d'aide", h.start, h.end)
        side = ctx.actor
        if side.raw:
            level, skill = side.raw["characteristic"], side.raw["skill"]
            text = side.raw_text
        else:
            char = _trait(side, "char")
            if char is None:
                names = ", ".join(s.label[:3].upper() for s in self.system.group("characteristics").stats)  # type: ignore[union-attr]
                raise QuickRollError(f"quelle caractéristique pour {side.name} ? ({names})", len(ctx.line))
            _, key, label = char[0].value  # type: ignore[misc]
            level = int(side.sheet("characteristics").get(key, 0) or 0)
            skill_t = _trait(side, "skill")
            skill = int(skill_t[0].value[2]) if skill_t else 0  # type: ignore[index]
            text = f"{label} {level}" + (f" + {skill_t[0].label} {skill}" if skill_t else "")
        threshold = ctx.values.get("difficulty")
        missing = "" if threshold is not None else "seuil manquant : tapez un nombre (1–15), « difficile »…"
        seuil = f"seuil {threshold}" if threshold is not None else "seuil ?"
        request = {"characteristic": level, "skill": skill, "threshold": threshold if threshold is not None else 5}
        ctx.spans["threshold"] = ctx.spans.get("difficulty", (0, 0))
        forced_empty = ctx.faces == [[]]
        choice = Choice("eclats_reroll", {"characteristic": level}) if level > 0 and not forced_empty else None
        return _finish(self, ctx, "simple", request, who=side.name, who_id=_id(side),
                       label=f"{side.name} · {text} · {seuil}", missing=missing, choice=choice)

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        return {"dice": flat(ctx)}


# ====================================================================== Magisphère

_TARGETS = {"breve": 2, "courte": 2, "tendue": 3, "majeure": 5}


class MagisphereGrammar(SystemGrammar):
    system_id = "magisphere"
    keywords = frozenset({"imp", "impulsion", "impulse", "malus", "bonus", "seuil"} | set(_TARGETS))

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        self._known = _free_skills(campaign, nested=True)
        self._stats: dict[str, str] = {}
        for character in campaign.characters:
            for name in (character.sheet.get("stats") or {}):
                self._stats.setdefault(fold(name), name)

    def traits(self, side: Side) -> list[Candidate]:
        stats = side.sheet("stats")
        out = [candidate(name, ("stat", name, int(value))) for name, value in stats.items()]
        return out + _nested_skills(side, self._known)

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm
        if norm in ("imp", "impulsion", "impulse"):
            ctx.values[f"{ctx.side.role}_impulse"] = True
            ctx.spans["impulse_bonus"] = (tok.start, tok.end)
            ctx.modifiers.append("Impulsion +3")
            return 1
        if norm in ("malus", "bonus"):
            value = abs(_next_number(tokens, i, norm))
            key = norm if ctx.side.role == "actor" or norm == "malus" else "opponent_bonus"
            ctx.add(key, value)
            ctx.spans[key] = (tok.start, tokens[i + 1].end)
            ctx.modifiers.append(f"{norm} {value}")
            return 2
        if norm == "seuil":
            ctx.once("difficulty", _next_number(tokens, i, "seuil"), tok, "le seuil", tokens[i + 1])
            return 2
        if norm in _TARGETS:
            ctx.once("target", _TARGETS[norm], tok, "la longueur de l'opposition")
            return 1
        return 0

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm.replace("−", "-")
        m = re.fullmatch(r"1?d20([+\-]\d+)?", norm)
        if m:
            side = ctx.side
            if side.named:
                raise QuickRollError(f"« {tok.text} » : {side.name} a déjà ses scores", tok.start, tok.end)
            side.raw = {"stat": max(0, int(m.group(1) or 0))}
            side.raw_text = tok.text
            return 1
        m = re.fullmatch(r"([+\-])(\d+)", norm)
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
        if re.fullmatch(r"\d+", norm):
            ctx.once("difficulty", int(norm), tok, "le seuil")
            return 1
        return 0

    def _roller(self, side: Side, prefix: str, ctx: Context) -> tuple[dict[str, Any], str, int | None]:
        if side.raw and not side.traits:
            return {prefix + "stat": side.raw["stat"]}, side.raw_text, None
        stat_t = _trait(side, "stat")
        skill_t = _trait(side, "skill")
        stats = side.sheet("stats")
        if skill_t is not None:
            _, name, value, parent = skill_t[0].value  # type: ignore[misc]
            if stat_t is not None:
                stat_name, stat = stat_t[0].value[1], stat_t[0].value[2]  # type: ignore[index]
            elif parent in stats:
                stat_name, stat = parent, int(stats[parent])
            else:
                raise QuickRollError(f"{side.name} n'a pas la statistique {parent} : nommez-en une",
                                     skill_t[1].start, skill_t[1].end)
            text = f"{name} ({stat_name}) {stat}{sign(value)}" if value else f"{name} ({stat_name}, sans compétence) {stat}"
            fields = {prefix + "stat": stat}
            if value:
                fields[prefix + "skill"] = value
            return fields, text, value
        if stat_t is not None:
            _, name, value = stat_t[0].value  # type: ignore[misc]
            return {prefix + "stat": value}, f"{name} {value}", None
        raise QuickRollError(f"quelle compétence ou statistique pour {side.name} ?", side.start)

    def _impulsions(self, side: Side) -> int | None:
        res = side.sheet("resources")
        if "impulsion" not in res:
            return None
        return int(res.get("impulsion") or 0)

    def _helpers(self, ctx: Context, skill_name: str | None) -> list[int]:
        out = []
        for _i, helper, tok in ctx.helpers:
            if skill_name is None:
                raise QuickRollError("l'aide demande une compétence", tok.start, tok.end)
            value = 0
            for table in (helper.sheet.get("skills") or {}).values():
                if isinstance(table, dict):
                    for name, v in table.items():
                        if fold(name) == fold(skill_name):
                            value = int(v)
            out.append(value)
        if ctx.helpers:
            ctx.modifiers.append("aide " + ", ".join(h.name for _i, h, _t in ctx.helpers))
        return out

    def build(self, ctx: Context) -> Draft:
        v = ctx.values
        actor, opp = ctx.actor, ctx.opponent
        a, a_text, _ = self._roller(actor, "", ctx)
        skill_t = _trait(actor, "skill") if not actor.raw else None
        helpers = self._helpers(ctx, skill_t[0].value[1] if skill_t else None)  # type: ignore[index]
        if opp is None:
            if "target" in v:
                raise QuickRollError("une opposition étendue se joue contre quelqu'un : « vs »", *ctx.spans["target"])
            threshold = v.get("difficulty")
            missing = "" if threshold is not None else "seuil manquant : tapez un nombre (20), « difficile »…"
            request: dict[str, Any] = {**a, "threshold": threshold if threshold is not None else 20}
            ctx.spans["threshold"] = ctx.spans.get("difficulty", (0, 0))
            extras = self._extras(v, "", helpers)
            request.update(extras)
            points = self._impulsions(actor)
            if points is not None:
                request["impulsions"] = points
                ctx.spans["impulsions"] = ctx.spans.get("impulse_bonus", (0, len(ctx.line)))
                if v.get("actor_impulse") and points < 1:
                    raise QuickRollError(f"{actor.name} n'a plus d'Impulsion", *ctx.spans["impulse_bonus"])
            baseline = None
            if extras:
                baseline = {k: x for k, x in request.items() if k not in extras}
            seuil = f"seuil {request['threshold']}" if threshold is not None else "seuil ?"
            if v.get("malus"):
                seuil += f" + malus {v['malus']}"
            label = f"{actor.name} · {a_text} · {seuil}" + (f" · bonus {v['bonus']}" if v.get("bonus") else "")
            choice = Choice("magisphere_reroll", {"sides": {"": (_id(actor), points, actor.index)},
                                                  "limit": request.get("reroll_limit", "unlimited")})
            return _finish(self, ctx, "simple", request, who=actor.name, who_id=_id(actor), label=label,
                           missing=missing, baseline=baseline, choice=choice if points else None)
        if "difficulty" in v:
            raise QuickRollError("une opposition n'a pas de seuil : le plus haut score l'emporte",
                                 *ctx.spans["difficulty"])
        if v.get("malus"):
            raise QuickRollError("en opposition, un malus se donne en bonus à l'autre camp", *ctx.spans["malus"])
        o, o_text, _ = self._roller(opp, "opponent_", ctx)
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
                    sides[prefix] = (_id(side), points, side.index)
                    if request.get(prefix + "impulse_bonus") and points < 1:
                        raise QuickRollError(f"{side.name} n'a plus d'Impulsion", *ctx.spans["impulse_bonus"])
        else:
            for key in ("actor_impulse_bonus", "opponent_impulse_bonus"):
                if request.pop(key, None):
                    raise QuickRollError("l'Impulsion ne se joue pas dans une opposition étendue : "
                                         "jouez la manche seule (sans « tendue »)", *ctx.spans["impulse_bonus"])
            request["target"] = v["target"]
        baseline = {k: x for k, x in request.items() if k not in extras} if extras else None
        label = f"{actor.name} · {a_text} contre {opp.name} · {o_text}"
        if extended:
            label += f" · opposition en {v['target']} réussites"
            timer = {"label": f"{actor.name} contre {opp.name} ({v['target']} réussites)", "kind": "opposition",
                     "who": _id(actor), "opponent": _id(opp) or opp.name}
            return _finish(self, ctx, "extended_opposed", request, who=actor.name, who_id=_id(actor), label=label,
                           baseline=baseline, timer=timer)
        choice = Choice("magisphere_reroll", {"sides": sides, "limit": request.get("reroll_limit", "unlimited")})
        return _finish(self, ctx, "opposed", request, who=actor.name, who_id=_id(actor), label=label,
                       baseline=baseline, choice=choice if any(p for _, p, _ in sides.values()) else None)

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
        raise QuickRollError("séparez les dés de chaque camp par / (acteur / opposant)", ctx.faces_pos, len(ctx.line))


# ====================================================================== Te Deum


class TeDeumGrammar(SystemGrammar):
    system_id = "tedeum"
    keywords = frozenset({"providence", "prov", "bonus", "malus", "attaque", "attack", "surpris", "seuil",
                          "ouvert"})

    def __init__(self, campaign: Campaign) -> None:
        super().__init__(campaign)
        group = self.system.group("characteristics")
        assert group is not None
        self._chars = [candidate(s.label, ("char", s.key, s.label), s.key) for s in group.stats]
        self._labels = {s.key: s.label for s in group.stats}
        self._known = _free_skills(campaign, nested=True)

    def traits(self, side: Side) -> list[Candidate]:
        out = list(self._chars)
        return out + _nested_skills(side, self._known)

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
        if norm in ("attaque", "attack"):
            ctx.values["attack"] = True
            return 1
        if norm == "surpris":
            ctx.values["attack"] = True
            ctx.values["no_defence"] = True
            return 1
        if norm == "seuil":
            ctx.once("difficulty", _next_number(tokens, i, "seuil"), tok, "la difficulté", tokens[i + 1])
            return 2
        return 0

    def negated(self, ctx: Context, token: Token) -> bool:
        if token.norm in ("providence", "prov"):
            ctx.values[f"{ctx.side.role}_providence"] = False
            return True
        if token.norm in ("defense", "reaction", "parade"):
            ctx.values["attack"] = True
            ctx.values["no_defence"] = True
            return True
        return False

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm.replace("−", "-")
        m = re.fullmatch(r"1?d(4|6|8|10|12|20)([+\-]\d+)?", norm)
        if m:
            side = ctx.side
            if side.named:
                raise QuickRollError(f"« {tok.text} » : {side.name} a déjà son dé", tok.start, tok.end)
            side.raw = {"die": int(m.group(1)), "skill": max(0, int(m.group(2) or 0))}
            side.raw_text = tok.text
            return 1
        if re.fullmatch(r"\d+", norm):
            ctx.once("difficulty", int(norm), tok, "la difficulté")
            return 1
        return 0

    def _roller(self, side: Side, prefix: str, ctx: Context) -> tuple[dict[str, Any], str, str | None]:
        """Fields of one side, its description, and the characteristic key (for XP)."""
        shift = ctx.values.get(f"{side.role}_shift", 0)
        use = ctx.values.get(f"{side.role}_providence")
        if side.raw and not side.traits:
            fields = {prefix + "die": side.raw["die"], prefix + "skill": side.raw["skill"], prefix + "negative_die": 6}
            if shift:
                fields[prefix + "die_shift"] = shift
            return fields, side.raw_text, None
        char_t = _trait(side, "char")
        skill_t = _trait(side, "skill")
        if skill_t is not None:
            _, name, value, parent = skill_t[0].value  # type: ignore[misc]
            key = char_t[0].value[1] if char_t is not None else parent  # type: ignore[index]
            text = f"{name} ({self._labels.get(key, key)})"
        elif char_t is not None:
            key, value = char_t[0].value[1], 0  # type: ignore[index]
            text = self._labels.get(key, key)
        else:
            raise QuickRollError(f"quelle compétence pour {side.name} ?", side.start)
        die = int(side.sheet("characteristics").get(key, 8) or 8)
        negative = int(side.sheet("negative_dice").get(key, 6) or 6)
        providence = int(side.sheet("resources").get("providence", 0) or 0)
        fields: dict[str, Any] = {prefix + "die": die, prefix + "skill": value, prefix + "negative_die": negative}
        if shift:
            fields[prefix + "die_shift"] = shift
        if providence:
            fields[prefix + "providence_die"] = providence
        if use:
            if not providence:
                span = ctx.spans.get("use_providence", (0, len(ctx.line)))
                raise QuickRollError(f"{side.name} est une Brebis égarée : pas de Providence", *span)
            fields[prefix + "use_providence"] = True
        return fields, f"{text} D{die}+{value}", key

    def build(self, ctx: Context) -> Draft:
        v = ctx.values
        actor, opp = ctx.actor, ctx.opponent
        if ctx.helpers:
            h = ctx.helpers[0][2]
            raise QuickRollError("Te Deum n'a pas de règle d'aide dans ses tests", h.start, h.end)
        a, a_text, a_key = self._roller(actor, "" if opp is None and not v.get("attack") else "actor_", ctx)
        mods_keys = {k for k in a if k.endswith("die_shift") or k.endswith("use_providence")}
        # Asked only for player characters; an NPC calls on Providence with the word in the line.
        providence_prompt = (v.get("actor_providence") is None and actor.character is not None
                             and actor.character.side == "party"
                             and int(actor.sheet("resources").get("providence", 0) or 0) > 0)
        if v.get("attack"):
            request: dict[str, Any] = dict(a)
            label = f"{actor.name} attaque · {a_text}"
            if v.get("no_defence") or opp is None:
                request["defender_reacts"] = False
                if opp is not None:
                    label += f" · {opp.name} sans défense"
            else:
                o, o_text, _ = self._roller(opp, "opponent_", ctx)
                request.update(o)
                mods_keys |= {k for k in o if k.endswith("die_shift") or k.endswith("use_providence")}
                label += f" · {opp.name} se défend · {o_text}"
            if "difficulty" in v:
                raise QuickRollError("une attaque se juge contre 7 et la défense : pas de difficulté",
                                     *ctx.spans["difficulty"])
            kind = "attack"
            missing = ""
        elif opp is not None:
            o, o_text, _ = self._roller(opp, "opponent_", ctx)
            request = {**a, **o}
            mods_keys |= {k for k in o if k.endswith("die_shift") or k.endswith("use_providence")}
            if "difficulty" in v:
                raise QuickRollError("une opposition n'a pas de difficulté", *ctx.spans["difficulty"])
            label = f"{actor.name} · {a_text} contre {opp.name} · {o_text}"
            kind = "opposed"
            missing = ""
        else:
            difficulty = v.get("difficulty")
            missing = "" if difficulty is not None else "difficulté manquante : un nombre (13) ou « périlleux »"
            request = {**a, "difficulty": difficulty if difficulty is not None else 7}
            words = v.get("difficulty_label") or _tedeum_label(difficulty)
            diff = f"difficulté {difficulty}" + (f" ({words})" if words else "") if difficulty is not None else "difficulté ?"
            label = f"{actor.name} · {a_text} · {diff}"
            kind = "simple"
        baseline = {k: x for k, x in request.items() if k not in mods_keys} if mods_keys else None
        prefix = "" if kind == "simple" else "actor_"
        choice = None
        if providence_prompt and actor.character is not None:
            choice = Choice("tedeum_providence", {"prefix": prefix,
                                                  "providence": int(actor.sheet("resources").get("providence"))})
        draft = _finish(self, ctx, kind, request, who=actor.name, who_id=_id(actor), label=label, missing=missing,
                        baseline=baseline, choice=choice)
        draft.choice = choice if not draft.forced else None
        return draft

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        groups = ctx.faces or [[]]
        prefixes = [""] if kind == "simple" else ["actor_"]
        if kind == "opposed" or (kind == "attack" and request.get("defender_reacts", True)):
            prefixes.append("opponent_")
        if len(groups) > 1 and len(groups) != len(prefixes):
            raise QuickRollError(f"{len(prefixes)} groupes de dés attendus (séparés par /)", ctx.faces_pos,
                                 len(ctx.line))
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


def _tedeum_label(value: int | None) -> str:
    from gmscreen.rules.tedeum import difficulty_label

    return (difficulty_label(value) or "") if value is not None else ""


# ====================================================================== Arpèges


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
        self._known = _free_skills(campaign)

    def traits(self, side: Side) -> list[Candidate]:
        out = [candidate(label, (group, key, label), key) for group, stats in self._groups.items()
               for key, label in stats]
        own = side.sheet("skills")
        out += [candidate(name, ("skill", name, int(value))) for name, value in own.items()]
        owned = {fold(n) for n in own}
        out += [candidate(name, ("skill", name, 0)) for key, (name, _) in self._known.items() if key not in owned]
        return out

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm
        if norm in ("ouvert", "open"):
            ctx.values["open_roll"] = True
            return 1
        if norm in ("parade", "parry"):
            ctx.values["parry"] = True
            ctx.values["confrontation"] = True
            return 1
        if norm in ("confrontation", "conf"):
            ctx.values["confrontation"] = True
            return 1
        if norm in ("2j", "deuxjets"):
            ctx.values["two_rolls"] = True
            return 1
        if norm == "1j":
            ctx.values["two_rolls"] = False
            return 1
        if norm == "difficulte":
            value = _next_number(tokens, i, "difficulté")
            ctx.once("difficulty", value, tok, "la difficulté", tokens[i + 1])
            return 2
        return 0

    def negated(self, ctx: Context, token: Token) -> bool:
        if token.norm in ("parade", "parry"):
            ctx.values["parry"] = False
            ctx.values["confrontation"] = True
            return True
        return False

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        tok = tokens[i]
        norm = tok.norm.replace("−", "-")
        m = re.fullmatch(r"[x×](\d+)|(\d+)actions?", norm)
        if m:
            ctx.once("simultaneous_actions", int(m.group(1) or m.group(2)), tok, "le nombre d'actions")
            return 1
        if re.fullmatch(r"(\d+)", norm) and i + 1 < len(tokens) and tokens[i + 1].norm == "actions":
            ctx.once("simultaneous_actions", int(norm), tok, "le nombre d'actions", tokens[i + 1])
            return 2
        m = re.fullmatch(r"±?d10°?([+\-]\d+)?", norm)
        if m:
            side = ctx.side
            if side.named:
                raise QuickRollError(f"« {tok.text} » : {side.name} a déjà son niveau", tok.start, tok.end)
            side.raw = {"level": int(m.group(1) or 0)}
            side.raw_text = tok.text
            return 1
        if re.fullmatch(r"[+\-]?\d+", norm):
            if "difficulty" in ctx.values:
                ctx.values["difficulty"] += _int(norm)
                start = ctx.spans["difficulty"][0]
                ctx.spans["difficulty"] = (start, tok.end)
            else:
                ctx.once("difficulty", _int(norm), tok, "la difficulté")
            return 1
        return 0

    def _level(self, side: Side) -> tuple[int, str]:
        """Niveau de Compétence = Caractéristique + Moyen + Compétence (best ones when not named)."""
        if side.raw and not side.traits:
            return side.raw["level"], side.raw_text
        skill_t = _trait(side, "skill")
        parts = []
        total = 0
        for group in ("caracteristiques", "moyens"):
            named = _trait(side, group)
            values = side.sheet(group)
            if named is not None:
                _, key, label = named[0].value  # type: ignore[misc]
            else:
                if skill_t is None:
                    raise QuickRollError(f"quelle compétence pour {side.name} ?", side.start)
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
        char_id = _id(side)
        return 1 if char_id is None else simultaneous_actions(self.campaign, char_id)

    def build(self, ctx: Context) -> Draft:
        v = ctx.values
        actor, opp = ctx.actor, ctx.opponent
        if ctx.helpers:
            h = ctx.helpers[0][2]
            raise QuickRollError("Les Arpèges n'ont pas de règle d'aide", h.start, h.end)
        level, a_text = self._level(actor)
        common: dict[str, Any] = {}
        if v.get("open_roll"):
            common["open_roll"] = True
        explicit = "simultaneous_actions" in v
        actions = v["simultaneous_actions"] if explicit else self._declared(actor)
        if opp is None:
            if v.get("confrontation"):
                raise QuickRollError("une confrontation se joue contre quelqu'un : « vs »", len(ctx.line))
            difficulty = v.get("difficulty")
            missing = "" if difficulty is not None else "difficulté manquante : un nombre signé (−3, +2, 0)"
            request = {"difficulty": difficulty if difficulty is not None else 0, "skill_level": level, **common}
            if actions > 1:
                request["simultaneous_actions"] = actions
                ctx.modifiers.append(f"{actions} actions" + ("" if explicit else " déclarées"))
            baseline = {k: x for k, x in request.items() if k != "simultaneous_actions"} if actions > 1 else None
            diff = f"difficulté {sign(difficulty)}" if difficulty is not None else "difficulté ?"
            label = f"{actor.name} · {a_text} · {diff}"
            return _finish(self, ctx, "simple", request, who=actor.name, who_id=_id(actor), label=label,
                           missing=missing, baseline=baseline)
        o_level, o_text = self._level(opp)
        confrontation = v.get("confrontation") or "difficulty" in v
        if confrontation:
            request = {"difficulty": v.get("difficulty", 0), "actor_skill_level": level,
                       "opponent_skill_level": o_level, **common}
            if actions > 1:
                request["simultaneous_actions"] = actions
                ctx.modifiers.append(f"{actions} actions" + ("" if explicit else " déclarées"))
            if v.get("parry") is False:
                request["parry"] = False
            baseline = {k: x for k, x in request.items() if k != "simultaneous_actions"} if actions > 1 else None
            label = (f"{actor.name} · {a_text} · difficulté {sign(request['difficulty'])} · "
                     f"{opp.name} pare · {o_text}")
            choice = Choice("arpeges_parry", {}) if v.get("parry") is None else None
            return _finish(self, ctx, "confrontation", request, who=actor.name, who_id=_id(actor), label=label,
                           baseline=baseline, choice=choice)
        if actions > 1 and explicit:
            raise QuickRollError("les actions simultanées s'appliquent à une action simple ou une confrontation",
                                 *ctx.spans["simultaneous_actions"])
        kind = "opposed_two_rolls" if v.get("two_rolls") else "opposed_one_roll"
        request = {"actor_skill_level": level, "opponent_skill_level": o_level, **common}
        how = "deux jets" if kind == "opposed_two_rolls" else "un jet"
        label = f"{actor.name} · {a_text} contre {opp.name} · {o_text} · opposition en {how}"
        return _finish(self, ctx, kind, request, who=actor.name, who_id=_id(actor), label=label)

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


_GRAMMARS: dict[str, type[SystemGrammar]] = {
    "mir": MirGrammar, "eclats": EclatsGrammar, "magisphere": MagisphereGrammar,
    "tedeum": TeDeumGrammar, "arpeges": ArpegesGrammar,
}


def grammar_for(campaign: Campaign) -> SystemGrammar:
    get_system(campaign.system)
    return _GRAMMARS[campaign.system](campaign)


def spending(draft: Draft, result: dict[str, Any], campaign: Campaign) -> list[Spend]:
    """Resources the resolved roll uses up on the sheets (Impulsion, Providence, XP)."""
    out: list[Spend] = []
    if draft.system == "magisphere":
        prefixes = [""] if draft.kind == "simple" else ["actor_", "opponent_"]
        for side, prefix in zip(draft.sides, prefixes):
            spent = result.get(prefix + "impulsions_spent", 0) or 0
            if spent and side.index is not None:
                res = side.sheet("resources")
                if "impulsion" in res:
                    before = int(res["impulsion"])
                    out.append(Spend(("characters", side.index, "sheet", "resources", "impulsion"), before,
                                     max(0, before - spent), f"Impulsion −{spent} → {side.name}"))
    elif draft.system == "tedeum":
        prefixes = [""] if draft.kind == "simple" else ["actor_", "opponent_"]
        for side, prefix in zip(draft.sides, prefixes):
            if side.index is None:
                continue
            after = result.get(prefix + "providence_die_after")
            res = side.sheet("resources")
            before = int(res.get("providence", 0) or 0)
            if after is not None and "providence" in res and after != before:
                out.append(Spend(("characters", side.index, "sheet", "resources", "providence"), before, after,
                                 f"Providence D{before} → {'D' + str(after) if after else 'aucune'} ({side.name})"))
            xp = result.get("xp" if prefix == "" else prefix + "xp", 0) or 0
            key = _characteristic_of(side)
            if xp and key is not None:
                text = f"XP +{xp} {key} ({side.name})"
                if isinstance(side.character.sheet.get("xp"), dict):  # type: ignore[union-attr]
                    old = int(side.sheet("xp").get(key, 0) or 0)
                    out.append(Spend(("characters", side.index, "sheet", "xp", key), old, old + xp, text))
                else:
                    out.append(Spend(("characters", side.index, "sheet", "xp"), None, {key: xp}, text))
    return out


def _characteristic_of(side: Side) -> str | None:
    for cand, _tok in side.traits:
        if isinstance(cand.value, tuple) and cand.value[0] == "char":
            return str(cand.value[1])
    for cand, _tok in side.traits:
        if isinstance(cand.value, tuple) and cand.value[0] == "skill" and len(cand.value) > 3:
            return str(cand.value[3])
    return None
