"""The file `gmscreen new` writes: a commented campaign a GM can fill by hand.

Written as arrays of tables (`[[characters]]`, never `characters = []`), so a `[[characters]]`
appended at the end of the file loads. Everything that belongs to one game comes from that
game's own parts: the sheet of the first player character of its sample, its resource
(`SheetLook.resource_key`), its first condition preset, its rule options and initiative die.
The comments are in the current language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gmscreen.campaign import _toml
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.samples import sample_path
from gmscreen.campaign.store import load_campaign
from gmscreen.i18n import _
from gmscreen.rules import Stat, StatGroup, System, get_system

if TYPE_CHECKING:
    from .game import GameTable

RULE = "# " + "-" * 64


def _expected(stat: Stat) -> str:
    if stat.choices:
        return _("one of {choices}").format(choices=", ".join(str(c) for c in stat.choices))
    return _("from {lo} to {hi}").format(lo=stat.lo, hi=stat.hi)


def _example(system_id: str) -> Character | None:
    """The first player character of the game's sample (its sheet is known to be valid)."""
    try:
        sample = load_campaign(sample_path(system_id))
    except (ValueError, OSError, CampaignError):   # no readable sample: the sheet is built from defaults
        return None
    party = [c for c in sample.characters if c.side == "party"]
    first = party or sample.characters
    return first[0] if first else None


def _default_sheet(system: System) -> dict[str, Any]:
    """What a sheet must hold, at the defaults, for a game whose sample is missing: every fixed
    stat of a required group, and one entry named by the GM in a required free one."""
    sheet: dict[str, Any] = {}
    for group in system.sheet:
        if not group.required:
            continue
        if group.stats:
            sheet[group.key] = {s.key: s.default for s in group.stats}
        elif group.free is not None and group.parent_group is None:
            sheet[group.key] = {_("Example"): group.free.default}
    return sheet


def example_sheet(game: GameTable) -> dict[str, Any]:
    """The example character's sheet: the sample's, with the game's resource added when missing."""
    system_id = game.system_id
    system = get_system(system_id)
    example = _example(system_id)
    sheet = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in (example.sheet if example else {}).items()}
    for key, value in _default_sheet(system).items():
        sheet.setdefault(key, value)
    resource = game.sheet.resource(system)
    if resource is not None:
        group = sheet.setdefault(resource.group, {})
        group.setdefault(resource.key, resource.stat.default)
        if resource.max_key is not None:
            group.setdefault(resource.max_key, max(group[resource.key], 1))
    return sheet


def _stat_lines(group: StatGroup | None, values: Mapping[str, Any], resource: tuple[str, ...]) -> list[str]:
    stats = {s.key: s for s in group.stats} if group is not None else {}
    lines = []
    for key, value in values.items():
        stat = stats.get(key)
        note = f"{stat.label}, {_expected(stat)}" if stat is not None else ""
        if key in resource:
            note += (" · " if note else "") + _("the resource the roster's +/- keys adjust")
        lines.append(f"{_toml.key(key)} = {_toml.value(value)}" + (f"   # {note}" if note else ""))
    return lines


def _sheet_lines(system: System, sheet: Mapping[str, Any], resource: tuple[str, ...]) -> list[str]:
    lines: list[str] = []
    for gkey, values in sheet.items():
        group = system.group(gkey)
        label = group.label if group is not None else gkey
        if group is not None and group.free is not None:
            label += " · " + _("free names, each {expected}").format(expected=_expected(group.free))
            if group.parent_group:
                parent = system.group(group.parent_group)
                label += " · " + _("grouped under a key of {group}").format(
                    group=parent.label if parent else group.parent_group)
        if group is not None and not group.required:
            label += " · " + _("optional")
        lines += ["", f"# {label}"]
        nested = {k: v for k, v in values.items() if isinstance(v, Mapping)}
        flat = {k: v for k, v in values.items() if not isinstance(v, Mapping)}
        if flat or not nested:
            lines.append(f"[characters.sheet.{_toml.key(gkey)}]")
            lines += _stat_lines(group, flat, resource)
        for sub, subvalues in nested.items():
            lines.append(f"[characters.sheet.{_toml.key(gkey)}.{_toml.key(sub)}]")
            lines += _stat_lines(group, subvalues, resource)
    return lines


