"""Joining the fight: ids for new entries and characters, the campaign's initiative roll, and
the insertion of an entry at its place. The roster (`i`) and the initiative pane (`a`) both
do it; neither needs the other's widget for it."""

from __future__ import annotations

import random
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from gmscreen import rules
from gmscreen.campaign.model import Entry
from gmscreen.rules.expr import parse_expression

from gmscreen.campaign.textsafe import clean

if TYPE_CHECKING:
    from gmscreen.campaign.session import CampaignSession, EditBuilder

MAX_ID = 64
_SLUG_JUNK = re.compile(r"[^a-z0-9_-]+")


def slugify(text: str, fallback: str = "x") -> str:
    """An id for the file: ASCII, lower case, dashes ('Frère Anselme' -> 'frere-anselme')."""
    folded = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode().lower()
    slug = _SLUG_JUNK.sub("-", folded).strip("-_")[: MAX_ID - 4]
    return slug or fallback


def unique_slug(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def roll_initiative(app: Any, session: CampaignSession, who: str) -> int | None:
    """Roll the campaign's initiative expression and log it; None (GM told) when it cannot."""
    text = session.campaign.initiative.strip()
    try:
        expr = parse_expression(text)
    except rules.RequestError as exc:
        app.warn(f"initiative de la campagne {text!r} : {exc.reason}")
        return None
    seed = random.SystemRandom().getrandbits(63)
    total, faces = expr.roll(random.Random(seed))
    app.record_roll(who=who, line=f"initiative {expr}", request={"expression": str(expr)},
                    result={"expression": str(expr), "total": total, "dice": faces}, seed=seed)
    return total


def insertion_index(entries: list[Entry], initiative: int) -> int:
    """Where an entry goes in a descending order: after every entry with as much or more."""
    for i, entry in enumerate(entries):
        if entry.initiative < initiative:
            return i
    return len(entries)


def add_to_encounter(app: Any, session: CampaignSession, *, name: str, character: str | None,
                     initiative: int) -> bool:
    """Insert an entry at its place by initiative; the current actor stays current."""
    campaign = session.campaign
    enc = campaign.encounter
    entry = Entry(id=unique_slug(slugify(character or name, "pnj"), {e.id for e in enc.entries}),
                  name=name, character=character, initiative=initiative)

    def build(b: EditBuilder) -> None:
        index = insertion_index(enc.entries, initiative)
        had = bool(enc.entries)
        b.insert(("encounter", "entries"), index, entry)
        if enc.round > 0 and had and index <= enc.turn:
            b.set(("encounter", "turn"), enc.turn + 1)

    return bool(app.change(f"Initiative {initiative} : {clean(name)}", build))
