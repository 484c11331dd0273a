"""A roll's luck in words a table enjoys, only when it is worth saying.

`luck` (every rules outcome carries it) is the chance, before the roll, of doing at least as
well. Under the notable bound (10 % unless config.toml says `luck_notable`) the roll was rare:
"un jet à 4 %"; over 100 % minus the bound, nearly every roll would have done as well: "97 %
des jets font au moins aussi bien". In between, nothing is said. No Textual here.
"""

from __future__ import annotations

from typing import Any

from gmscreen.i18n import _
from gmscreen.i18n.typography import percent

DEFAULT_NOTABLE = 10          # percent; 0 never says anything
NOTABLE_RANGE = (0, 50)
_RAREST_SAID = 0.0001         # below 0,01 %: "moins de 0,01 %"


def luck_value(result: Any) -> float | None:
    """The luck a result carries, or None (an older log, a plain dice expression)."""
    luck = result.get("luck") if isinstance(result, dict) else None
    if isinstance(luck, bool) or not isinstance(luck, (int, float)) or not 0 < luck <= 1:
        return None
    return float(luck)


def luck_words(result: Any, notable: int = DEFAULT_NOTABLE) -> str:
    """"a 4% roll" / "97% of rolls do at least as well" (in the language spoken), or "" when
    the luck is not notable, or unknown."""
    luck = luck_value(result)
    if luck is None or notable <= 0:
        return ""
    if luck * 100 < notable:
        if luck < _RAREST_SAID:
            return _("a roll under {chance}").format(chance=percent(_RAREST_SAID))
        return _("a {chance} roll").format(chance=percent(luck))
    if luck * 100 > 100 - notable:
        return _("{chance} of rolls do at least as well").format(chance=percent(luck))
    return ""
