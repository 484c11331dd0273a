"""Choices made inside a roll, one key each, as the rules' resolve contracts express them.

The dice say what was chosen (rules README, "Forced dice"): Éclats `dice = [3, 0]` is "rolled
3, rerolled, got 0"; Magisphère `dice = [5, 14]` is "spent an Impulsion to reroll". So a flow
rolls the first dice, asks, adds the new dice and resolves again in forced mode; the request
it finally records replays exactly. Te Deum's Providence is called before the roll (R11), and
an Arpèges parry is decided once the action has succeeded (R10).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from gmscreen.rules import odds, resolve, success_chance

from .grammar import Draft

_FAILING = ("failure", "critical_failure")


@dataclass(frozen=True)
class Option:
    key: str          # the one key that picks it
    label: str        # French words shown beside the key
    action: str


@dataclass(frozen=True)
class Prompt:
    question: str
    options: tuple[Option, ...]
    default: str      # key taken by Enter

    def option(self, key: str) -> Option | None:
        if key == "enter":
            key = self.default
        return next((o for o in self.options if o.key == key), None)


@dataclass
class RollFlow:
    """One roll from Enter to its last choice. `prompt` is None once `done`."""

    draft: Draft
    rng: random.Random = field(default_factory=random.Random)
    request: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    seed: int | None = None
    prompt: Prompt | None = None
    declined: set[str] = field(default_factory=set)
    asking: str = ""

    def __post_init__(self) -> None:
        self.request = dict(self.draft.request)

    @property
    def done(self) -> bool:
        return self.result is not None and self.prompt is None

    # ---------------------------------------------------------------- start

    def start(self) -> "RollFlow":
        choice = self.draft.choice
        if self.draft.timer is not None and not self.draft.forced:
            self._first_interval()
        elif self.draft.forced or choice is None:
            self._resolve_random()
        elif choice.kind == "tedeum_providence":
            self._ask_providence()
        elif choice.kind == "eclats_reroll":
            self.request["dice"] = [self._face(10, 0)]
            self._after_eclats()
        elif choice.kind == "magisphere_reroll":
            if self.draft.kind == "simple":
                self.request["dice"] = [self._face(20)]
            else:
                self.request["actor_dice"] = [self._face(20)]
                self.request["opponent_dice"] = [self._face(20)]
            self._after_magisphere()
        elif choice.kind == "arpeges_parry":
            first = dict(self.request, parry=False)
            seed = self.rng.randrange(2 ** 31)
            out = resolve(first, seed=seed)
            self.request["actor_chance_dice"] = out["actor_chance_dice"]
            self.request["actor_malchance_dice"] = out["actor_malchance_dice"]
            if out["actor_margin"] >= 0:
                self.result = out
                self.prompt = Prompt(
                    f"L'action réussit (marge {out['actor_margin']:+d}) : la cible pare-t-elle ?",
                    (Option("p", "parer", "parry"), Option("n", "laisser passer", "no_parry")), "p")
            else:
                self.result = resolve(self.request)
        else:
            self._resolve_random()
        return self

    def choose(self, key: str) -> bool:
        """Apply the option bound to `key`; False when the key means nothing now."""
        if self.prompt is None:
            return False
        option = self.prompt.option(key)
        if option is None:
            return False
        self.prompt = None
        action = option.action
        if action == "providence":
            prefix = self.draft.choice.data["prefix"] if self.draft.choice else ""
            self.request[prefix + "use_providence"] = True
            self._resolve_random()
        elif action == "no_providence":
            self._resolve_random()
        elif action == "reroll":
            if self.draft.system == "eclats":
                self.request["dice"] = self.request["dice"] + [self._face(10, 0)]
                self._after_eclats()
            else:
                name = "dice" if self.draft.kind == "simple" else self.asking + "dice"
                self.request[name] = self.request[name] + [self._face(20)]
                self._after_magisphere()
        elif action == "keep":
            if self.draft.system == "magisphere" and self.draft.kind != "simple":
                self.declined.add(self.asking)
                self._after_magisphere()
        elif action == "parry":
            seed = self.rng.randrange(2 ** 31)
            parry = resolve({"system": "arpeges", "kind": "simple", "difficulty": 0, "skill_level": 0,
                             "open_roll": bool(self.request.get("open_roll"))}, seed=seed)
            self.request["opponent_chance_dice"] = parry["chance_dice"]
            self.request["opponent_malchance_dice"] = parry["malchance_dice"]
            self.request.pop("parry", None)
            self.result = resolve(self.request)
        elif action == "no_parry":
            self.request["parry"] = False
            self.result = resolve(self.request)
        return True

    def settle(self) -> "RollFlow":
        """Every open choice takes its default, as Enter would (the campaign is closing, or the
        roll is kept in case it closes); returns self. RequestError as `choose`."""
        for _ in range(50):
            if self.prompt is None or not self.choose("enter"):
                break
        return self

    def settled(self) -> "RollFlow":
        """What `settle()` ends with, worked out on a copy: this flow stays as it is, its dice
        generator too, so that Enter pressed later draws the very dice worked out here."""
        twin = copy.copy(self)
        twin.rng = copy.deepcopy(self.rng)
        twin.request = copy.deepcopy(self.request)
        twin.result = copy.deepcopy(self.result)
        twin.declined = set(self.declined)
        return twin.settle()

    # ---------------------------------------------------------------- steps

    def _face(self, sides: int, low: int = 1) -> int:
        return low + self.rng.randrange(sides)

    def _resolve_random(self) -> None:
        if self.draft.forced:
            self.seed = None
            self.result = resolve(self.request)
            return
        self.seed = self.rng.randrange(2 ** 31)
        self.result = resolve(self.request, seed=self.seed)

    def _first_interval(self) -> None:
        """An extended test is rolled one interval at a time: only the first one now."""
        request = self.request
        if self.draft.kind == "extended":
            base = request.get("pool")
            if base is None:
                base = request.get("skill", 0) + request.get("voie", 0)
            count = max(1, base + request.get("modifier", 0) - request.get("penalty", 0))
            request["rolls"] = [[self._face(12) for _ in range(count)]]
        else:
            request["actor_dice"] = [self._face(20)]
            request["opponent_dice"] = [self._face(20)]
        self.result = resolve(request)

    def _ask_providence(self) -> None:
        data = self.draft.choice.data if self.draft.choice else {}
        prefix, die = data.get("prefix", ""), data.get("providence", 0)
        without = success_chance(odds(self.draft.odds_request))
        with_prov = success_chance(odds(dict(self.draft.odds_request, **{prefix + "use_providence": True})))
        lower = {4: "aucune", 6: "D4", 8: "D6", 10: "D8", 12: "D10"}.get(die, "?")
        self.prompt = Prompt(
            f"{self.draft.who} appelle la Providence ? D{die} ({without:.0%} → {with_prov:.0%}), "
            f"elle tombe à {lower}",
            (Option("p", "Providence", "providence"), Option("n", "sans", "no_providence")), "n")

    def _after_eclats(self) -> None:
        self.result = resolve(self.request)
        level = self.request["characteristic"]
        dice = self.request["dice"]
        if len(dice) < level:
            left = level - len(dice)
            self.prompt = Prompt(
                f"{self.draft.who} : dé {dice[-1]}, résultat {self.result['result']} — relancer ? "
                f"({left} lancer{'s' if left > 1 else ''} de plus, le nouveau dé remplace l'ancien)",
                (Option("r", "relancer", "reroll"), Option("g", "garder", "keep")), "g")

    def _can_reroll(self, prefix: str) -> tuple[bool, int]:
        sides = self.draft.choice.data.get("sides", {}) if self.draft.choice else {}
        if prefix not in sides:
            return False, 0
        points = sides[prefix][1] or 0
        spent = (self.result or {}).get(prefix + "impulsions_spent", 0)
        rerolls = len(self.request.get(prefix + "dice", [])) - 1
        limit = self.draft.choice.data.get("limit", "unlimited") if self.draft.choice else "unlimited"
        if limit == "one" and rerolls >= 1:
            return False, points - spent
        return points - spent > 0, points - spent

    def _after_magisphere(self) -> None:
        self.result = resolve(self.request)
        if self.draft.kind == "simple":
            ok, left = self._can_reroll("")
            if ok and self.result["outcome"] in _FAILING:
                self.asking = ""
                self.prompt = Prompt(
                    f"{self.draft.who} : {self.result['natural']} naturel, score {self.result['score']} "
                    f"contre {self.result['target']} — dépenser 1 Impulsion pour relancer ? (reste {left})",
                    (Option("r", "relancer (1 Impulsion)", "reroll"), Option("g", "garder", "keep")), "g")
            return
        winner = self.result["winner"]
        for prefix, role in (("actor_", "actor"), ("opponent_", "opponent")):
            if prefix in self.declined or winner == role:
                continue
            ok, left = self._can_reroll(prefix)
            if ok:
                side = self.draft.sides[0 if role == "actor" else 1]
                self.asking = prefix
                self.prompt = Prompt(
                    f"{side.name} : {self.result[prefix + 'natural']} naturel, score {self.result[prefix + 'score']} "
                    f"— dépenser 1 Impulsion pour relancer ? (reste {left})",
                    (Option("r", "relancer (1 Impulsion)", "reroll"), Option("g", "garder", "keep")), "g")
                return
