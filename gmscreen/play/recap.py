"""The recap of a session, as the GM reads it aloud next time: what changed, the fight, the
notable rolls and each character's luck, in Markdown (or as data for `--json`).

Built from the campaign's files alone, read only (no lock, nothing written): the state file with
its journal replayed (the campaign as the GM last saw it), the change history (`X.history.toml`,
every change saved: see `campaign/history.py`) followed by the journal (the changes not saved
yet), and the roll log. Which session a change belongs to is read backwards from the current
session: the change that set `session` opened it. The state at the session's start is the
current state with the later changes taken back; the session's changes, with what was undone
left out, are then walked forward from it, and the recap says the net of them: a wound healed
within the session is no change.

For the players' ears by default, as `gmscreen.play.public` decides: a GM-only roll not
revealed stays out of the recap, its notable rolls and its luck, and so do a GM-only timer and
the characters the GM hides; a roll with a hidden difficulty counts, said without its
difficulty (nor the line typed, nor its luck), a hidden-difficulty timer without its threshold;
all of it with `gm=True` (`--gm`).
"""

from __future__ import annotations

import copy
import re
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from gmscreen.campaign import history
from gmscreen.campaign.changes import Change, ChangeError, apply_change
from gmscreen.campaign.export import escape_heading, escape_inline
from gmscreen.campaign.journal import Journal, JournalEntry, journal_path
from gmscreen.campaign.model import Campaign, RollRecord
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.campaign.recovery import replay_journal
from gmscreen.campaign.store import load_campaign_with_warnings
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _, ngettext
from gmscreen.rules import RequestError, System, get_system
from gmscreen.rules.records import record

from . import luck_stats
from .logline import CRIT, FUMBLE, log_line
from .luck_words import rarity
from .public import (PUBLIC, hidden_ids, hidden_words, may_count, public_label, public_line, public_timer, roll_sight,
                     secret_difficulty_words, timer_sight)
from .timers import status_word, timer_progress
from .tracks import default_track

if TYPE_CHECKING:
    from .game import GameTable


class RecapError(ValueError):
    """A recap that cannot be made (a session the campaign never had): one line to show."""


@record
class RollNote:
    """One notable roll, in the words of the log."""

    seq: int
    who: str
    line: str
    outcome: str
    dice: str
    luck: float | None

    def to_data(self) -> dict[str, Any]:
        return {"seq": self.seq, "who": self.who, "line": self.line, "outcome": self.outcome, "dice": self.dice,
                "luck": self.luck}


@record
class Recap:
    campaign: str
    system: str
    session: int
    current: bool                       # the campaign's current session
    gm: bool                            # GM-only rolls included
    changes: dict[str, list[str]] = field(default_factory=dict)     # character name -> what changed
    timers: list[str] = field(default_factory=list)
    fight: list[str] = field(default_factory=list)                  # started, ended
    joined: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)   # the changes by their labels (when not walked)
    rolls: int = 0
    hidden_rolls: int = 0               # left out (GM-only, not revealed)
    criticals: list[RollNote] = field(default_factory=list)
    luckiest: RollNote | None = None
    unluckiest: RollNote | None = None
    luck: list[luck_stats.LuckTally] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- reading the files


def _entries(path: Path, warnings: list[str], journal: Journal, applied: list[JournalEntry]) -> list[JournalEntry]:
    """The history, then the journal's entries it does not hold yet: those the replay applied
    (a journal that does not fit the campaign is applied not at all, so listed not at all)."""
    kept, problems = history.load(path)
    warnings += [str(p) for p in problems]
    warnings += [str(p) for p in journal.warnings]
    seen = {(e.revision, e.time, e.label) for e in kept}
    return kept + [e for e in applied if (e.revision, e.time, e.label) not in seen]


def _session_set(entry: JournalEntry) -> tuple[Any, Any] | None:
    for op in entry.ops:
        if op.op == "set" and tuple(op.path) == ("session",):
            return op.old, op.new
    return None


def _sessions_of(entries: list[JournalEntry], current: int) -> list[int]:
    """The session each entry belongs to, read backwards from the current one."""
    out = [0] * len(entries)
    session = current
    for i in range(len(entries) - 1, -1, -1):
        out[i] = session
        moved = _session_set(entries[i])
        if moved is not None and type(moved[0]) is int:
            session = moved[0]
    return out


def _net(entries: list[JournalEntry]) -> list[Change]:
    """The changes that stand once undo and redo are read (an undo of a change made before
    these entries stands as its own change: the inverse applied)."""
    done: list[Change] = []
    undone: list[Change] = []
    for entry in entries:
        if entry.action == "do":
            done.append(entry.change)
            undone.clear()
        elif entry.action == "undo":
            if done:
                undone.append(done.pop())
            else:
                done.append(entry.change)
        elif undone:
            done.append(undone.pop())
        else:
            done.append(entry.change)
    return done


