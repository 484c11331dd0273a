"""A described result turned into words: the one walk over a `Description`, whatever the output.

In the manner of d20's stringifiers: `DescriptionRenderer` walks what the rules described (its
dice groups, each die with its status, each total, the headline and the detail) and hands every
piece to a small method; a variant overrides only the pieces it shows differently. The variants:
the command line's and the roll log's in `gmscreen.play.render`, the Markdown export's beside
its escapes in `gmscreen.campaign.export`, the dice tray's styled one in the ui (Textual). It
lives here, beside `Description`, so that every layer that words a result can build on it
(imports point down only). Nothing here knows a game: what one calls things is on its `System`.
"""

from __future__ import annotations

from typing import Any, Generic, Mapping, Sequence, TypeVar

from gmscreen.i18n.typography import signed

from ._base import Description, DiceGroup, Die, System

T = TypeVar("T")


class DescriptionRenderer(Generic[T]):
    """Every piece of a description through its own method. The default reads as the tray shows
    it, in plain text: "réussite  2 succès pour SD 3" then "acteur 3 8 7 12 = 4  opposant 5 = 5".
    A variant with styles (Rich, Textual) replaces `text` and `join`; the rest builds on them."""

    die_separator = " "       # between two faces of a group
    group_separator = "  "    # between two groups
    no_dice = ""              # what a group without dice shows in place of its faces

    # ------------------------------------------------------------ the two primitives

    def text(self, text: str, role: str = "") -> T:
        """One literal piece; `role` says what it is (a die status, "label", "total", "good"...)
        so that a styled variant can give it its look."""
        return text  # type: ignore[return-value]    # (T is str here; a styled variant overrides both)

    def join(self, parts: Sequence[T], separator: str = "") -> T:
        return separator.join(parts)  # type: ignore[arg-type, return-value]    # (as above)

    # ------------------------------------------------------------ the pieces

    def die(self, die: Die) -> T:
        return self.text(str(die.face), die.status)

    def dice(self, group: DiceGroup) -> T:
        if not group.dice:
            return self.text(self.no_dice)
        return self.join([self.die(d) for d in group.dice], self.die_separator)

    def label(self, group: DiceGroup) -> T:
        return self.text(group.label + " ", "label") if group.label else self.text("")

    def total(self, group: DiceGroup) -> T:
        """" = 4", left out when the group has no total or it only repeats its single die."""
        single = len(group.dice) == 1 and group.dice[0].face == group.total
        if group.total is None or single:
            return self.text("")
        return self.text(f" = {group.total}", "total")

    def group(self, group: DiceGroup) -> T:
        return self.join([self.label(group), self.dice(group), self.total(group)])

    def shows(self, group: DiceGroup) -> bool:
        """Whether a group appears at all (some outputs leave out a group without dice)."""
        return True

    def groups(self, groups: Sequence[DiceGroup]) -> T:
        return self.join([self.group(g) for g in groups if self.shows(g)], self.group_separator)

    def headline(self, desc: Description) -> T:
        """The outcome words; their role says how it went for the actor ("good", "bad", "headline")."""
        role = "good" if desc.good else "bad" if desc.good is False else "headline"
        return self.text(desc.headline, role)

    def detail(self, desc: Description) -> T:
        return self.text(desc.detail, "detail")

    def render(self, desc: Description) -> T:
        """The whole result: the headline and its detail, then the dice."""
        top = [self.headline(desc)] + ([self.text("  "), self.detail(desc)] if desc.detail else [])
        return self.join([self.join(top), self.groups(desc.groups)], "\n")


# ---------------------------------------------------------------- describing a result


def describe(system: System | None, result: Mapping[str, Any]) -> Description | None:
    """The system's own description of `result`, or None when it has none or the record cannot be
    described (an older or hand-edited log). A key missing from `result` reads as None: the roll
    log writes no null field (TOML has none), so a result a kind gave with `kept_die = None`
    comes back from the log without that key, and must be worded as the fresh one was."""
    if system is None or system.describe is None:
        return None
    try:
        return system.describe(_Nullable(result))
    except Exception as error:  # noqa: BLE001 - plain words shown, never a crash; but said (`describe_failures`)
        _failed.setdefault(system.id, f"{type(error).__name__}: {' '.join(str(error).split())}"[:200])
        return None


_failed: dict[str, str] = {}      # system id -> the first error its describe raised


def describe_failures(clear: bool = False) -> dict[str, str]:
    """The systems whose `describe` raised (id -> the first error, one line), so a front end
    says it instead of showing bare words in silence; `clear` forgets them once said."""
    found = dict(_failed)
    if clear:
        _failed.clear()
    return found


class _Nullable(dict):
    """A result whose dropped keys read as None again ("or null" fields are not written)."""

    def __missing__(self, key: str) -> None:
        return None


def margin(value: int) -> str:
    """A margin or a modifier as the tables write it: +2, −1 (typographic minus), +0."""
    return signed(value) if value else "+0"
