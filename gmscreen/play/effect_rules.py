"""The EffectRules part of a game: what a condition's `effect` means in that game's words,
and how it changes a roll's request.

A condition carries its effect as the GM wrote it ("−1 dé", "Malus 3", "FOR −1 (un lancer
de moins)"). Each game reads it in its own quick-roll words (`read`) and applies it to one
side of a request (`apply`); what it cannot read stays a reminder, never a guess. The base
class reads nothing (a game without this part keeps every effect as a reminder).
"""

from __future__ import annotations

import re
import sys
import tomllib
import unicodedata
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from gmscreen.rules.records import record

if TYPE_CHECKING:
    from .exchange import Choice, Side

_COMMENT = re.compile(r"\([^)]*\)")
_MINUS = str.maketrans({"−": "-", "–": "-", "—": "-", "‑": "-", "’": "'", "‘": "'", "ʼ": "'"})
# "Can't act", in French or English: a reminder in every game (none has a number for it; the GM
# decides whether the character acts at all). Folded, as `effect_core` gives them.
CANNOT_ACT = frozenset({"ne peut pas agir", "ne peut agir", "ne peut plus agir",
                        "can't act", "cannot act", "can not act", "cant act"})


def fold(text: str) -> str:
    """Lower case without accents (as the quick-roll line folds its words; the line's own
    module is not loaded for a campaign that only opens)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def effect_core(text: str) -> str:
    """The effect as read: comments in parentheses dropped, any minus as "-" and any apostrophe
    as "'", folded (no case, no accents), spaces collapsed, no space after a sign ("FOR − 1" -> "for -1")."""
    core = fold(_COMMENT.sub(" ", str(text)).translate(_MINUS))
    core = re.sub(r"([+\-])\s+(?=\d)", r"\1", core)
    return " ".join(core.split())


def effect_shown(text: str) -> str:
    """The effect as the odds line names it: as written, without its comment ("FOR −1")."""
    return " ".join(_COMMENT.sub(" ", str(text)).split())


@record(frozen=True)
class Effect:
    """An effect read: an amount on the game's target (a field, a characteristic), or a
    reminder (`reminder`: something to remember that changes no number, "ne peut pas agir")."""

    shown: str                  # as the odds line names it ("−1 dé")
    amount: int = 0
    target: str = ""            # what the game's `apply` changes ("" : its one usual field)
    reminder: bool = False
    brief: str = ""             # as a narrow odds line names it ("−2"; "": as shown)


@record(frozen=True)
class Preset:
    """A condition the GM can add from the game's short list: its name as the rules and samples
    write it, its effect in the game's words, its length in rounds (None: until removed)."""

    name: str
    effect: str = ""
    rounds: int | None = None


def read_presets(path: Path) -> tuple[Preset, ...]:
    """The conditions of a `conditions.toml` (`[[conditions]]` tables: name, effect, rounds)."""
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    return tuple(Preset(str(c["name"]), str(c.get("effect", "")), c.get("rounds"))
                 for c in data.get("conditions", ()))


