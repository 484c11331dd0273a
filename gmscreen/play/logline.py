"""One roll of the log as the screen shows it: a `RollRecord` turned into plain fields.

Kept apart from the widget so the log's words (time, who, test, dice, outcome) are
computed once per record, cached, and testable without a terminal. Every text field
is already cleaned of control characters; the widget still shows them only as
literal segments, never as markup.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from gmscreen.campaign.model import Campaign, RollRecord
from gmscreen.i18n import _, pgettext
from gmscreen.i18n.typography import Name
from gmscreen.campaign.rolllog import masked
from gmscreen.rules import System
from gmscreen.rules._base import Description, DiceGroup
from gmscreen.campaign.textsafe import clean
from gmscreen.rules.records import record

from .luck_words import DEFAULT_NOTABLE, luck_words
from .quickroll.text import fold
from .render import CompactRenderer, describe_result

if TYPE_CHECKING:
    from .game import GameTable

# Tones, from the actor's point of view: the widget maps each to a style.
GOOD, BAD, CRIT, FUMBLE, PLAIN = "good", "bad", "crit", "fumble", "plain"

_VS = re.compile(r"\s(?:vs|contre|versus)\s+(\S+)", re.IGNORECASE)
_TIME = re.compile(r"T(\d\d):(\d\d)")


@record(frozen=True)
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
    luck: str = ""       # "un jet à 4 %" when the roll's luck is notable, else ""


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
               campaign: Campaign | None = None, game: GameTable | None = None) -> str:
    """The rules say "l'acteur l'emporte" ("the actor wins"); the table says "Alexis l'emporte"
    ("Alexis wins"). The opponent is the character the line names after `vs` / `contre`, in
    full ("Le garde de la porte", not "garde"); without the campaign, or when no character
    matches, the word typed. The side's words are those of the language spoken. `game`: the
    campaign's, whose words the line is read in (given with `campaign`, by the caller)."""
    winner = result.get("winner")
    actor, opponent = _("the actor"), _("the opponent")
    if winner == "actor" and who and actor in headline:
        return headline.replace(actor, who, 1)
    if winner == "opponent" and opponent in headline:
        name = _opponent(line, campaign, game)
        if name:
            return headline.replace(opponent, name, 1)
    return headline



