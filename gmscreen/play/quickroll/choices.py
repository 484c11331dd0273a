"""Choices made inside a roll, one key each, as the rules' resolve contracts express them.

The dice say what was chosen (rules README, "Forced dice"): a reroll is the dice list grown by
one die, so a flow rolls the first dice, asks, adds the new dice and resolves again in forced
mode; the request it finally records replays exactly. What a game asks, and when, is its
`RollRules` (`gmscreen/play/games/<id>/roll.py`); this module only runs the steps.
"""

from __future__ import annotations

import copy
import random
from dataclasses import field
from typing import TYPE_CHECKING, Any

from gmscreen.rules import resolve
from gmscreen.rules.records import record

# A roll's prompt and its options are records the games build too (`exchange`), named here as ever.
from ..exchange import Draft, Option, Prompt, Spend

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from ..roll_rules import RollRules


@record
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
    gains: list[Spend] = field(default_factory=list)   # what a choice adds to a sheet beyond the result (a reward)

    def __post_init__(self) -> None:
        self.request = dict(self.draft.request)

    @property
    def done(self) -> bool:
        return self.result is not None and self.prompt is None

    @property
    def rules(self) -> RollRules:
        """The roll part of the game rolled (its choices and spending): the draft's game."""
        rules: RollRules = self.draft.table.roll
        return rules

    # ---------------------------------------------------------------- start

    def start(self) -> "RollFlow":
        if self.draft.timer is not None and not self.draft.forced:
            self.rules.first_interval(self)
        elif self.draft.forced or self.draft.choice is None:
            self.rules.plain(self)
        else:
            self.rules.start(self)
        return self

    def choose(self, key: str) -> bool:
        """Apply the option bound to `key`; False when the key means nothing now."""
        if self.prompt is None:
            return False
        option = self.prompt.option(key)
        if option is None:
            return False
        self.prompt = None
        self.rules.choose(self, option.action)
        return True

    def settle(self) -> "RollFlow":
        """Every open choice takes the key that ends it as the table saw it (`Prompt.settles`,
        else its default): the campaign is closing, or the roll is kept in case it closes;
        returns self. RequestError as `choose`."""
        for _ in range(50):
            if self.prompt is None or not self.choose(self.prompt.settles or "enter"):
                break
        return self

    def settled(self) -> "RollFlow":
        """What `settle()` ends with, worked out on a copy: this flow stays as it is, its dice
        generator too, so that Enter pressed later draws the very dice worked out here."""
        return self.twin().settle()

    def twin(self) -> "RollFlow":
        """A copy to play ahead on: whatever it rolls or is answered leaves this flow as it is,
        and its dice generator draws the very dice this one will."""
        twin = copy.copy(self)
        twin.rng = copy.deepcopy(self.rng)
        twin.request = copy.deepcopy(self.request)
        twin.result = copy.deepcopy(self.result)
        twin.declined = set(self.declined)
        twin.gains = list(self.gains)
        return twin

    # ---------------------------------------------------------------- steps (for the games' hooks)

    def face(self, sides: int, low: int = 1) -> int:
        """One die from this flow's generator (so a settled twin draws the very same dice)."""
        return low + self.rng.randrange(sides)

    def resolve_random(self) -> None:
        """Resolve the request as it stands: dice rolled from a logged seed, or the typed dice."""
        if self.draft.forced:
            self.seed = None
            self.result = resolve(self.request)
            return
        self.seed = self.rng.randrange(2 ** 31)
        self.result = resolve(self.request, seed=self.seed)


def spending(draft: Draft, result: dict[str, Any], campaign: Campaign) -> list[Spend]:
    """Resources the resolved roll uses up on the sheets (Impulsion, Providence, XP…), as the
    game rolled says (`RollRules.spending`: the draft's game)."""
    return draft.table.roll.spending(draft, result, campaign)
