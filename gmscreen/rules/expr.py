"""Free dice expressions (`2d6+1`, `d20`, `3D6-2`, `5`) for initiative and quick rolls.

Outside the five systems' tests the GM still rolls plain dice; the screen and the CLI share
this one small grammar so that both accept the same text and show the same canonical form.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from itertools import accumulate
from operator import sub

from ._base import DiceSource, RandomDice, RequestError
from .records import record

MAX_COUNT = 100
MIN_SIDES, MAX_SIDES = 2, 1000
MAX_MODIFIER = 1000

_DICE = re.compile(r"\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+)\s*)?")
_NUMBER = re.compile(r"\s*([+-]?)\s*(\d+)\s*")


@record(frozen=True)
class DiceExpr:
    """`count` dice of `sides` faces plus `modifier`; count 0 is a fixed number."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        if not self.count:
            return str(self.modifier)
        text = f"{self.count}d{self.sides}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    def roll(self, rng: random.Random | DiceSource) -> tuple[int, list[int]]:
        """Total and faces; `rng` may be a `random.Random` or any dice source (forced dice)."""
        source = rng if isinstance(rng, DiceSource) else RandomDice(rng)
        faces = [source.roll(self.sides) for _ in range(self.count)]
        return sum(faces) + self.modifier, faces

    def counts(self) -> tuple[dict[int, int], int]:
        """Ways to reach each total, and the number of equally likely rolls (sides**count)."""
        ways = _sum_ways(self.count, self.sides)
        return {self.count + i + self.modifier: w for i, w in enumerate(ways) if w}, self.sides ** self.count

    def distribution(self) -> dict[int, float]:
        """Exact probability of each total (integer counts divided once)."""
        ways, total = self.counts()
        return {value: w / total for value, w in ways.items()}


@lru_cache(maxsize=256)
def _sum_ways(count: int, sides: int) -> tuple[int, ...]:
    """Ways for `count` dice to sum to count + i, for each i (sliding window over prefix sums)."""
    ways = [1]
    for _ in range(count):
        # new[i] = prefix[min(i+1, top)] - prefix[max(i+1-sides, 0)], built with C-level maps.
        prefix = [0, *accumulate(ways)]
        top = len(ways)
        upper = prefix[1:] + [prefix[top]] * (sides - 1)
        lower = [0] * (sides - 1) + prefix[:top]
        ways = list(map(sub, upper, lower))
    return tuple(ways)


def parse_expression(text: str) -> DiceExpr:
    """Read a dice expression; any other text is one `RequestError` naming `expression`."""
    if not isinstance(text, str):
        raise RequestError("expression", "expected_expression_text", value=text)
    match = _DICE.fullmatch(text)
    if match:
        count = int(match.group(1)) if match.group(1) else 1
        sides = int(match.group(2))
        modifier = int(match.group(4) or 0)
        if match.group(3) == "-":
            modifier = -modifier
        if not 1 <= count <= MAX_COUNT:
            raise RequestError("expression", "dice_count", count=count, text=text.strip(), max=MAX_COUNT)
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise RequestError("expression", "die_sides", sides=sides, text=text.strip(), min=MIN_SIDES, max=MAX_SIDES)
        _check_modifier(modifier, text)
        return DiceExpr(count, sides, modifier)
    match = _NUMBER.fullmatch(text)
    if match:
        value = int(match.group(2)) * (-1 if match.group(1) == "-" else 1)
        _check_modifier(value, text)
        return DiceExpr(0, 0, value)
    if text.strip():
        raise RequestError("expression", "expected_expression", text=text.strip())
    raise RequestError("expression", "empty_expression")


def _check_modifier(value: int, text: str) -> None:
    if abs(value) > MAX_MODIFIER:
        raise RequestError("expression", "expression_number", value=value, text=text.strip(), max=MAX_MODIFIER)
