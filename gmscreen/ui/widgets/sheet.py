"""Character sheets for the screen: the one-line summary of the roster and the full sheet.

What a GM needs at a glance differs per game (MIR: Voies, Trauma/Mensonge and wounds;
Magisphère: Impulsion; Te Deum: Providence and XP; Éclats: the ten characteristics;
Arpèges: the eight attributes), so the summary is built per system from the system's
`SHEET`. Every name and note comes from a file or the GM's typing: all of it goes
through `sanitize` and is never read as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from gmscreen.campaign.model import Character
from gmscreen.rules import Stat, StatGroup, System

from ..sanitize import clean

# Te Deum Providence levels (tedeum.md: Brebis égarée, Pauvre pécheur, Fils prodigue; higher unnamed).
PROVIDENCE_NAMES = {0: "Brebis égarée", 4: "Pauvre pécheur", 6: "Fils prodigue"}

_SHORT = {
    # MIR Voies
    "heritage": "Hé", "secret": "Se", "espoir": "Es", "peur": "Pe", "dogme": "Do", "mensonge": "Me",
}
# Arpèges attributes: two letters, three for Intuition / Intelligence (they need distinct ones)
_ARPEGES_SHORT = {"corps": "Co", "agilite": "Ag", "intuition": "Itu", "intelligence": "Itl",
                  "puissance": "Pu", "resistance": "Ré", "manoeuvre": "Ma", "precision": "Pr"}
_TEDEUM_SHORT = {"puissance": "Pu", "complexion": "Co", "adresse": "Ad", "sensibilite": "Se",
                 "savoir": "Sa", "entregent": "En"}
# MIR: the Trauma (weakest Voie) and Mensonge (strongest) marks after a Voie's value.
MIR_MARKS = {False: ("↓", "↑"), True: ("-", "+")}        # ascii -> (trauma, mensonge)


@dataclass(frozen=True)
class Resource:
    """The value the roster's +/- keys adjust for a system."""

    group: str
    key: str
    label: str
    stat: Stat
    max_key: str | None = None     # a cap stored on the sheet (Magisphère impulsion_max)

    def steps(self) -> tuple[int, ...]:
        return self.stat.choices or tuple(range(self.stat.lo, self.stat.hi + 1))


_RESOURCES = {
    "mir": ("state", "blessures", None),
    "magisphere": ("resources", "impulsion", "impulsion_max"),
    "tedeum": ("resources", "providence", None),
}


def resource_of(system: System) -> Resource | None:
    """The system's adjustable resource, or None (Éclats and Arpèges keep none on the sheet)."""
    spec = _RESOURCES.get(system.id)
    if spec is None:
        return None
    group_key, key, max_key = spec
    group = system.group(group_key)
    if group is None:
        return None
    for stat in group.stats:
        if stat.key == key:
            return Resource(group_key, key, stat.label, stat, max_key)
    return None