# ---------------------------------------------------------------- what changed


def _stat_label(system: System, group_key: str, key: str) -> str:
    """The stat's label, with its group's where another group has a stat of that label
    ("Défense · Niveau" and "Attaque · Niveau", not two "Niveau")."""
    for group in system.sheet:
        if group.key == group_key:
            for stat in group.stats:
                if stat.key == key:
                    shared = sum(1 for g in system.sheet for s in g.stats if s.label == stat.label) > 1
                    return f"{group.label} · {stat.label}" if shared else stat.label
    return key


def _flat(sheet: Any, prefix: tuple = ()) -> dict[tuple, Any]:
    out: dict[tuple, Any] = {}
    if isinstance(sheet, dict):
        for k, v in sheet.items():
            out.update(_flat(v, prefix + (k,)))
    else:
        out[prefix] = sheet
    return out


def _value(v: Any) -> str:
    return "—" if v is None else clean(v)


def _character_changes(system: System, game: GameTable, before: Campaign, after: Campaign, *,
                       gm: bool = True) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    old = {c.id: c for c in before.characters}
    hidden = set() if gm else hidden_ids(before) | hidden_ids(after)     # never named to the players
    own = default_track(game)
    bound = own.name if own.sheet is not None else None
    for ch in after.characters:
        if ch.id in hidden:
            continue
        said: list[str] = []
        prev = old.get(ch.id)
        if prev is None:
            said.append(_("joined the roster"))
            out[clean(ch.name)] = said
            continue
        a, b = _flat(prev.sheet), _flat(ch.sheet)
        for key in sorted(set(a) | set(b), key=lambda k: tuple(map(str, k))):
            if a.get(key) != b.get(key) and key:
                label = _stat_label(system, str(key[0]), str(key[-1]))
                said.append(f"{clean(label)} {_value(a.get(key))} → {_value(b.get(key))}")
        tracks_before = {t.name: t for t in prev.tracks}
        for track in ch.tracks:             # hits taken, net of what was undone (`play.tracks`)
            if track.name == bound:         # the game's own, said by its sheet value (MIR's Blessures)
                continue
            was = tracks_before.get(track.name)
            start = was.value if was is not None else 0
            if start != track.value:
                said.append(f"{clean(track.name)} {start} → {track.value}/{track.max}")
        names_before = [c.name for c in prev.conditions]
        names_after = [c.name for c in ch.conditions]
        for name in names_after:
            if name not in names_before:
                said.append(_("now {condition}").format(condition=clean(name)))
        for name in names_before:
            if name not in names_after:
                said.append(_("no longer {condition}").format(condition=clean(name)))
        if said:
            out[clean(ch.name)] = said
    for cid, prev in old.items():
        if after.character(cid) is None and cid not in hidden:
            out[clean(prev.name)] = [_("left the roster")]
    return out


def _walk(start: Campaign, changes: list[Change], recap: Recap, game: GameTable) -> Campaign:
    """Apply the session's changes one by one, noting the fight's comings and goings and the
    timers; returns the state at the session's end."""
    state = copy.deepcopy(start)
    hidden = set() if recap.gm else hidden_ids(start)
    first_timers = {t.id: copy.deepcopy(t) for t in state.timers}
    started: dict[str, Any] = {}
    last: dict[str, Any] = {}
    for change in changes:
        before = [(e.id, e.name, e.character) for e in state.encounter.entries]
        round_before = state.encounter.round
        apply_change(state, change)
        if not recap.gm:
            hidden |= hidden_ids(state)
        entries = {eid: name for eid, name, character in before if character not in hidden}
        now = {e.id: e.name for e in state.encounter.entries if e.character not in hidden}
        if round_before == 0 and state.encounter.round > 0:
            recap.fight.append(_("a fight started"))
        ended = round_before > 0 and state.encounter.round == 0
        if ended:
            recap.fight.append(_("a fight ended in round {n}").format(n=round_before))
        for eid, name in now.items():
            if eid not in entries and clean(name) not in recap.joined:
                recap.joined.append(clean(name))
        if not ended:
            for eid, name in entries.items():
                if eid not in now and clean(name) not in recap.left:
                    recap.left.append(clean(name))
        for t in state.timers:
            if t.id not in first_timers and t.id not in started:
                started[t.id] = copy.deepcopy(t)
            last[t.id] = copy.deepcopy(t)
    ids_now = {t.id for t in state.timers}
    for tid, t in list(first_timers.items()) + [(k, v) for k, v in started.items() if k not in first_timers]:
        end = last.get(tid, t)
        label = clean(t.label)
        sight = PUBLIC if recap.gm else timer_sight(state, end)
        if not sight.whole:
            shown = public_timer(state, end, sight, game=game)
            if shown is None:               # a GM-only test, one a hidden character plays
                continue
            label = shown.label
        if tid in started:
            said = _("{timer}: started").format(timer=label)
        elif end.dice != t.dice or end.rounds != t.rounds or end.status != t.status:
            said = _("{timer}: advanced").format(timer=label)
        elif tid not in ids_now:
            said = _("{timer}: removed").format(timer=label)
        else:
            continue
        if end.status != "running":
            said += " · " + _("finished: {status}").format(status=status_word(end.status))
        elif tid in ids_now:
            said += " · " + (timer_progress(state, end, game=game) if sight.whole else secret_difficulty_words())
        recap.timers.append(said)
    return state


