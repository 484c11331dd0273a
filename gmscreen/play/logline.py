"""One roll of the log as the screen shows it: a `RollRecord` turned into plain fields.

Kept apart from the widget so the log's words (time, who, test, dice, outcome) are
computed once per record, cached, and testable without a terminal. Every text field
is already cleaned of control characters; the widget still shows them only as
literal segments, never as markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from gmscreen.campaign.model import Campaign, RollRecord
from gmscreen.i18n import _
from gmscreen.campaign.rolllog import masked
from gmscreen.rules import System
from gmscreen.rules._base import DiceGroup
from gmscreen.campaign.textsafe import clean

from .quickroll.text import fold
from .render import CompactRenderer, describe_result

# Tones, from the actor's point of view: the widget maps each to a style.
GOOD, BAD, CRIT, FUMBLE, PLAIN = "good", "bad", "crit", "fumble", "plain"

_VS = re.compile(r"\s(?:vs|contre|versus)\s+(\S+)", re.IGNORECASE)
_TIME = re.compile(r"T(\d\d):(\d\d)")


@dataclass(frozen=True)
class LogLine:
    """What one log row says; `masked` rolls hide all but the time from players."""

    seq: int
    session: int
    time: str            # "21:04"
    who: str
    test: str            # the line the GM typed
    dice: str            # "2 11 10 4 6", "8→7", "8+8+1 | 1!"
    outcome: str         # "réussite", "Loriane l'emporte"
    detail: str          # "2 succès pour SD 3 · marge −1"
    tone: str            # GOOD, BAD, CRIT, FUMBLE, PLAIN
    gm_only: bool        # GM-only or secret difficulty
    revealed: bool
    masked: bool         # not to be shown to players yet


def hhmm(iso_time: str) -> str:
    """"2025-03-01T21:04:11+01:00" -> "21:04"; anything else -> "--:--"."""
    m = _TIME.search(iso_time or "")
    return f"{m.group(1)}:{m.group(2)}" if m else "--:--"


def compact_dice(groups: Sequence[DiceGroup], *, ascii: bool = False) -> str:
    """Every die in a few characters ("8+8+1 | 1!", "8→7"): the log's variant of the renderer."""
    return _COMPACT[bool(ascii)].groups(groups)


_COMPACT = {False: CompactRenderer(), True: CompactRenderer(ascii=True)}


def _tone(result: Mapping[str, Any], good: bool | None) -> str:
    outcome = str(result.get("outcome", ""))
    if "critical_success" in outcome:
        return CRIT
    if outcome in ("critical_failure", "automatic_failure"):
        return FUMBLE
    if good is True:
        return GOOD
    if good is False:
        return BAD
    return PLAIN


def name_sides(headline: str, result: Mapping[str, Any], who: str, line: str,
               campaign: Campaign | None = None) -> str:
    """The rules say "l'acteur l'emporte" ("the actor wins"); the table says "Alexis l'emporte"
    ("Alexis wins"). The opponent is the character the line names after `vs` / `contre`, in
    full ("Le garde de la porte", not "garde"); without the campaign, or when no character
    matches, the word typed. The side's words are those of the language spoken."""
    winner = result.get("winner")
    actor, opponent = _("the actor"), _("the opponent")
    if winner == "actor" and who and actor in headline:
        return headline.replace(actor, who, 1)
    if winner == "opponent" and opponent in headline:
        name = _opponent(line, campaign)
        if name:
            return headline.replace(opponent, name, 1)
    return headline



def _opponent(line: str, campaign: Campaign | None) -> str | None:
    if campaign is not None:
        from .quickroll.grammar import opponent_name

        try:
            name = opponent_name(line, campaign)
        except Exception:  # noqa: BLE001 - a damaged line or campaign falls back to the word typed
            name = None
        if name:
            return clean(name)
    m = _VS.search(" " + line)
    return m.group(1) if m else None


def log_line(record: RollRecord, system: System | None, *, ascii: bool = False,
             campaign: Campaign | None = None) -> LogLine:
    """Turn one record into the words of its log row (`campaign` names the opponent in full)."""
    who = clean(record.who)
    test = clean(record.line)
    d = describe_result(system, record.result)
    return LogLine(
        seq=record.seq,
        session=record.session,
        time=hhmm(record.time),
        who=who,
        test=test,
        dice=clean(compact_dice(d.groups, ascii=ascii)),
        outcome=clean(name_sides(d.headline, record.result, who, test, campaign)),
        detail=clean(d.detail),
        tone=_tone(record.result, d.good),
        gm_only=record.gm_only or bool(record.result.get("hidden")),
        revealed=record.revealed,
        masked=masked(record),
    )


# ---------------------------------------------------------------- search

def search_text(record: RollRecord, system: System | None, campaign: Campaign | None = None, *,
                ascii: bool = False) -> str:
    """What a search matches: every word its row shows (time, who, the typed line, the dice, the
    outcome with the names, the detail), and the outcome word in English too (a search finds
    "réussite" and "success" alike). Costs one `describe` per record, once per search session."""
    key = record.result.get("outcome", record.result.get("winner", ""))
    words = system.outcome_words.get(key, "") if system is not None and isinstance(key, str) else ""
    line = log_line(record, system, ascii=ascii, campaign=campaign)
    shown = " ".join((line.time, line.who, line.test, line.dice, line.outcome, line.detail))
    return fold(f"{shown} {_(words)} {words}" if words else shown)