def stat_value(sheet: Mapping[str, Any], group: StatGroup, stat: Stat) -> int:
    values = sheet.get(group.key)
    if isinstance(values, Mapping):
        value = values.get(stat.key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return stat.default


def mir_markers(sheet: Mapping[str, Any], system: System) -> tuple[list[str], list[str]]:
    """Trauma (weakest Voie) and Mensonge (strongest Voie) keys; ties list every Voie concerned."""
    group = system.group("voies")
    if group is None:
        return [], []
    values = {s.key: stat_value(sheet, group, s) for s in group.stats}
    low, high = min(values.values()), max(values.values())
    return [k for k, v in values.items() if v == low], [k for k, v in values.items() if v == high]


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _append_stat(text: Text, label: str, value: str, *, dim: bool = False, bold: bool = False) -> None:
    if text.plain:
        text.append(" ")
    style = "dim" if dim else ("bold" if bold else "")
    text.append(label, style="dim")
    text.append(value, style=style)


def glance(system: System, character: Character, *, ascii: bool = False) -> Text:
    """The stats that matter in this game, on one short line (rich Text for a table cell).

    Labels are two or three letters; `glance_legend` spells them out (the full sheet shows it).
    """
    sheet = character.sheet if isinstance(character.sheet, Mapping) else {}
    text = Text(no_wrap=True, overflow="ellipsis")
    sid = system.id
    if sid == "mir":
        voies = system.group("voies")
        wounds = _free_int(sheet, "state", "blessures")
        if wounds:
            text.append("Bl", style="dim")
            text.append(str(wounds), style="bold")
        if voies is not None:
            # Trauma and Mensonge marked on the Voies themselves: the line keeps its width
            # however many Voies tie.
            trauma, lie = mir_markers(sheet, system)
            low, high = MIR_MARKS[ascii]
            for stat in voies.stats:
                _append_stat(text, _SHORT.get(stat.key, stat.label[:2]), str(stat_value(sheet, voies, stat)))
                if stat.key in trauma:
                    text.append(low, style="bold")
                if stat.key in lie:
                    text.append(high, style="bold")
    elif sid == "eclats":
        group = system.group("characteristics")
        if group is not None:
            for stat in group.stats:
                value = stat_value(sheet, group, stat)
                _append_stat(text, stat.key.capitalize()[:2], str(value), dim=value == 0, bold=value >= 3)
    elif sid == "magisphere":
        if isinstance(sheet.get("resources"), Mapping):
            cur = _free_int(sheet, "resources", "impulsion")
            cap = _free_int(sheet, "resources", "impulsion_max")
            text.append("Imp ", style="dim")
            text.append(f"{cur}/{cap}" if cap else str(cur), style="dim" if cur == 0 else "bold")  # no max: uncapped
        stats = sheet.get("stats")
        if isinstance(stats, Mapping):
            for name, value in stats.items():
                _append_stat(text, clean(name)[:3], clean(value))
    elif sid == "tedeum":
        prov = _free_int(sheet, "resources", "providence")
        text.append("Prov ", style="dim")
        text.append(f"D{prov}" if prov else "—", style="bold" if prov else "dim")
        xp = sheet.get("xp")
        total = sum(v for v in xp.values() if isinstance(v, int)) if isinstance(xp, Mapping) else 0
        _append_stat(text, "XP ", str(total), bold=total > 0)
        group = system.group("characteristics")
        if group is not None:
            for stat in group.stats:
                _append_stat(text, _TEDEUM_SHORT.get(stat.key, stat.key[:2]), str(stat_value(sheet, group, stat)))
    elif sid == "arpeges":
        for gkey in ("caracteristiques", "moyens"):
            group = system.group(gkey)
            if group is None:
                continue
            if gkey == "moyens" and text.plain:
                text.append(" |", style="dim")
            for stat in group.stats:
                value = stat_value(sheet, group, stat)
                _append_stat(text, _ARPEGES_SHORT.get(stat.key, stat.label[:2]), _signed(value), dim=value == 0,
                             bold=abs(value) >= 3)
    return text


# The header of the roster's stats column: what the line holds (and MIR's marks).
_GLANCE_HEADER = {"mir": "Voies {low}Trauma {high}Mensonge", "eclats": "Caractéristiques",
                  "magisphere": "Impulsion · Stats", "tedeum": "Providence · XP",
                  "arpeges": "Caractéristiques | Moyens"}


def glance_header(system: System, *, ascii: bool = False) -> str:
    """The stats column's header: what the line holds, no wider than a usual line of the system."""
    low, high = MIR_MARKS[ascii]
    return _GLANCE_HEADER.get(system.id, "Stats").format(low=low, high=high)


def glance_legend(system: System, character: Character | None = None, *,
                  ascii: bool = False) -> list[tuple[str, str]]:
    """The abbreviations of `glance` spelled out, in the line's order: [("Hé", "Héritage"), ...].

    Magisphère's statistics are named on each sheet: the character's own are listed.
    """
    sid = system.id
    out: list[tuple[str, str]] = []

    def group_labels(key: str, short: Mapping[str, str], fallback: Any) -> None:
        group = system.group(key)
        for stat in group.stats if group is not None else ():
            out.append((short.get(stat.key, fallback(stat)), stat.label))

    if sid == "mir":
        out.append(("Bl", "Blessures"))
        group_labels("voies", _SHORT, lambda s: s.label[:2])
        low, high = MIR_MARKS[ascii]
        out += [(low, "Trauma (Voie la plus faible)"), (high, "Mensonge (Voie la plus forte)")]
    elif sid == "eclats":
        group_labels("characteristics", {}, lambda s: s.key.capitalize()[:2])
    elif sid == "magisphere":
        out.append(("Imp", "Impulsion (restante/maximum)"))
        sheet = character.sheet if character is not None and isinstance(character.sheet, Mapping) else {}
        stats = sheet.get("stats")
        seen: set[str] = set()
        for name in stats if isinstance(stats, Mapping) else ():
            short = clean(name)[:3]
            if clean(name) != short and short not in seen:
                out.append((short, clean(name)))
                seen.add(short)
    elif sid == "tedeum":
        out += [("Prov", "Providence (dé)"), ("XP", "expérience (total des caractéristiques)")]
        group_labels("characteristics", _TEDEUM_SHORT, lambda s: s.key[:2])
    elif sid == "arpeges":
        group_labels("caracteristiques", _ARPEGES_SHORT, lambda s: s.label[:2])
        group_labels("moyens", _ARPEGES_SHORT, lambda s: s.label[:2])
    return out


def _free_int(sheet: Mapping[str, Any], group: str, key: str) -> int:
    values = sheet.get(group)
    if isinstance(values, Mapping):
        value = values.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 0


def conditions_text(character: Character, width: int | None = None) -> Text:
    """Conditions with their rounds left: 'Ébloui (1) · Fièvre grise'.

    With a width, long names are shortened so that every condition and its rounds stay visible.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    conds = character.conditions
    room = None
    if width is not None and conds:
        full = sum(len(clean(c.name)) + (len(f" ({c.rounds})") if c.rounds is not None else 0) for c in conds)
        full += 3 * (len(conds) - 1)
        if full > width:
            fixed = sum(len(f" ({c.rounds})") for c in conds if c.rounds is not None) + 3 * (len(conds) - 1)
            room = max(3, (width - fixed) // len(conds))
    for i, cond in enumerate(conds):
        if i:
            text.append(" · ", style="dim")
        name = clean(cond.name)
        if room is not None and len(name) > room:
            name = name[: room - 1] + "…"
        text.append(name, style="italic")
        if cond.rounds is not None:
            text.append(f" ({cond.rounds})", style="bold")
    return text


def condition_line(cond: Any) -> str:
    """One condition in words, for notices and the sheet (plain text, cleaned)."""
    out = clean(cond.name)
    if cond.effect:
        out += f" : {clean(cond.effect)}"
    if cond.rounds is not None:
        out += f" ({cond.rounds} round{'s' if cond.rounds != 1 else ''})"
    return out


def side_label(side: str) -> str:
    return "PJ" if side == "party" else "PNJ"


# One-character side marks for a narrow roster: (ascii) -> (PJ, PNJ)
SIDE_MARKS = {False: ("●", "○"), True: ("*", "-")}


def side_mark(side: str, *, ascii: bool = False) -> str:
    """`side_label` in one character (filled for the party)."""
    party, npc = SIDE_MARKS[ascii]
    return party if side == "party" else npc


# ---------------------------------------------------------------- the full sheet


def _value_text(system: System, group: StatGroup, stat: Stat, value: int) -> str:
    if system.id == "tedeum" and stat.choices:
        if group.key == "resources":
            name = PROVIDENCE_NAMES.get(value, "")
            return (f"D{value}" if value else "aucun dé") + (f" ({name})" if name else "")
        return f"D{value}"
    if system.id == "arpeges":
        return _signed(value)
    return str(value)


def sheet_content(system: System, character: Character, *, ascii: bool = False) -> Content:
    """The whole sheet as Content: every group of the system, derived markers, conditions, notes,
    and the roster's abbreviations spelled out."""
    sheet = character.sheet if isinstance(character.sheet, Mapping) else {}
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
                    prefix = f"{plabel} : "
                items = "  ".join(f"{s.label} {_value_text(system, group, s, stat_value(sheet, group, s))}"
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
                    items = "  ".join(f"{clean(n)} {_fmt(system, v)}" for n, v in sub.items())
                    lines.append(Content.assemble(("  " + clean(plabel) + " : ", "dim"), items))
            elif values:
                lines.append(Content("  " + "  ".join(f"{clean(n)} {_fmt(system, v)}" for n, v in values.items())))
        if not lines:
            continue
        parts.append(Content.assemble((group.label, "bold underline")))
        parts.extend(lines)
        if system.id == "mir" and group.key == "voies":
            trauma, lie = mir_markers(sheet, system)
            labels = {s.key: s.label for s in group.stats}
            parts.append(Content.assemble(("  Trauma (Voie la plus faible) : ", "dim"),
                                          ", ".join(labels[k] for k in trauma)))
            parts.append(Content.assemble(("  Mensonge (Voie la plus forte) : ", "dim"),
                                          ", ".join(labels[k] for k in lie)))
    if system.id == "magisphere":
        cap = _free_int(sheet, "resources", "impulsion_max")
        cur = _free_int(sheet, "resources", "impulsion")
        if cap and cur > cap:
            parts.append(Content.assemble(("  Impulsion au-dessus du maximum", "italic")))
    parts.append(Content.assemble(("États", "bold underline")))
    if character.conditions:
        parts.extend(Content.assemble(("  • ", "dim"), condition_line(c)) for c in character.conditions)
    else:
        parts.append(Content.assemble(("  aucun", "dim")))
    if character.notes:
        parts.append(Content.assemble(("Notes", "bold underline")))
        parts.extend(Content("  " + clean(line, single_line=True))
                     for line in clean(character.notes, single_line=False).splitlines())
    legend = glance_legend(system, character, ascii=ascii)
    if legend:
        parts.append(Content.assemble(("Abréviations du tableau", "bold underline")))
        items: list[Content | tuple[str, str] | str] = [("  ", "")]
        for i, (short, meaning) in enumerate(legend):
            if i:
                items.append((" · ", "dim"))
            items += [(short, "bold"), f" {meaning}"]
        parts.append(Content.assemble(*items))
    return Content("\n").join(parts)


def _fmt(system: System, value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and system.id == "arpeges":
        return _signed(value)
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