def _note(record: RollRecord, system: System | None, campaign: Campaign, game: GameTable, *, gm: bool) -> RollNote:
    """A roll in the words of the log; for the players' ears (not `gm`), as they may see it
    (`public.public_line`: no line typed, nor luck, for a hidden difficulty)."""
    row = log_line(record, system, campaign=campaign, game=game) if gm else public_line(record, campaign, game=game)
    assert row is not None, "a roll players may not see in a recap for them"
    if not gm and not roll_sight(record, campaign, game).whole:
        return RollNote(record.seq, row.who, hidden_words(roll_sight(record, campaign, game)), row.outcome, row.dice, None)
    luck = record.result.get("luck")
    return RollNote(record.seq, row.who, row.test, row.outcome, row.dice,
                    float(luck) if isinstance(luck, (int, float)) and not isinstance(luck, bool) else None)


def _critical(result: dict) -> bool:
    """A critical the result names beyond its outcome (a side's critical in a contest, a win decided by one)."""
    return any(k.endswith("critical") and v is True for k, v in result.items()) or \
        str(result.get("decided_by", "")).startswith("critical")


def _system(record: RollRecord) -> System | None:
    try:
        return get_system(str(record.request.get("system")))
    except RequestError:
        return None


def build_recap(path: str | Path, session: int | None = None, *, gm: bool = False,
                tables: Callable[[str], GameTable]) -> Recap:
    """The recap of `session` (default: the campaign's current one). Reads only. `tables`
    finds the game of the campaign read (`tables.table_for`, given by the command or the
    screen that asks: the recap never looks a game up itself).

    Raises CampaignError when a file cannot be read, RecapError for a session the campaign
    never had."""
    path = Path(path)
    campaign, found = load_campaign_with_warnings(path)
    warnings = [str(p) for p in found if p.warning]
    journal = Journal.load(journal_path(path))
    _undo, _redo, applied, problems = replay_journal(campaign, journal)
    warnings += [str(p) for p in problems]
    system = get_system(campaign.system)
    game = tables(campaign.system)
    current = campaign.session
    wanted = current if session is None else session
    if type(wanted) is not int or wanted < 1 or wanted > current:
        raise RecapError(_("{file}: --session: expected a session from 1 to {last}, got {value}").format(
            file=path, last=current, value=wanted))
    recap = Recap(clean(campaign.name), system.id, wanted, wanted == current, gm, warnings=warnings)

    entries = _entries(path, recap.warnings, journal, applied)
    sessions = _sessions_of(entries, current)
    mine = [e for e, s in zip(entries, sessions) if s == wanted]
    first = next((i for i, s in enumerate(sessions) if s == wanted), len(entries))
    # Back from now to the session's start: every entry from its first on, taken back.
    start = copy.deepcopy(campaign)
    try:
        for entry in reversed(entries[first:]):
            apply_change(start, entry.change.inverse())
        end = _walk(start, _net(mine), recap, game)
        recap.changes = _character_changes(system, game, start, end, gm=gm)
    except (ChangeError, KeyError, IndexError, TypeError, ValueError, AttributeError):
        recap.warnings.append(_("{file}: the change history does not match the campaign file: the changes are "
                                "listed by their names only").format(file=history.history_path(path).name))
        recap.changes, recap.timers, recap.fight, recap.joined, recap.left = {}, [], [], [], []
        recap.labels = [clean(c.label) if gm else public_label(c, campaign) or "" for c in _net(mine)]

    log = RollLog.load_session(rolls_path(path), wanted)    # that session's bytes, not the log's
    recap.warnings += [str(p) for p in log.warnings]
    records = [r for r in log.records if r.session == wanted]
    shown = [r for r in records if gm or may_count(r, campaign, game)]
    recap.rolls, recap.hidden_rolls = len(shown), len(records) - len(shown)
    notes = {r.seq: _note(r, _system(r), campaign, game, gm=gm) for r in shown}
    for r in shown:
        if log_line(r, _system(r), campaign=campaign, game=game).tone in (CRIT, FUMBLE) or _critical(r.result):
            recap.criticals.append(notes[r.seq])
    counted = [one for r in shown
               for one in luck_stats.roll_lucks(r, hidden=() if gm else roll_sight(r, campaign, game).hidden_sides)]
    recap.luck = luck_stats.tallies(counted, wanted)
    table = recap.luck[0]
    # The luckiest and unluckiest are said with their luck: for the players, among the rolls
    # whose luck they may hear (a hidden difficulty's luck says how hard it was).
    sayable = luck_stats.LuckTally(table.who, table.session, [n for n in table.rolls if notes[n.seq].luck is not None])
    if sayable.luckiest is not None:
        recap.luckiest = notes[sayable.luckiest.seq]
    if sayable.unluckiest is not None and sayable.unluckiest is not sayable.luckiest:
        recap.unluckiest = notes[sayable.unluckiest.seq]
    return recap


