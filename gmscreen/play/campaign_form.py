"""The campaign's own settings as a form: name, notes, initiative dice, the game's rule options.

The values typed are checked as the file is when it loads (the campaign with them is written
out and read back by the same checker): a value the file would refuse is refused here, with
the checker's own words, and nothing changes. Accepted, they are one undoable change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gmscreen.campaign import _toml
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.session import EditBuilder
from gmscreen.campaign.store import dump_campaign
from gmscreen.campaign.validate import parse_campaign
from gmscreen.i18n import _
from gmscreen.rules import get_system

from .forms import Field

RULE_PREFIX = "rule-"      # a rule option's field: "rule-<option>"
_missing = object()


def shown(value: Any) -> str:
    """A rule option's value as typed in the form: strings bare, the rest as in the file."""
    return value if isinstance(value, str) else _toml.value(value)


def fields(campaign: Campaign) -> list[Field]:
    """The form's fields, filled with the campaign's values."""
    system = get_system(campaign.system)
    out = [
        Field("name", _("Name"), campaign.name),
        Field("initiative", _("Initiative dice (a dice expression such as 1d10+2; empty: typed by the GM)"),
              campaign.initiative, placeholder=system.initiative),
        Field("notes", _("Notes (GM only)"), campaign.notes, multiline=True),
    ]
    for option, values in system.rule_options.items():
        out.append(Field(RULE_PREFIX + option,
                         _("Rule option {option} (one of {choices})").format(
                             option=option, choices=", ".join(shown(v) for v in values)),
                         shown(campaign.rules.get(option, values[0]))))
    return out


def _rule_value(text: str, allowed: tuple) -> Any:
    """What the GM typed, as the option's own value when it spells one (`true` -> True), else
    the text itself (for the checker to refuse in its words)."""
    for value in allowed:
        if shown(value) == text:
            return value
    return text


def changes(campaign: Campaign, values: Mapping[str, str], file: str) -> dict[tuple, Any]:
    """{path: new value} for the settings the GM changed. CampaignError (nothing changed) when
    the file would refuse them: its first problem says what, where and what was expected."""
    system = get_system(campaign.system)
    rules = dict(campaign.rules)
    for option, allowed in system.rule_options.items():
        key = RULE_PREFIX + option
        if key in values:
            rules[option] = _rule_value(values[key].strip(), allowed)
    new: dict[tuple[str, ...], str] = {("name",): values.get("name", campaign.name).strip(),
           ("initiative",): values.get("initiative", campaign.initiative).strip(),
           ("notes",): values.get("notes", campaign.notes)}
    candidate = dataclasses.replace(campaign, name=new[("name",)], initiative=new[("initiative",)],
                                    notes=new[("notes",)], rules=rules)
    try:
        parse_campaign(dump_campaign(candidate), file)
    except CampaignError as exc:
        errors = [p for p in exc.problems if not p.warning] or exc.problems
        first = errors[0]
        raise CampaignError([dataclasses.replace(first, line=None)]) from None
    out: dict[tuple, Any] = {path: value for path, value in new.items() if getattr(campaign, path[0]) != value}
    for option, value in rules.items():
        if campaign.rules.get(option, _missing) != value:
            out[("rules", option)] = value
    return out


def apply(builder: EditBuilder, settings: Mapping[tuple, Any]) -> None:
    """The changed settings, set in one change."""
    for path, value in settings.items():
        builder.set(path, value)


def field_of(error: CampaignError) -> str | None:
    """The form's field the refusal is about (its key path `rules.x` is the field `rule-x`)."""
    path = error.problems[0].path if error.problems else ""
    if path.startswith("rules."):
        return RULE_PREFIX + path[len("rules."):]
    return path.split(".")[0] or None


def message(error: CampaignError) -> str:
    """The one line a refused form shows: which setting, what was expected."""
    problem = error.problems[0] if error.problems else None
    if problem is None:
        return str(error)
    return f"{problem.path}: {problem.message}" if problem.path else problem.message
