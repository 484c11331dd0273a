"""Character sheets for the screen: the one-line summary of the roster and the full sheet.

What a GM needs at a glance differs per game, so each game's `SheetLook` (its
`games/<id>/sheet.py`) says what the line and the sheet hold, as plain text and tones; this
module styles them. Every name and note comes from a file or the GM's typing: all of it goes
through `sanitize` and is never read as markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from gmscreen.campaign.model import Character
from gmscreen.i18n import _
from gmscreen.play.tables import table_for
from gmscreen.play.sheet_look import FAINT, PLAIN, STRONG, Resource, SheetLook, stat_value
from gmscreen.rules import Stat, System

from gmscreen.ui.sanitize import clean
from gmscreen.ui.widgets.conditions import condition_line, conditions_text

__all__ = ["SIDE_MARKS", "Resource", "SheetView", "condition_line", "conditions_text", "glance", "glance_header",
           "glance_legend", "look", "resource_of", "sheet_content", "side_label", "side_mark", "stat_value"]

# The styles of the glance's tones (gmscreen.play.sheet_look).
_TONE_STYLE = {PLAIN: "", FAINT: "dim", STRONG: "bold"}


def look(system: System) -> SheetLook:
    """How `system`'s sheets read: its game's `SheetLook`."""
    return table_for(system.id).sheet


def resource_of(system: System) -> Resource | None:
    """The system's adjustable resource, or None (some games keep none on the sheet)."""
    return look(system).resource(system)


def _sheet_of(character: Character | None) -> Mapping[str, Any]:
    return character.sheet if character is not None and isinstance(character.sheet, Mapping) else {}


def glance(system: System, character: Character, *, ascii: bool = False) -> Text:
    """The stats that matter in this game, on one short line (rich Text for a table cell).

    Labels are two or three letters; `glance_legend` spells them out (the full sheet shows it).
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    tracks = track_pieces(character, ascii=ascii)
    stats = look(system).glance(system, _sheet_of(character), ascii=ascii)
    for piece, tone in tracks + ([(" ", PLAIN)] if tracks and stats else []) + stats:
        text.append(piece, style=_TONE_STYLE[tone])
    return text


def track_pieces(character: Character, *, ascii: bool = False) -> list[tuple[str, str]]:
    """The character's tracks first on the line ('Coups 3/5'), a mark when they are defeated
    (`gmscreen.play.tracks`): what the GM counts in a fight is read before the stats."""
    from gmscreen.play.tracks import is_defeated

    pieces: list[tuple[str, str]] = []
    for track in character.tracks:
        full = track.value >= track.max
        pieces += [(" " if pieces else "", PLAIN), (clean(track.name) + " ", FAINT),
                   (f"{track.value}/{track.max}", STRONG if full else PLAIN)]
    if character.tracks and is_defeated(character):
        pieces.append((" KO" if ascii else " ✗", STRONG))
    return pieces


def glance_header(system: System, *, ascii: bool = False) -> str:
    """The stats column's header: what the line holds, no wider than a usual line of the system."""
    return look(system).glance_header(ascii=ascii)


def glance_legend(system: System, character: Character | None = None, *,
                  ascii: bool = False) -> list[tuple[str, str]]:
    """The abbreviations of `glance` spelled out, in the line's order: [("Hé", "Héritage"), ...].

    A game whose statistics are named on each sheet lists the character's own.
    """
    return look(system).glance_legend(system, _sheet_of(character), ascii=ascii)


def side_label(side: str) -> str:
    return _("PC") if side == "party" else _("NPC")


# One-character side marks for a narrow roster: (ascii) -> (PJ, PNJ)
SIDE_MARKS = {False: ("●", "○"), True: ("*", "-")}


def side_mark(side: str, *, ascii: bool = False) -> str:
    """`side_label` in one character (filled for the party)."""
    party, npc = SIDE_MARKS[ascii]
    return party if side == "party" else npc


# ---------------------------------------------------------------- the full sheet