# ---------------------------------------------------------------- in Markdown and as data


def _roll_md(note: RollNote) -> str:
    luck = f" · {rarity(note.luck)}" if note.luck is not None else ""      # "1 roll in 100 does worse"
    return f"#{note.seq} {escape_inline(note.who)} · {escape_inline(note.line)} → {escape_inline(note.outcome)}" \
           f" ({escape_inline(note.dice)}){luck}"


def recap_markdown(recap: Recap) -> str:
    """The recap as the GM reads it aloud: headings, bullets, every typed word escaped."""
    out = [f"# {escape_heading(_('Recap of session {n} · {campaign}').format(n=recap.session, campaign=recap.campaign))}",
           ""]
    if recap.gm:
        out += [_("Including the GM's secret rolls."), ""]
    out += [f"## {_('What changed')}", ""]
    if recap.changes:
        for name, changed in recap.changes.items():
            out.append(f"- **{escape_inline(name)}**: {escape_inline('; '.join(changed))}")
    out += [f"- {escape_inline(t)}" for t in recap.timers]
    out += [f"- {escape_inline(label)}" for label in recap.labels]
    if not (recap.changes or recap.timers or recap.labels):
        out.append(_("Nothing changed on the sheets or the timers."))
    out += ["", f"## {_('The fight')}", ""]
    out += [f"- {escape_inline(s)}" for s in recap.fight]
    if recap.joined:
        out.append(f"- {_('Joined the fight: {names}').format(names=escape_inline(', '.join(recap.joined)))}")
    if recap.left:
        out.append(f"- {_('Left the fight: {names}').format(names=escape_inline(', '.join(recap.left)))}")
    if not (recap.fight or recap.joined or recap.left):
        out.append(_("No fight this session."))
    out += ["", f"## {_('Notable rolls')}", ""]
    said = ngettext("{n} roll this session.", "{n} rolls this session.", recap.rolls).format(n=recap.rolls)
    if recap.hidden_rolls:
        said += " " + ngettext("{n} secret roll of the GM left out.", "{n} secret rolls of the GM left out.",
                               recap.hidden_rolls).format(n=recap.hidden_rolls)
    out += [said, ""]
    for note in recap.criticals:
        out.append(f"- {_('Critical')}: {_roll_md(note)}")
    if recap.luckiest is not None:
        out.append(f"- {_('Luckiest')}: {_roll_md(recap.luckiest)}")
    if recap.unluckiest is not None:
        out.append(f"- {_('Unluckiest')}: {_roll_md(recap.unluckiest)}")
    out += ["", f"## {_('Luck')}", ""]
    for tally in recap.luck:
        if not tally.rolls:
            continue
        mean = f" ({escape_inline(luck_stats.mean_sentence(tally))})" if tally.lucks else ""
        out.append(f"- {escape_inline(luck_stats.verdict_sentence(tally))}{mean}")
    if not recap.rolls:
        out.append(_("No roll this session."))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).rstrip() + "\n"


def recap_data(recap: Recap) -> dict[str, Any]:
    return {
        "campaign": recap.campaign, "system": recap.system, "session": recap.session, "current": recap.current,
        "gm": recap.gm, "changes": recap.changes, "timers": recap.timers, "fight": recap.fight,
        "joined": recap.joined, "left": recap.left, "labels": recap.labels, "rolls": recap.rolls,
        "hidden_rolls": recap.hidden_rolls, "criticals": [n.to_data() for n in recap.criticals],
        "luckiest": recap.luckiest.to_data() if recap.luckiest else None,
        "unluckiest": recap.unluckiest.to_data() if recap.unluckiest else None,
        "luck": [dict(t.to_data(), sentence=luck_stats.verdict_sentence(t)) for t in recap.luck if t.rolls],
        "warnings": recap.warnings,
    }