def name_roles(text: str, actor: str | None, opponent: str | None) -> str:
    """"acteur 3 + 3 = 6 contre opposant 1 + 2" -> "Callia 3 + 3 = 6 contre Le garde 1 + 2": the
    rules' role words (in the language spoken) replaced by the people's names ("de l'acteur"
    contracts: "du garde")."""
    for role, name in (("actor", actor), ("opponent", opponent)):
        if not name:
            continue
        phrase = _("the actor") if role == "actor" else _("the opponent")
        text = text.replace("de " + phrase, f"{Name(name):de}").replace(phrase, name)
        word = re.escape(pgettext("dice group", role))
        text = re.sub(rf"(?<![\w'’]){word}(?![\w'’])", _literal(name), text)
    return text


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement for `re.sub` that puts `text` as it is (no backslash read in it)."""
    return lambda _match: text


def _handed(campaign: Campaign | None, game: GameTable | None) -> GameTable | None:
    """The game a line naming the campaign's characters is read by: None without a campaign;
    refused when a campaign comes without its game (the caller holds it: naming a hidden side
    with the words typed alone could give it away)."""
    if campaign is None:
        return None
    if game is None:
        raise TypeError("a campaign's names are read with its game: pass game=")
    return game


def helper_names(line: str, campaign: Campaign | None, game: GameTable | None = None) -> list[str]:
    """The helpers the line names after `aide` / `help`, in order (the rules number their dice),
    read by `game` (the campaign's)."""
    game = _handed(campaign, game)
    if campaign is None or game is None:
        return []
    from .quickroll.grammar import (COMMON_WORDS, HELP_WORDS, People, QuickRollError, grammar_for,
                                    match_character)
    from .quickroll.text import tokenize

    try:
        tokens = tokenize(line)
        reserved = COMMON_WORDS | grammar_for(campaign, game).keywords
        people = People(campaign)
    except Exception:  # noqa: BLE001 - a damaged campaign: dice stay numbered
        return []
    names: list[str] = []
    i, helping = 0, False
    while i < len(tokens):
        if tokens[i].norm in HELP_WORDS:
            helping, i = True, i + 1
            continue
        found = None
        if helping:
            try:
                found = match_character(tokens, i, reserved, people, _("characters"))
            except QuickRollError:
                found = None
        if found is None:
            helping, i = False, i + 1
            continue
        names.append(clean(campaign.characters[int(found[0].value)].name))  # type: ignore[call-overload]
        i += found[1]
    return names


def short_name(name: str | None, line: str) -> str | None:
    """The name as the GM called it in the line, in the name's own spelling ("Louvensac" for
    "Mlle de Louvensac" when the line says `louvensac`; "garde 2" keeps its number): the dice
    and the detail of a contest stay on the tray's rows at 80×24. The full name otherwise."""
    if not name:
        return name
    typed = set(fold(line).split())
    words = name.split()
    for n, word in enumerate(words):
        if len(word) > 2 and fold(word).strip(",.") in typed:
            more = words[n + 1] if n + 1 < len(words) and words[n + 1].isdigit() else ""
            return f"{word.strip(',.')} {more}".strip()
    return name


def name_description(desc: Description, result: Mapping[str, Any], who: str, line: str,
                     campaign: Campaign | None = None, *, opponent: str | None = None,
                     game: GameTable | None = None) -> Description:
    """The rules' description in the table's words: the winner, each side's dice and detail by
    name, each helper's dice labelled with the helper's name ("aide Loriane"). The rules keep
    their roles; only the table knows who played them."""
    opponent = opponent or _opponent(line, campaign, game)
    headline = name_sides(desc.headline, result, who, line, campaign, game)
    actor_short, opponent_short = short_name(who, line), short_name(opponent, line)
    if actor_short and actor_short == opponent_short:          # two guards: their full names
        actor_short, opponent_short = who, opponent
    shown_who, opponent = actor_short, opponent_short
    helpers = helper_names(line, campaign, game) if result.get("helper_dice") else []
    numbered = {pgettext("dice group", "help {n}").format(n=n): name for n, name in enumerate(helpers, start=1)}

    def label(text: str) -> str:
        if text in numbered:
            return pgettext("dice group", "help {name}").format(name=numbered[text])
        return name_roles(text, shown_who, opponent)

    return replace(desc, headline=headline,
                   detail=name_roles(desc.detail, shown_who, opponent),
                   groups=tuple(replace(g, label=label(g.label)) for g in desc.groups))


def opponent_in_line(line: str, campaign: Campaign | None, game: GameTable | None = None) -> str | None:
    """The opponent the line names after `vs` / `contre`: a character's full name (read by
    `game`, the campaign's), else the word typed (None: no opponent)."""
    return _opponent(line, campaign, game)


def _opponent(line: str, campaign: Campaign | None, game: GameTable | None) -> str | None:
    game = _handed(campaign, game)
    if campaign is not None and game is not None:
        from .quickroll.grammar import opponent_name

        try:
            name = opponent_name(line, campaign, game)
        except Exception:  # noqa: BLE001 - a damaged line or campaign falls back to the word typed
            name = None
        if name:
            return clean(name)
    m = _VS.search(" " + line)
    return m.group(1) if m else None


def log_line(record: RollRecord, system: System | None, *, ascii: bool = False,
             campaign: Campaign | None = None, notable: int = DEFAULT_NOTABLE,
             game: GameTable | None = None) -> LogLine:
    """Turn one record into the words of its log row (`campaign` names the opponent in full,
    read by `game`, its game; the luck is said when under `notable` percent or over 100 minus it)."""
    who = clean(record.who)
    test = clean(record.line)
    d = name_description(describe_result(system, record.result), record.result, who, test, campaign, game=game)
    return LogLine(
        seq=record.seq,
        session=record.session,
        time=hhmm(record.time),
        who=who,
        test=test,
        dice=clean(compact_dice(d.groups, ascii=ascii)),
        outcome=clean(d.headline),
        detail=clean(d.detail),
        tone=_tone(record.result, d.good),
        gm_only=record.gm_only or bool(record.result.get("hidden")),
        revealed=record.revealed,
        masked=masked(record),
        luck=clean(luck_words(record.result, notable)),
    )


# ---------------------------------------------------------------- search

def search_text(record: RollRecord, system: System | None, campaign: Campaign | None = None, *,
                ascii: bool = False, game: GameTable | None = None) -> str:
    """What a search matches: every word its row shows (time, who, the typed line, the dice, the
    outcome with the names, the detail), and the outcome word in English too (a search finds
    "réussite" and "success" alike). Costs one `describe` per record, once per search session."""
    key = record.result.get("outcome", record.result.get("winner", ""))
    words = system.outcome_words.get(key, "") if system is not None and isinstance(key, str) else ""
    line = log_line(record, system, ascii=ascii, campaign=campaign, game=game)
    shown = " ".join((line.time, line.who, line.test, line.dice, line.outcome, line.detail))
    return fold(f"{shown} {_(words)} {words}" if words else shown)
