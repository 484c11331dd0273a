"""What the players may see: one decision for every kind of thing the table can show.

Two different secrets (MIR R8, Éclats R10): a hidden difficulty (`caché`, `hidden` in the
request and the result) keeps only the difficulty from the players — their dice and the
outcome stay theirs, and an Éclats player sees the die they must decide on; a GM-only roll
(`mj`, `gm_only` on the record) keeps everything. A revealed roll is public. A third: a side
played by a character the GM hides from the players (`hidden = true`) is never named to
them; its role word stands for it ("l'opposant l'emporte").

The decision is made where the thing is made and recorded with it, so that every reader (a
player view in another process too) sees the same: a roll keeps `gm_only`, `hidden` and the
sides hidden when it was rolled (`hidden_sides` in its result); a timer started from a GM-only
line is itself GM-only (`Timer.gm_only`), a hidden-difficulty test's timer keeps `hidden` in
its request, a timer against a hidden character keeps `Timer.hidden_sides`. Secrecy only
grows when read: a character hidden since is hidden too.

Every surface that shows something to players — the player view (and so `serve --players`),
the GM's screen while they watch, the recap without `--gm`, luck over time — asks here and
shows only what it is given: `visibility` / `roll_sight` and `public_line` for a roll,
`timer_sight` and `public_timer` for a timer or an extended test, `character_sight` /
`entry_sight` for a roster row or a place in the turn order (`public_order`, `public_conditions`
for the player view), `public_label` for the label of a change and `public_notice` for a notice.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from gmscreen.campaign.model import RollRecord, Timer
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _
from gmscreen.rules.records import record

from .roll_sides import HIDDEN_SIDES   # the key, in a roll's result and on a timer

if TYPE_CHECKING:
    from gmscreen.campaign.changes import Change
    from gmscreen.campaign.model import Campaign, Character, Entry
    from gmscreen.rules import System
    from gmscreen.rules._base import Description

    from .exchange import Draft
    from .game import GameTable
    from .logline import LogLine

# Told by every kind of every game: how lucky a roll was says how hard it was.
_ALWAYS_SECRET = frozenset({"luck", "opponent_luck"})
# A system this copy cannot describe (a plugin gone): its fields are judged by their names, the
# words its contract would use for the difficulty and what gives it away.
_DIFFICULTY_WORDS = frozenset({"difficulty", "threshold", "target", "margin", "malus", "dc", "sd"})

ACTOR, OPPONENT, HELPER = "actor", "opponent", "helper"     # a helper: one of those who help (`aide`)
SIDES = (ACTOR, OPPONENT, HELPER)


class Visibility(enum.Enum):
    """Who may see a thing: the field every event the table makes will carry."""

    PUBLIC = "public"
    DIFFICULTY_HIDDEN = "difficulty_hidden"
    SECRET = "secret"


@record(frozen=True)
class Sight:
    """What the players may see of one thing: how much of it (`visibility`), and which of its
    sides they may not have named (`hidden_sides`: "actor", "opponent")."""

    visibility: Visibility
    hidden_sides: frozenset[str] = frozenset()

    @property
    def whole(self) -> bool:
        """Players may see it exactly as the GM does."""
        return self.visibility is Visibility.PUBLIC and not self.hidden_sides

    @property
    def secret(self) -> bool:
        return self.visibility is Visibility.SECRET


PUBLIC = Sight(Visibility.PUBLIC)


# ---------------------------------------------------------------- rolls


def visibility(rec: RollRecord) -> Visibility:
    """How much of `rec` the players may see now (a revealed roll is public)."""
    return roll_visibility(gm_only=rec.gm_only, hidden=is_hidden(rec.request, rec.result),
                           revealed=rec.revealed)


def roll_visibility(*, gm_only: bool, hidden: bool, revealed: bool = False) -> Visibility:
    """The same, for a roll not logged yet (typed in the tray, waiting for a choice)."""
    if revealed:
        return Visibility.PUBLIC
    if gm_only:
        return Visibility.SECRET
    return Visibility.DIFFICULTY_HIDDEN if hidden else Visibility.PUBLIC


def line_sight(text: str, *, gm_only: bool, campaign: Campaign | None = None) -> Sight:
    """What the players may see of a line that does not read (yet): its words say whether it
    is secret (`mj`, `caché`) or names a character hidden from them (one of `campaign`'s), so
    that an error quoting it gives nothing away."""
    from .quickroll.grammar import GM_WORDS, HIDDEN_WORDS
    from .quickroll.text import words

    typed = set(words(text))
    hidden = [ch.name for ch in campaign.characters if ch.hidden] if campaign is not None else []
    named = {w for name in hidden for w in words(name) if len(w) > 2}
    return Sight(roll_visibility(gm_only=gm_only or bool(typed & GM_WORDS), hidden=bool(typed & HIDDEN_WORDS)),
                 frozenset({ACTOR} if typed & named else ()))


def may_count(rec: RollRecord, campaign: Campaign | None = None, game: GameTable | None = None) -> bool:
    """A roll players may count (the recap's rolls, criticals and luck, luck over time): all but
    a GM-only roll not revealed, and one a hidden character made (counted, it would be named).
    A hidden difficulty hides the difficulty only."""
    sight = roll_sight(rec, campaign, game)
    return not sight.secret and ACTOR not in sight.hidden_sides


def roll_sight(rec: RollRecord, campaign: Campaign | None = None, game: GameTable | None = None) -> Sight:
    """What players may see of a logged roll: its visibility, and the sides they may not have
    named (recorded when rolled; with `campaign` and `game`, its game, which reads the line,
    also a side whose character is hidden now)."""
    seen = visibility(rec)
    if seen is Visibility.SECRET:
        return Sight(seen)
    sides = set(recorded_sides(rec.result))
    if campaign is not None and len(sides) < len(SIDES):
        names = hidden_names(campaign)
        if names:
            if ACTOR not in sides and clean(rec.who).casefold() in names:
                sides.add(ACTOR)
            if OPPONENT not in sides:
                opponent = _opponent_of(rec.line, campaign, game)
                if opponent is not None and clean(opponent).casefold() in names:
                    sides.add(OPPONENT)
            if HELPER not in sides and _hidden_helper(rec.line, campaign, names, game):
                sides.add(HELPER)
    return Sight(seen, frozenset(sides))


def draft_sight(draft: Draft | None, *, gm_only: bool = False, campaign: Campaign | None = None) -> Sight:
    """What players may see of a roll typed (or waiting for a choice), before it is logged."""
    if draft is None:
        return PUBLIC
    return Sight(roll_visibility(gm_only=gm_only or draft.gm_only, hidden=is_hidden(draft.request)),
                 frozenset(draft_hidden_sides(draft, campaign)))


def draft_hidden_sides(draft: Draft, campaign: Campaign | None = None) -> list[str]:
    """The sides of the roll typed played by a character the GM hides, and with `campaign`
    a hidden helper (`aide`, read by the game that read the line): what its record keeps."""
    out = []
    for n, side in enumerate(draft.sides[:2]):
        if side.character is not None and side.character.hidden:
            out.append(side.role if side.role in (ACTOR, OPPONENT) else SIDES[n])
    if campaign is not None and _hidden_helper(draft.line, campaign, hidden_names(campaign), draft.table):
        out.append(HELPER)
    return out


def _hidden_helper(line: str, campaign: Campaign, names: set[str], game: GameTable | None) -> bool:
    """The line names a hidden character among those who help."""
    from .logline import helper_names
    from .quickroll.grammar import HELP_WORDS
    from .quickroll.text import fold

    if not names or HELP_WORDS.isdisjoint(fold(line).split()):
        return False
    return any(clean(name).casefold() in names for name in helper_names(line, campaign, game))


def noted_sides(result: Mapping[str, Any], draft: Draft, campaign: Campaign | None = None) -> dict[str, Any]:
    """The result as logged, with the sides a hidden character plays (`hidden_sides`)."""
    out = dict(result)
    sides = draft_hidden_sides(draft, campaign)
    if sides:
        out[HIDDEN_SIDES] = sides
    return out


def recorded_sides(mapping: Mapping[str, Any] | None) -> frozenset[str]:
    """The hidden sides a result (or a timer's fields) recorded; a value that is not a list of
    "actor" / "opponent" / "helper" (a hand edit) hides them all: what cannot be read stays secret."""
    if not mapping or HIDDEN_SIDES not in mapping:
        return frozenset()
    value = mapping[HIDDEN_SIDES]
    if isinstance(value, list) and all(v in SIDES for v in value):
        return frozenset(value)
    return frozenset(SIDES)


def hidden_names(campaign: Campaign) -> set[str]:
    """The names (cleaned, case-folded) of the characters the GM keeps from the players."""
    return {clean(ch.name).casefold() for ch in campaign.characters if character_sight(ch).secret}


def _opponent_of(line: str, campaign: Campaign, game: GameTable | None) -> str | None:
    from .logline import opponent_in_line
    from .quickroll.grammar import VS_WORDS
    from .quickroll.text import fold

    if VS_WORDS.isdisjoint(fold(line).split()):     # no opponent: no line to read (a long log, searched)
        return None
    return opponent_in_line(line, campaign, game)


def is_hidden(*mappings: Mapping[str, Any] | None) -> bool:
    """A request or result that says its difficulty is secret."""
    return any(bool(m.get("hidden")) for m in mappings if m)


def is_difficulty_field(name: str, secret: frozenset[str] | None = None) -> bool:
    """`name` tells a hidden difficulty: one of the `secret` fields the system declares
    (`difficulty_fields`, its table's `difficulty_field`, `luck`); for a system unknown here
    (None), a field whose name says difficulty, threshold, target, margin or malus."""
    if secret is not None:
        return name in secret
    return name in _ALWAYS_SECRET or name == "no_roll_needed" or bool(_DIFFICULTY_WORDS & set(name.split("_")))


def public_fields(fields: Mapping[str, Any], visible: Visibility) -> dict[str, Any]:
    """`fields` (a request, a result) as the players may see them."""
    if visible is Visibility.SECRET:
        return {}
    if visible is Visibility.PUBLIC:
        return dict(fields)
    secret = secret_fields(fields.get("system"))
    return {k: v for k, v in fields.items() if not is_difficulty_field(k, secret)}


def public_result(rec: RollRecord) -> dict:
    """The request and result fields a player may see, in one mapping (the result's value when
    both have a field): everything when public, all but the difficulty fields when the
    difficulty is hidden, nothing ({}) for a GM-only roll not revealed."""
    visible = visibility(rec)
    return public_fields({**rec.request, **rec.result}, visible)


def record_system(rec: RollRecord) -> System | None:
    """The game a roll was rolled in (its request says), None for one this copy cannot describe:
    a log is described by its own game, whatever the campaign file says now."""
    from gmscreen.rules import RequestError, get_system

    system_id = rec.request.get("system", rec.result.get("system"))
    if not isinstance(system_id, str):
        return None
    try:
        return get_system(system_id)
    except (RequestError, KeyError):
        return None


def public_line(rec: RollRecord, campaign: Campaign | None, *, sight: Sight | None = None,
                ascii: bool = False, notable: int | None = None, game: GameTable | None = None) -> LogLine | None:
    """The log row of `rec` as players may see it (None: nothing of it, a GM-only roll). Whole
    when public; else the dice and the outcome, who rolls unless hidden ("?"), and neither the
    line typed nor the detail nor the luck (`test`, `detail` and `luck` empty), which tell the
    difficulty or name a hidden side. Described by the roll's own game; its line read by
    `game`, the campaign's (given with `campaign`)."""
    from dataclasses import replace

    from .logline import _tone, compact_dice, log_line
    from .luck_words import DEFAULT_NOTABLE
    from .render import describe_result

    sight = sight if sight is not None else roll_sight(rec, campaign, game)
    if sight.secret:
        return None
    system = record_system(rec)
    line = log_line(rec, system, ascii=ascii, campaign=campaign, game=game,
                    notable=DEFAULT_NOTABLE if notable is None else notable)
    if sight.whole:
        return line
    who = clean(rec.who)
    opponent = None if OPPONENT in sight.hidden_sides or campaign is None else _opponent_of(rec.line, campaign, game)
    named = public_description(describe_result(system, rec.result), rec.result, sight, who, opponent)
    return replace(line, who="?" if ACTOR in sight.hidden_sides else who, test="", detail="", luck="",
                   outcome=clean(named.headline), dice=clean(compact_dice(named.groups, ascii=ascii)),
                   tone=_tone(public_fields(rec.result, sight.visibility), named.good))


def public_description(desc: Description, result: Mapping[str, Any], sight: Sight, who: str,
                       opponent: str | None) -> Description:
    """The rules' description of a roll players see in part: the sides they may know by their
    names, a hidden side by its role word ("l'opposant l'emporte"), and no detail (it states the
    difficulty and each side's score)."""
    from dataclasses import replace

    from .logline import name_description

    actor = "" if ACTOR in sight.hidden_sides else clean(who)
    shown_opponent = None if OPPONENT in sight.hidden_sides or not opponent else clean(opponent)
    named = name_description(desc, result, actor, "", None, opponent=shown_opponent)
    headline = named.headline
    if ACTOR in sight.hidden_sides and who:
        headline = headline.replace(clean(who), "?")
    if OPPONENT in sight.hidden_sides and opponent:
        headline = headline.replace(clean(opponent), _("the opponent"))
    return replace(named, headline=headline, detail="")


def hidden_words(sight: Sight) -> str:
    """What a view shows in place of the line typed of a roll players see only in part."""
    if sight.visibility is Visibility.DIFFICULTY_HIDDEN:
        return secret_difficulty_words()
    return "(" + _("a hidden character") + ")"


def secret_difficulty_words() -> str:
    """What a view shows where a hidden difficulty would be, while players watch."""
    return "(" + _("secret difficulty") + ")"


def secret_fields(system_id: Any) -> frozenset[str] | None:
    """The fields a hidden difficulty keeps from the players in that system's rolls (None: a
    system this copy does not know)."""
    from gmscreen.rules import RequestError, get_system

    if not isinstance(system_id, str):
        return None
    try:
        system = get_system(system_id)
    except (RequestError, KeyError):
        return None
    return system.difficulty_fields | {system.difficulty_field} | _ALWAYS_SECRET


# ---------------------------------------------------------------- timers and extended tests


@record(frozen=True)
class PublicTimer:
    """A countdown or an extended test in progress, as players see it."""

    label: str
    running: bool
    status: str                         # the status in words ("en cours", "réussi")
    progress: str                       # "6/8 · test 2/3", "3 rounds"


def timer_fields(draft: Draft, *, gm_only: bool) -> dict[str, Any]:
    """What a timer started from the line `draft` records of its secrets: GM-only when the roll
    is, and the sides a hidden character plays (its request keeps `hidden`)."""
    out: dict[str, Any] = {}
    if gm_only or draft.gm_only:
        out["gm_only"] = True
    sides = draft_hidden_sides(draft)
    if sides:
        out[HIDDEN_SIDES] = sides
    return out


def mark_timer(campaign: Campaign, timer: Timer) -> Timer:
    """A timer a form made (the initiative's `t`), with the sides a hidden character plays
    recorded on it, as a timer started from the line records them."""
    sides = [side for side, ref in ((ACTOR, timer.who), (OPPONENT, timer.opponent)) if _is_hidden(campaign, ref)]
    if sides:
        timer.hidden_sides = sides
    return timer


def _is_hidden(campaign: Campaign, ref: str | None) -> bool:
    return ref is not None and character_sight(campaign.character(ref)).secret


def timer_sight(campaign: Campaign | None, timer: Timer) -> Sight:
    """What players may see of a timer: nothing of a GM-only one, no threshold nor progress of
    a hidden-difficulty test, and the sides a hidden character plays (recorded, or hidden now)."""
    if timer.gm_only:
        return Sight(Visibility.SECRET)
    seen = Visibility.DIFFICULTY_HIDDEN if timer.kind != "countdown" and is_hidden(timer.request) else Visibility.PUBLIC
    sides = set(recorded_sides({HIDDEN_SIDES: timer.hidden_sides} if timer.hidden_sides else None))
    if campaign is not None:
        sides |= {side for side, ref in ((ACTOR, timer.who), (OPPONENT, timer.opponent)) if _is_hidden(campaign, ref)}
    return Sight(seen, frozenset(sides))


def public_timer(campaign: Campaign, timer: Timer, sight: Sight | None = None, *, game: GameTable) -> PublicTimer | None:
    """`timer` as players may see it (its progress as `game`, the campaign's, says it); None
    when they see nothing of it: a GM-only timer, or one a hidden character plays (its label
    and progress name them)."""
    from .timers import name_of, status_word, timer_progress

    sight = sight if sight is not None else timer_sight(campaign, timer)
    if sight.secret or sight.hidden_sides:
        return None
    running, status = timer.status == "running", status_word(timer.status)
    if sight.visibility is Visibility.DIFFICULTY_HIDDEN:     # its label and progress state the threshold
        label = _("{name}: a test").format(name=clean(name_of(campaign, timer.who)))
        return PublicTimer(label, running, status, secret_difficulty_words())
    return PublicTimer(clean(timer.label), running, status, clean(timer_progress(campaign, timer, game=game)))


def masked_timer_words(campaign: Campaign, timer: Timer, sight: Sight) -> tuple[str, str]:
    """The label and the progress the GM's screen shows of a timer players may not see whole,
    while they watch: "GM's secret test" alone, or who rolls it (unless hidden) and a word in
    place of its threshold and progress."""
    from .timers import name_of

    if sight.secret:
        return _("GM's secret test"), ""
    who = "?" if ACTOR in sight.hidden_sides else clean(name_of(campaign, timer.who))
    return who, hidden_words(sight)


# ---------------------------------------------------------------- the turn order and conditions


@record(frozen=True)
class PublicEntry:
    """One place in the turn order as players see it."""

    name: str
    initiative: int
    current: bool
    acted: bool
    delayed: bool
    conditions: tuple[str, ...]         # "Ébloui (1)": name and rounds left, never the GM's effect note


def hidden_ids(campaign: Campaign) -> set[str]:
    """The characters the GM keeps from the players (`hidden = true`)."""
    return {ch.id for ch in campaign.characters if character_sight(ch).secret}


def character_sight(character: Character | None) -> Sight:
    """What players may see of a character (a roster row, a place in the turn order, its
    conditions): nothing of one the GM hides (`hidden = true`), all of any other."""
    return Sight(Visibility.SECRET) if character is not None and character.hidden else PUBLIC


def entry_sight(campaign: Campaign, entry: Entry) -> Sight:
    """What players may see of one place in the turn order: that of its character (an entry
    with no sheet, "Chien de garde", is public)."""
    return character_sight(campaign.character(entry.character) if entry.character else None)


def hidden_character_words() -> str:
    """What a view players watch shows in place of a hidden character's name."""
    return "(" + _("a hidden character") + ")"


def public_conditions(character: Character | None) -> tuple[str, ...]:
    """A character's conditions as players see them: name and rounds left, never the GM's
    effect note; nothing of a hidden character."""
    if character is None or character_sight(character).secret:
        return ()
    return tuple(clean(c.name) + (f" ({c.rounds})" if c.rounds is not None else "") for c in character.conditions)


def public_order(campaign: Campaign) -> tuple[tuple[PublicEntry, ...], str | None]:
    """The turn order without hidden characters, and the current actor's name when shown."""
    enc = campaign.encounter
    current_index = enc.turn if enc.round > 0 and 0 <= enc.turn < len(enc.entries) else None
    order: list[PublicEntry] = []
    current_name: str | None = None
    for i, entry in enumerate(enc.entries):
        if entry_sight(campaign, entry).secret:
            continue
        ch = campaign.character(entry.character) if entry.character else None
        is_current = i == current_index
        if is_current:
            current_name = clean(entry.name)
        order.append(PublicEntry(clean(entry.name), entry.initiative, is_current, entry.acted, entry.delayed,
                                 public_conditions(ch)))
    return tuple(order), current_name


def public_notice(text: str, campaign: Campaign) -> str:
    """A notice (a turn moved, a condition ended) as a screen players watch may say it: as it
    is, or a word in its place when it names a character hidden from them."""
    said = clean(text)
    folded = said.casefold()
    if any(name and name in folded for name in hidden_names(campaign)):
        return "(" + _("a change the players do not see") + ")"
    return said


def public_names(text: str, campaign: Campaign) -> str:
    """`text` with each character hidden from the players called "a hidden character" instead:
    a question the GM answers while they watch (who joins the fight), whose options must stay
    told apart where `public_notice` would mask it whole."""
    import re

    said = clean(text)
    hidden = sorted({clean(ch.name) for ch in campaign.characters if character_sight(ch).secret}, key=len, reverse=True)
    for name in filter(None, hidden):
        said = re.sub(re.escape(name), _("a hidden character"), said, flags=re.IGNORECASE)
    return said


# ---------------------------------------------------------------- the label of a change


def public_label(change: Change | None, campaign: Campaign) -> str | None:
    """The label of a change as the status line shows it while players watch: as it is, or a
    word in its place when the change touches a timer players may not see whole (its label
    names a GM-only test, or a hidden threshold) or names a character hidden from them."""
    if change is None:
        return None
    masked = "(" + _("a change the players do not see") + ")"
    if change.secret:                   # made by a GM-only roll (its spending)
        return masked
    label = clean(change.label).casefold()
    if any(name and name in label for name in hidden_names(campaign)):
        return masked
    for op in change.ops:
        path = tuple(op.path)
        if not path or path[0] != "timers":
            continue
        timers: Iterable[Any]
        if len(path) == 1:                          # a timer added or removed: the op holds it
            timers = [v for v in (op.new, op.old) if v is not None]
        else:
            index = path[1]
            timers = [campaign.timers[index]] if isinstance(index, int) and 0 <= index < len(campaign.timers) else []
        for value in timers:
            timer = value if isinstance(value, Timer) else _timer_of(value)
            if timer is None or not timer_sight(campaign, timer).whole:
                return masked
    return clean(change.label)


def _timer_of(value: Any) -> Timer | None:
    from gmscreen.campaign.model import from_data

    try:
        return from_data(Timer, value) if isinstance(value, dict) else None
    except (TypeError, KeyError, ValueError):
        return None