class EffectRules:
    """Defaults shared by every game: no effect read, each one kept as a reminder, no list of
    conditions (a game's list is the `conditions.toml` beside its effects module, or the
    `presets` it is made with: `EffectRules(presets=[Preset("Ébloui", "−1 dé", 1)])`, or the
    path of such a TOML file)."""

    # What the game accepts, in its own words, for `validate` and the load notice.
    accepted: ClassVar[str] = ""
    # Effects kept as reminders on purpose (folded, as `effect_core` gives them).
    reminders: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, *, presets: Sequence[Preset] | str | Path | None = None) -> None:
        if presets is not None:         # given: read now, so a wrong file is said where the game is made
            self.__dict__["presets"] = (read_presets(Path(presets)) if isinstance(presets, (str, Path))
                                        else tuple(presets))

    @cached_property
    def presets(self) -> tuple[Preset, ...]:
        """The game's short list of conditions (as given, else `conditions.toml` beside the
        module that defines this class; none when there is no such file)."""
        module = sys.modules.get(type(self).__module__)
        folder = Path(getattr(module, "__file__", "") or ".").parent
        path = folder / "conditions.toml"
        if type(self) is EffectRules or not path.is_file():
            return ()
        return read_presets(path)

    def examples(self, count: int = 2) -> str:
        """A few effects of the game's presets as it reads them, in the UI language ("−1 dé,
        blessure −1 dé…" / "−1 die, wound −1 die…"): what the condition dialog suggests, each
        one typeable as it shows; "" for a game with no preset that has an effect."""
        shown: list[str] = []
        for preset in self.presets:
            effect = self.read(preset.effect)
            if effect is not None and not effect.reminder:
                text = effect_shown(self.said(effect))
                if text and text not in shown:
                    shown.append(text)
        return ", ".join(shown[:count]) + ("…" if shown else "")

    def said(self, effect: Effect) -> str:
        """Hook: the game's reading of `effect` in the UI language, as typed words first (they
        read back the same) then, in parentheses, what they do: "−1 die", "FOR −1 (one roll
        fewer)". Default: the effect as written."""
        return effect.shown

    def read(self, text: str) -> Effect | None:
        """The effect written `text`, or None when this game cannot read it."""
        core = effect_core(text)
        if not core:
            return None
        if core in self.reminders:
            return Effect(effect_shown(text), reminder=True)
        return self.parse(core, effect_shown(text))

    def parse(self, core: str, shown: str) -> Effect | None:
        """Hook: `core` (see `effect_core`) in the game's words, or None."""
        return None

    def apply(self, effect: Effect, request: dict[str, Any], fields: set[str], role: str,
              side: Side) -> bool | None:
        """Hook: change `request` (of a kind with `fields`) for `effect` on the side `role` ("actor"/"opponent").
        True: applied; False: this test has no field for it (kept as a reminder); None: it
        does not concern this roll (another characteristic), not named."""
        return False

    def apply_helper(self, effect: Effect, request: dict[str, Any], fields: set[str], position: int) -> bool | None:
        """Hook: change `request` for `effect` on the helper at `position` (in the order the
        line names them). Default False: the test has no field for a helper's state."""
        return False

    def choice_after(self, choice: Choice | None, request: dict[str, Any]) -> Choice | None:
        """Hook: the choice inside the roll once effects changed the request (default: as is)."""
        return choice

    def out_of_scene(self, effect: Effect, scene: frozenset[str]) -> str | None:
        """Hook: why `effect` does not bite in the roll's `scene` (what the table knows of the
        moment: `FIGHT` while a fight runs, and the words the line adds, MIR `intrigue`), said
        after it where the odds line reminds it; None: it bites. Default: anywhere."""
        return None

    def settle(self, request: dict[str, Any], before: dict[str, Any], fields: set[str],
               applied: Sequence[tuple[str | int, Effect]]) -> dict[int, str]:
        """Hook: `request` (of a kind with `fields`) once every effect of `applied` is on it, each
        with where it went (a role, or a helper's position); `before`: the request without
        them. The game caps their sum in place (MIR R3: situation dice at most ±2D, the typed
        ones included) and returns a note for each effect the cap cut, by its index in
        `applied`. Default: no cap."""
        return {}


FIGHT = "fight"     # the scene word of a roll made while a fight runs (`Encounter.round` > 0)


def signed_amount(core: str, units: str = "") -> int | None:
    """"-1", "+2", "-2 des" (units a regex of the words allowed after it): the signed number, or None."""
    m = re.fullmatch(r"([+\-])(\d{1,2})" + (rf"(?:\s*(?:{units}))?" if units else ""), core)
    if m is None:
        return None
    value = int(m.group(2))
    return -value if m.group(1) == "-" else value


def word_amount(core: str, word: str, default: int | None = 1) -> int | None:
    """"malus", "malus 2", "malus +2" (word, a regex: "malus|penalty", then an optional number):
    the number, `default` without one, None when `core` is not that."""
    m = re.fullmatch(rf"(?:{word})(?:\s*\+?(\d{{1,2}}))?", core)
    if m is None:
        return None
    return int(m.group(1)) if m.group(1) else default


def side_prefix(kind_fields: set[str], role: str, field: str) -> str | None:
    """The request key of `field` for the side `role`: `field` itself for the actor of a
    one-side test, `actor_field` / `opponent_field` in a contest; None when the kind has none."""
    for key in ((f"{role}_{field}",) if role == "opponent" else (field, f"actor_{field}")):
        if key in kind_fields:
            return key
    return None
