"""A roll's luck in words a table enjoys, only when it is worth saying.

`luck` (every rules outcome carries it) is the chance, before the roll, of a result at least as
good (gmscreen/docs/luck.md). Under the notable bound (10 % unless config.toml says
`luck_notable`) the roll was rare and good: "lucky: 1 roll in 25 does this well" (luck 4 %);
over 100 % minus the bound, nearly every roll would have done at least as well, so few do worse:
"unlucky: 1 roll in 100 does worse" (luck 99 %: 1 % of rolls end worse), "unlucky: no roll does
worse" (luck 100 %: the worst result there is). In between, nothing is said. Each says how rare
the roll was, never a figure to read the wrong way round. No Textual here.
"""

from __future__ import annotations

from typing import Any

from gmscreen.i18n import _, language
from gmscreen.i18n.typography import NARROW_NBSP, number

DEFAULT_NOTABLE = 10          # percent; 0 never says anything
NOTABLE_RANGE = (0, 50)
_RAREST_SAID = 0.0001         # rarer than 1 roll in 10,000: "under 1 roll in 10,000"
_NONE_WORSE = 1e-12           # luck exact to 1e-12: no worse result at all


def luck_value(result: Any) -> float | None:
    """The luck a result carries, or None (an older log, a plain dice expression)."""
    luck = result.get("luck") if isinstance(result, dict) else None
    if isinstance(luck, bool) or not isinstance(luck, (int, float)) or not 0 < luck <= 1:
        return None
    return float(luck)


def one_roll_in(chance: float) -> str:
    """"1 roll in 25" for a chance of 4 % (the language's own figures: "1 jet sur 25")."""
    n = 1 / chance
    if n >= 10:
        figure = f"{round(n):,}".replace(",", "," if language() == "en" else NARROW_NBSP)
    else:
        figure = number(n, 1)
    return _("1 roll in {n}").format(n=figure)


def rarity(luck: float) -> str:
    """How rare a roll of that luck is, from the rarer side: "1 roll in 25 does this well"
    (luck 4 %), "1 roll in 100 does worse" (luck 99 %), "no roll does worse" (luck 100 %)."""
    if luck <= 0.5:
        if luck < _RAREST_SAID:
            return _("under {one} does this well").format(one=one_roll_in(_RAREST_SAID))
        return _("{one} does this well").format(one=one_roll_in(luck))
    worse = 1 - luck
    if worse <= _NONE_WORSE:
        return _("no roll does worse")
    if worse < _RAREST_SAID:
        return _("under {one} does worse").format(one=one_roll_in(_RAREST_SAID))
    return _("{one} does worse").format(one=one_roll_in(worse))


def luck_words(result: Any, notable: int = DEFAULT_NOTABLE) -> str:
    """"lucky: 1 roll in 25 does this well" / "unlucky: 1 roll in 100 does worse" (in the
    language spoken), or "" when the luck is not notable, or unknown."""
    luck = luck_value(result)
    if luck is None or notable <= 0:
        return ""
    if luck * 100 < notable:
        return _("lucky: {rarity}").format(rarity=rarity(luck))
    if luck * 100 > 100 - notable:
        return _("unlucky: {rarity}").format(rarity=rarity(luck))
    return ""
