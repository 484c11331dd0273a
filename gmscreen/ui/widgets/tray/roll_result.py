"""A roll result as the dice tray draws it: the headline, every die in the style of its status,
groups side by side wrapping at the tray's width, and the mask shown while players watch.

Pure rendering: the tray's styled variant of the one result renderer (`gmscreen.rules.render`)
gives Textual `Content` from what the rules described; every untrusted string (names,
headlines, details, labels) goes through `literal`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from textual.content import Content

from gmscreen.i18n import _
from gmscreen.i18n.typography import Name
from gmscreen.play.public import ACTOR, Sight, Visibility, hidden_words, roll_visibility
from gmscreen.rules._base import Description
from gmscreen.rules.records import record
from gmscreen.rules.render import DescriptionRenderer

from gmscreen.ui.sanitize import literal

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Draft
    from gmscreen.campaign.model import RollRecord
    from gmscreen.rules._base import DiceGroup

# How each die status looks (theme variables, so every theme, ANSI included, decides).
DIE_STYLES = {
    "counted": "bold $success",
    "critical": "bold reverse $success",
    "fumble": "bold $error",
    "exploded": "underline $warning",
    "rerolled": "strike $text-muted",
    "kept": "bold",
    "plain": "$text-muted",
}


class TrayRenderer(DescriptionRenderer[Content]):
    """The tray's variant: the plain layout of the renderer, each piece a `Content` in the style
    of its role (a die in the style of its status, the outcome in its colour)."""

    STYLES = {
        **DIE_STYLES,
        "label": "$text-muted",
        "total": "bold",
        "detail": "$text-muted",
        "who": "bold",
        "gm": "bold $warning",
        "good": "bold $success",
        "bad": "bold $error",
        "headline": "bold",
        "luck": "italic $accent",
    }

    def text(self, text: str, role: str = "") -> Content:
        return literal(text, self.STYLES.get(role, ""))

    def join(self, parts: Sequence[Content], separator: str = "") -> Content:
        return Content(separator).join(parts)


TRAY = TrayRenderer()


@record(frozen=True)
class ShownRoll:
    """The roll the tray shows, kept so that it can be drawn again: masked or not as the players
    come and go, revealed from the log, or at a new width."""

    who: str
    headline: str
    detail: str
    good: bool | None
    groups: tuple[DiceGroup, ...]
    gm_only: bool
    secret: bool                        # GM-only or secret difficulty: masked while players watch
    record: RollRecord | None = None    # None when not logged (read-only campaign)
    pending: bool = False               # a choice is still to be made
    plain: str | None = None            # a result the rules cannot describe, shown as it is
    luck: str = ""                      # the roll's luck in words when notable ("un jet à 4 %")
    hidden_sides: frozenset[str] = frozenset()     # sides a hidden character plays (`gmscreen.play.public`)
    public: Description | None = None   # the description as players may see it (a hidden side by its role)

    @property
    def masked(self) -> bool:
        return self.secret and not (self.record is not None and self.record.revealed)

    @property
    def visibility(self) -> Visibility:
        """What the players may see of it: a GM-only roll nothing, a hidden difficulty all but it."""
        return roll_visibility(gm_only=self.gm_only, hidden=self.secret, revealed=not self.masked)


def shown_content(shown: ShownRoll, *, watching: bool, ascii: bool, width: int) -> Content:
    """The whole result: masked while players watch a GM-only roll, without its difficulty (the
    detail) while they watch a roll whose difficulty is hidden, else headline and dice rows."""
    visible = shown.visibility if watching else Visibility.PUBLIC
    if visible is Visibility.SECRET:
        return masked_content(ascii)
    if watching and shown.hidden_sides:
        # A side the players may not know: named by its role, no detail nor luck, no line.
        who = "?" if ACTOR in shown.hidden_sides else shown.who
        desc = shown.public or Description(headline="?", detail="", good=None)
        shown = replace(shown, who=who, headline=desc.headline, detail="", luck="", groups=desc.groups)
        head = Content.assemble(headline_content(shown), "  ", Content.styled(
            hidden_words(Sight(visible, shown.hidden_sides)), "italic $text-muted"))
        return Content("\n").join([head, *dice_lines(shown.groups, width)])
    if shown.plain is not None:
        return literal(shown.plain) if visible is Visibility.PUBLIC else hidden_difficulty_content()
    if visible is Visibility.DIFFICULTY_HIDDEN:
        shown = replace(shown, detail="", luck="")      # how lucky says how hard it was
        head = Content.assemble(headline_content(shown), "  ", hidden_difficulty_content())
        return Content("\n").join([head, *dice_lines(shown.groups, width)])
    return Content("\n").join([headline_content(shown), *dice_lines(shown.groups, width)])


def hidden_difficulty_content() -> Content:
    """Said where the difficulty would be while players watch a roll whose difficulty is hidden."""
    return Content.styled("(" + _("secret difficulty") + ")", "italic $text-muted")


def masked_content(ascii: bool) -> Content:
    """What the players see of a GM-only or secret roll."""
    mark = "*" if ascii else "◆"
    return Content.assemble((f"{mark} " + _("GM's secret roll"), "bold $warning"),
                            ("  " + _("(players present: dice and result hidden)"), "$text-muted"))


def headline_content(shown: ShownRoll) -> Content:
    """"MJ Ana : réussite  détail": who rolled, the outcome in its colour, the detail."""
    if shown.pending:
        desc = Description(headline=_("pending"), detail=shown.detail, good=None)
    else:
        desc = Description(headline=shown.headline, detail=shown.detail, good=shown.good)
    parts = [TRAY.text(_("GM") + " ", "gm")] if shown.gm_only else []
    if not (shown.who and desc.headline.startswith(shown.who)):    # "Callia l'emporte" says who already
        parts += [TRAY.text(shown.who, "who"), TRAY.text(_(": "))]
    parts.append(TRAY.headline(desc))
    if shown.luck and not shown.pending:
        parts += [TRAY.text("  "), TRAY.text(shown.luck, "luck")]
    if shown.detail:
        parts += [TRAY.text("  "), TRAY.detail(desc)]
    return TRAY.join(parts)


def dice_lines(groups: tuple[DiceGroup, ...], width: int) -> list[Content]:
    """Every die on screen: groups (a side, a die of the roll) side by side while they fit in
    `width`, a new line before a group that does not (a contest is cut between its sides, not
    at the right edge)."""
    lines: list[Content] = []
    for group in groups:
        content = group_content(group)
        if lines and lines[-1].cell_length + 2 + content.cell_length <= width:
            lines[-1] = Content.assemble(lines[-1], "  ", content)
        else:
            lines.append(content)
    return lines


def group_content(group: DiceGroup) -> Content:
    """"acteur 3 8 7 12 = 4": the label, each die in the style of its status, the total (left out
    when it only repeats a single die)."""
    return TRAY.group(group)


def winner_words(winner: str | None, who: str, opponent: str | None, fallback: str) -> str:
    """The headline of a contest: who won, by name, from the roller's side ("Rurik loses to
    Cultist", not "Rurik: Cultist wins")."""
    if winner == "actor" and who:
        return _("{name} wins").format(name=who)
    if winner == "opponent" and who and opponent:
        return _("{name} loses to {opponent}").format(name=who, opponent=Name(opponent))
    return fallback
