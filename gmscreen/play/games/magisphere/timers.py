"""Magisphère's extended opposition as a timer: the form naming the opponent, the length and
both sides' scores, the request it makes, one d20 a side a round, and the score in words."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Mapping

from gmscreen import rules
from gmscreen.campaign.model import Timer
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _
from gmscreen.i18n.typography import Name
from gmscreen.play.forms import Field, Form, int_check, nonempty
from gmscreen.play.timers import IntervalRoll, TimedTest, name_of, status_of

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character
    from gmscreen.rules._base import System

D20 = 20


class ExtendedOpposition(TimedTest):
    """Rounds of opposed d20s until one side has the successes the length asks (2, 3, 5)."""

    kind = "opposition"
    option = N_("Extended opposition (Magisphère)")
    rounds_of_their_own = True
    who_missing = N_("select the character who leads the opposition first (roster)")

    def form(self, campaign: Campaign, system: System, character: Character) -> Form:
        name = Name(clean(character.name))
        return Form(_("Extended opposition of {name}").format(name=name), [
            Field("label", _("Label"), check=nonempty(_("Label"))),
            Field("opponent", _("Opponent (a character's name or a free name)"), check=nonempty(_("Opponent"))),
            Field("target", _("Successes to get (2 brief, 3 tense, 5 major)"), "3",
                  check=int_check(1, 10, what=_("Successes"))),
            Field("actor_stat", _("Statistic of {name}").format(name=name), check=int_check(0, 30, what=_("Statistic"))),
            Field("actor_skill", _("Skill of {name}").format(name=name), "0",
                  check=int_check(0, 20, empty_ok=True, what=_("Skill"))),
            Field("opponent_stat", _("The opponent's statistic"), check=int_check(0, 30, what=_("Statistic"))),
            Field("opponent_skill", _("The opponent's skill"), "0",
                  check=int_check(0, 20, empty_ok=True, what=_("Skill"))),
        ])

    def make(self, campaign: Campaign, system: System, character: Character, values: dict[str, str]) -> Timer:
        others = {c.name.casefold(): c for c in campaign.characters if c.id != character.id}
        name = values["opponent"].strip()
        opponent = others.get(name.casefold())
        request = {"system": "magisphere", "kind": "extended_opposed", "target": int(values["target"]),
                   "actor_stat": int(values["actor_stat"]), "actor_skill": int(values["actor_skill"] or 0),
                   "opponent_stat": int(values["opponent_stat"]),
                   "opponent_skill": int(values["opponent_skill"] or 0)}
        return Timer(id="", label=values["label"].strip(), kind=self.kind, who=character.id,
                     opponent=opponent.id if opponent else name, request=request)

    def next_dice(self, dice: dict[str, Any], before: dict, rng: random.Random,
                  request: dict[str, Any] | None = None) -> str:
        for field in ("actor_dice", "opponent_dice"):
            dice.setdefault(field, []).append(1 + int(rng.random() * D20))
        return _("round {n}").format(n=len(dice['actor_dice']))

    def progress(self, campaign: Campaign, timer: Timer, result: dict) -> str:
        actor, opponent = clean(name_of(campaign, timer.who)), clean(name_of(campaign, timer.opponent))
        return (f"{actor} {result['actor_points']} – {result['opponent_points']} {opponent}"
                " · " + _("to {target}").format(target=result['target'])
                + " · " + _("round {n}").format(n=result['rounds']))


    # -- R18: each round with the statistics and skills the GM names for it

    def round_fields(self, campaign: Campaign, timer: Timer) -> list[Field]:
        """This round's skill (its name, for the log) and both sides' statistic and skill,
        filled in as the last round was played."""
        last = {**_roller(timer.request), **(timer.round_stats[-1] if timer.round_stats else {})}
        actor, opponent = Name(clean(name_of(campaign, timer.who))), Name(clean(name_of(campaign, timer.opponent)))
        return [
            Field(ROUND_LABEL, _("This round's skill (Agilité, Natation…; empty: as the opposition)"),
                  str(last.get(ROUND_LABEL, ""))),
            Field("actor_stat", _("Statistic of {name}").format(name=actor), str(last["actor_stat"]),
                  check=int_check(0, 30, what=_("Statistic"))),
            Field("actor_skill", _("Skill of {name}").format(name=actor), str(last["actor_skill"]),
                  check=int_check(0, 20, empty_ok=True, what=_("Skill"))),
            Field("opponent_stat", _("Statistic of {name}").format(name=opponent), str(last["opponent_stat"]),
                  check=int_check(0, 30, what=_("Statistic"))),
            Field("opponent_skill", _("Skill of {name}").format(name=opponent), str(last["opponent_skill"]),
                  check=int_check(0, 20, empty_ok=True, what=_("Skill"))),
        ]

    def round_fields_changed(self, timer: Timer, values: dict[str, str]) -> bool:
        return bool(_settings(values)) and _settings(values) != _roller(timer.request)

    def roll_round(self, timer: Timer, values: dict[str, str], faces: str,
                   campaign: Campaign | None = None) -> IntervalRoll:
        """The next round with its own settings (`values`; none: the opposition's), its faces
        typed or rolled; logged as the opposed roll it is (R19: its round points)."""
        from gmscreen.play.interval_dice import table_interval_dice
        from gmscreen.play.timers import next_interval_dice

        from . import TABLE                  # this game's own parts

        own = _settings(values)
        if own == _roller(timer.request):
            own = {}
        met: list = []
        if campaign is not None:            # each side's conditions as they stand this round
            bitten, met = self._conditions(campaign, timer, own)
            own = {**own, **bitten}
        if faces:
            dice, step = table_interval_dice(timer, faces, game=TABLE)
        else:
            dice, step = next_interval_dice(timer, {}, game=TABLE)
        played = len(timer.dice.get("actor_dice", []))
        stats = [dict(s) for s in timer.round_stats] + [{}] * max(0, played - len(timer.round_stats))
        stats = stats[:played] + [own]
        label = own.get(ROUND_LABEL, "")
        request = _round_request(timer.request, own, dice["actor_dice"][-1], dice["opponent_dice"][-1])
        from gmscreen.play.timers import noted_interval

        total = rounds_result(timer.request, dice, stats)
        # Logged as the opposed roll it is, with the one luck of the timer's log: the standing of
        # the whole opposition, as every round played as the opposition logs it.
        result = noted_interval({**rules.resolve(request), **{k: total[k] for k in LUCK_FIELDS if k in total}}, met)
        status = status_of(total)
        return IntervalRoll(request, result, dice, status, f"{step} ({clean(label)})" if label else step,
                            round_stats=stats if any(stats) else [])

    def result_of(self, timer: Timer) -> dict | None:
        return rounds_result(timer.request, timer.dice, timer.round_stats) if timer.round_stats else None

    # -- the conditions, re-read each round

    def start_fields(self, request: dict[str, Any], unconditioned: dict[str, Any] | None,
                     result: dict[str, Any]) -> dict[str, Any]:
        """The opposition as typed, and what the sides' conditions changed in its first round
        (a malus is the other side's bonus: `effects`) as that round's own settings."""
        if unconditioned is None:
            return {"request": request}
        changed = {k: v for k, v in request.items() if unconditioned.get(k) != v}
        return {"request": dict(unconditioned), "round_stats": [changed] if changed else []}

    def round_of_its_own(self, campaign: Campaign | None, timer: Timer) -> bool:
        """A side's conditions bite in the next round: it is played with them as its settings."""
        return campaign is not None and bool(self._conditions(campaign, timer, {})[0])

    def _conditions(self, campaign: Campaign, timer: Timer, own: dict[str, Any]) -> tuple[dict[str, Any], list]:
        """The fields the sides' conditions change in the next round played with `own` (its
        bonuses), and what became of each condition met."""
        from gmscreen.play.effects import apply_conditions, scene_of

        from . import TABLE                  # this game's own parts
        from gmscreen.play.quickroll.grammar import Side

        sides = [Side(role, 0, character=campaign.character(ref) if ref else None)
                 for role, ref in (("actor", timer.who), ("opponent", timer.opponent))]
        if not any(side.character is not None for side in sides):
            return {}, []
        base = {k: v for k, v in _round_request(timer.request, own, 1, 1).items() if not k.endswith("_dice")}
        now, met, _unused = apply_conditions(TABLE, "opposed", base, sides, scene=scene_of(campaign))
        return {k: v for k, v in now.items() if base.get(k) != v}, met


ROUND_LABEL = "label"
LUCK_FIELDS = ("luck", "opponent_luck")
_ROLLER = ("stat", "skill", "bonus", "helper_skills")


def _roller(request: dict[str, Any]) -> dict[str, Any]:
    """Both sides' statistic and skill as the opposition's request gives them."""
    return {f"{side}_{f}": request.get(f"{side}_{f}", 0) for side in ("actor", "opponent") for f in ("stat", "skill")}


def _settings(values: dict[str, str]) -> dict[str, Any]:
    """What the round's form says: the four numbers (an empty skill is 0) and the skill's name."""
    from gmscreen.play.forms import parse_int

    out: dict[str, Any] = {}
    for key in ("actor_stat", "actor_skill", "opponent_stat", "opponent_skill"):
        if key in values:
            out[key] = parse_int(values[key] or "0") or 0
    if out and (values.get(ROUND_LABEL) or "").strip():
        out[ROUND_LABEL] = values[ROUND_LABEL].strip()
    return out


def _round_request(request: dict[str, Any], own: dict[str, Any], actor: int, opponent: int) -> dict[str, Any]:
    """One round as the opposed roll it is (R19): the opposition's sides, changed by the round's own."""
    sides = {k: v for k, v in request.items() if k.startswith(("actor_", "opponent_"))}
    sides.update({k: v for k, v in own.items() if k != ROUND_LABEL})
    extra = {k: request[k] for k in ("hidden",) if k in request}
    return {"system": request.get("system"), "kind": "opposed", **extra, **sides,
            "actor_dice": [actor], "opponent_dice": [opponent]}


def _decided(a_points: int, o_points: int, target: int) -> str | None:
    """R18, R22: the first to the target wins; both at once: the more réussites, equal a tie."""
    if a_points >= target and o_points >= target:
        return "actor" if a_points > o_points else "opponent" if o_points > a_points else "tie"
    return "actor" if a_points >= target else "opponent" if o_points >= target else None


def rounds_result(request: dict[str, Any], dice: dict[str, Any], stats: list[dict[str, Any]]) -> dict[str, Any]:
    """What the extended opposition's rounds say when each is played with its own settings
    (`stats`, one a round; {} or none: the request's): each round's points as the opposed roll
    reports them (R19–R21), added up to the target (R18, R22). The rules' `extended_opposed`
    outcome, fields and words alike, its luck the standing of the whole opposition with each
    round's own settings (`magisphere.extended_luck`). RequestError for dice after the deciding
    round."""
    from gmscreen.rules.luck import lucks
    from gmscreen.rules.magisphere import extended_luck

    a_list, o_list = list(dice.get("actor_dice", [])), list(dice.get("opponent_dice", []))
    if not any(stats):
        return rules.resolve({**request, "actor_dice": a_list, "opponent_dice": o_list})  # with its luck
    if len(a_list) != len(o_list):
        raise rules.RequestError("opponent_dice", "rounds_mismatch", actor=len(a_list), got=len(o_list))
    target = request["target"]
    a_points = o_points = 0
    winner = None
    for n, (a, o) in enumerate(zip(a_list, o_list)):
        if winner is not None:
            raise rules.RequestError("actor_dice", "opposition_decided", rounds=n, given=len(a_list))
        own = stats[n] if n < len(stats) else {}
        out = rules.resolve(_round_request(request, own, a, o))
        a_points += out["actor_points"]
        o_points += out["opponent_points"]
        winner = _decided(a_points, o_points, target)
    out = {"system": request.get("system"), "kind": request.get("kind"), "hidden": bool(request.get("hidden", False)),
           "winner": winner or "pending", "actor_points": a_points, "opponent_points": o_points,
           "rounds": len(a_list), "target": target, "actor_dice": a_list, "opponent_dice": o_list}
    sides: list[Mapping[str, Any]] = [{k: v for k, v in (stats[n] if n < len(stats) else {}).items() if k != ROUND_LABEL}
             for n in range(len(a_list))]
    out.update(lucks(extended_luck(request, sides), out))
    return out


OPPOSITION = ExtendedOpposition()