def _condition_lines(game: GameTable) -> list[str]:
    presets = game.effects.presets
    lines = ["", "# " + _("A condition: name, effect in the game's words, rounds left (leave out: until removed)."),
             "# " + _("Examples of effects: {examples}").format(examples=game.effects.examples(3))
             if presets else "# " + _("Effect: free text."),
             "[[characters.conditions]]"]
    if presets:
        first = presets[0]
        lines += [f"name = {_toml.value(first.name)}", f"effect = {_toml.value(first.effect)}"]
        lines.append(f"rounds = {first.rounds if first.rounds is not None else 1}")
    else:
        lines += [f"name = {_toml.value(_('Dazzled'))}", 'effect = ""', "rounds = 1"]
    return lines


def campaign_template(campaign: Campaign, game: GameTable) -> str:
    """The text of a new campaign file for `campaign` (name, system, initiative, rules), with
    what `game` (the campaign's, as the command found it) says of its sheets and conditions."""
    system = get_system(campaign.system)
    res = game.sheet.resource(system)
    resource = tuple(k for k in ((res.key, res.max_key) if res else ()) if k)
    example = _example(campaign.system)
    lines = [
        "# " + _("{game} campaign for gmscreen: edit it by hand or from the screen (gmscreen {file}).").format(
            game=system.game, file="FILE.toml"),
        "# " + _("Check it with `gmscreen validate FILE.toml`. Lines starting with # are comments."),
        "",
        f"format = {campaign.format}",
        f"name = {_toml.value(campaign.name)}",
        f"system = {_toml.value(campaign.system)}   # " + _("the game: {game}").format(game=system.game),
        f"session = {campaign.session}   # " + _("the session being played: rolls are logged under it"),
        "# " + _("Dice rolled for initiative (a dice expression such as 1d10+2); \"\" = typed by the GM."),
        f"initiative = {_toml.value(campaign.initiative)}",
        "# " + _("Notes for the GM only: the screen shows them, the players never."),
        f"notes = {_toml.value(campaign.notes)}",
        "",
        "# " + _("Rule options of this game (the first value is the rules' default)."),
        "[rules]",
    ]
    for option, values in system.rule_options.items():
        current = campaign.rules.get(option, values[0])
        lines.append(f"{_toml.key(option)} = {_toml.value(current)}   # "
                     + _("one of {choices}").format(choices=", ".join(_toml.value(v) for v in values)))
    lines += [
        "",
        RULE,
        "# " + _("The characters. One [[characters]] block each: copy this one to the end of the file"),
        "# " + _("and change it, or press a on the screen. Delete the example when you no longer need it."),
        "",
        "[[characters]]",
        "id = " + _toml.value("example") + "   # " + _("unique, lowercase: how fights and timers name it"),
        "name = " + _toml.value(_("Example character")),
        "side = " + _toml.value("party") + "   # " + _("\"party\" (a player character) or \"npc\""),
    ]
    if example is not None and example.gender is not None:
        lines.append("gender = " + _toml.value(example.gender) + "   # " + _("\"f\" or \"m\": some labels depend on it"))
    lines.append("notes = " + _toml.value(_("Who plays them, what they want.")))
    lines += _sheet_lines(system, example_sheet(game), resource)
    lines += _condition_lines(game)
    lines += [
        "",
        RULE,
        "# " + _("The fight: round 0 = none running. The screen fills it (i in the roster);"),
        "# " + _("by hand, one [[encounter.entries]] block per fighter, after [encounter]:"),
        "#   [[encounter.entries]]",
        "#   id = \"e1\"",
        "#   name = " + _toml.value(_("Example character")),
        "#   character = \"example\"   # " + _("a character's id; leave out for an extra"),
        "#   initiative = 0",
        "",
        "[encounter]",
        "round = 0",
        "turn = 0",
        "",
    ]
    return "\n".join(lines)