def sheet_content(system: System, character: Character, *, ascii: bool = False) -> Content:
    """The whole sheet as Content: every group of the system, derived markers, conditions, notes,
    and the roster's abbreviations spelled out."""
    sheet = _sheet_of(character)
    game = look(system)
    parts: list[Content] = [
        Content.assemble((clean(character.name), "bold"), (f"  ·  {side_label(character.side)}", "dim")),
    ]
    for group in system.sheet:
        values = sheet.get(group.key)
        lines: list[Content] = []
        if group.stats:
            by_parent: dict[str | None, list[Stat]] = {}
            for stat in group.stats:
                present = isinstance(values, Mapping) and stat.key in values
                if not group.required and not present:
                    continue
                by_parent.setdefault(stat.parent, []).append(stat)
            for parent, stats in by_parent.items():
                prefix = ""
                if parent is not None:
                    pgroup = next((g for g in system.sheet for s in g.stats if s.key == parent), None)
                    plabel = next((s.label for s in pgroup.stats if s.key == parent), parent) if pgroup else parent
                    prefix = _("{label}: ").format(label=plabel)
                items = "  ".join(f"{s.label} {game.gendered_value_text(group, s, stat_value(sheet, group, s), character.gender)}"
                                  for s in stats)
                lines.append(Content.assemble(("  " + prefix, "dim"), items))
        elif isinstance(values, Mapping):
            if group.parent_group:
                parent_group = system.group(group.parent_group)
                for pkey, sub in values.items():
                    if not isinstance(sub, Mapping):
                        continue
                    plabel = pkey
                    if parent_group is not None:
                        plabel = next((s.label for s in parent_group.stats if s.key == pkey), pkey)
                    items = "  ".join(f"{clean(n)} {_fmt(game, v)}" for n, v in sub.items())
                    lines.append(Content.assemble(("  " + _("{label}: ").format(label=clean(plabel)), "dim"), items))
            elif values:
                lines.append(Content("  " + "  ".join(f"{clean(n)} {_fmt(game, v)}" for n, v in values.items())))
        if not lines:
            continue
        parts.append(Content.assemble((group.label, "bold underline")))
        parts.extend(lines)
        parts.extend(Content.assemble(("  " + _("{label}: ").format(label=label), "dim"), text)
                     for label, text in game.group_notes(system, group, sheet))
    parts.extend(Content.assemble((f"  {note}", "italic")) for note in game.sheet_notes(system, sheet))
    parts.append(Content.assemble((_("Conditions"), "bold underline")))
    if character.conditions:
        parts.extend(Content.assemble(("  • ", "dim"), condition_line(c)) for c in character.conditions)
    else:
        parts.append(Content.assemble(("  " + _("none"), "dim")))
    if character.tracks:                # damage tracks (`play.tracks`): hits taken of the maximum
        from gmscreen.play.tracks import is_defeated

        parts.append(Content.assemble((_("Tracks"), "bold underline")))
        parts.extend(Content.assemble(("  • ", "dim"), f"{clean(t.name)} {t.value}/{t.max}",
                                      (f"  {_('defeated')}", "bold") if t.value >= t.max else "")
                     for t in character.tracks)
        if is_defeated(character):
            parts.append(Content.assemble(("  " + _("Defeated: the turn order skips them until a hit is healed (-)."),
                                           "italic")))
    if character.notes:
        parts.append(Content.assemble((_("Notes"), "bold underline")))
        parts.extend(Content("  " + clean(line, single_line=True))
                     for line in clean(character.notes, single_line=False).splitlines())
    legend = glance_legend(system, character, ascii=ascii)
    if legend:
        parts.append(Content.assemble((_("Abbreviations of the table"), "bold underline")))
        row: list[Content | tuple[str, str] | str] = [("  ", "")]
        for i, (short, meaning) in enumerate(legend):
            if i:
                row.append((" · ", "dim"))
            row += [(short, "bold"), f" {meaning}"]
        parts.append(Content.assemble(*row))
    return Content("\n").join(parts)


def _fmt(game: SheetLook, value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return game.number_text(value)
    return clean(value)


class SheetView(Static):
    """The full sheet of one character (Content only: names are shown literally)."""

    DEFAULT_CSS = """
    SheetView { height: auto; padding: 0 1; }
    """

    def __init__(self, system: System, character: Character, *, ascii: bool = False, **kwargs: Any) -> None:
        super().__init__(sheet_content(system, character, ascii=ascii), markup=False, **kwargs)
        self.system = system
        self.ascii = ascii

    def show(self, character: Character) -> None:
        self.update(sheet_content(self.system, character, ascii=self.ascii))
