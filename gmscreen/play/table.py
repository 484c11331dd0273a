"""The live table: one open campaign and everything the GM does with it, with no screen.

A `Table` holds what is live at the table — the session, the selected character, the
quick-roll line and its draft (or why it does not read), the roll in progress with its prompt,
the GM-only flag, whether the players watch, the history of lines — and performs every action
a GM takes: select, type a line, submit, choose, cancel, settle, move the turn, join the
fight, change, undo, redo, reveal, watch, close. What happens comes out as frozen events
(`gmscreen.play.events`), each saying who may see it; the screen, `gmscreen line` and
`gmscreen turn` and the tests all drive this one object and draw what its events say.

Nothing here raises for a refusal: the GM is told through a `Notice`, and nothing is half
done. No Textual.

    table = Table(open_session("mir.toml"))
    table.subscribe(print)
    table.select("loriane")
    table.type_line("éloquence sd3")
    table.submit()
    table.next_turn()
    table.close()
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable, Sequence

from gmscreen.i18n import _

from . import events as ev
from .public import Sight, Visibility, draft_sight, is_hidden, line_sight, roll_visibility, visibility
from .writes import Listener, TableWrites

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, RollRecord
    from gmscreen.campaign.session import CampaignSession

    from .encounter import TurnMove
    from .exchange import Draft, Prompt
    from .game import GameTable
    from .joins import Join
    from .quickroll.completion import Completion
    from .quickroll.grammar_base import QuickRollError
    from .table_roll import TableRoll
    from .tracks import TrackMove

HISTORY = 100                 # lines ↑ and `.` remember
HISTORY_SCAN = 500            # the newest rolls the history is rebuilt from after a restart


class Joiners:
    """Characters whose initiative was rolled (and logged), waiting to be added to the fight."""

    def __init__(self, people: list[tuple[str, str | None, int]], late: list[str], start: bool) -> None:
        self.people = people          # (name, character id or None, initiative)
        self.late = late              # names whose slot this round has passed: ask when they act
        self.start = start            # the fight starts once they are in

    @property
    def needs_when(self) -> bool:
        return bool(self.late)


class Table(TableWrites):
    """One open campaign at the table. `subscribe` to hear what happens."""

    def __init__(self, session: CampaignSession, *, rng: random.Random | None = None) -> None:
        super().__init__(session)
        from .tables import table_for

        # The campaign's game, found once here and handed to every engine the table drives
        # (the grammar, the tracks…); the engines never look it up themselves.
        self.game: GameTable = table_for(session.campaign.system)
        self.rng = rng if rng is not None else random.Random()
        self.selected: str | None = None
        self.gm_only = False
        self.watching = False
        self.line = ""
        self.draft: Draft | None = None
        self.error: QuickRollError | None = None
        self.roll: TableRoll | None = None
        self.history: list[str] = []
        self.last_line: str | None = None

    def undo(self) -> bool:
        return self._step("undo")

    def redo(self) -> bool:
        return self._step("redo")

    def _step(self, which: str) -> bool:
        from gmscreen.campaign.errors import CampaignError
        from gmscreen.campaign.session import ReadOnlyError

        if self.roll_waiting:
            # The roll spends from the sheet as it stood when rolled: undoing under it would let
            # it spend what the sheet no longer holds. The choice comes first.
            self.warn(_("a roll is waiting for a choice: answer it (or escape) before undoing") if which == "undo"
                      else _("a roll is waiting for a choice: answer it (or escape) before redoing"))
            return False
        try:
            change = self.session.undo() if which == "undo" else self.session.redo()
        except (ReadOnlyError, CampaignError) as exc:
            self.warn(str(exc))
            return False
        if change is None:
            self.warn(_("nothing to undo") if which == "undo" else _("nothing to redo"))
            return False
        said = _("undo: {change}") if which == "undo" else _("redo: {change}")
        if self.watching:          # named as the players may see it: a hidden change is not told
            from .public import public_label

            self.tell(said.format(change=public_label(change, self.session.campaign) or ""))
        else:
            self.tell(said.format(change=change.label))
        self.changed(which, change.label)
        return True

    def reveal(self, seq: int) -> bool:
        """Show a GM-only roll to the players from now on."""
        from gmscreen.campaign.errors import CampaignError
        from gmscreen.campaign.session import ReadOnlyError

        from .problem_words import problem_words

        if self.session.roll_by_seq(seq) is None:
            self.warn(_("cannot reveal roll {seq}: it is not in the log").format(seq=seq))
            return False
        try:
            self.session.reveal_roll(seq)
        except (ReadOnlyError, CampaignError) as exc:
            said = ("; ".join(problem_words(p, self.session.campaign, self.session.path) for p in exc.problems)
                    if isinstance(exc, CampaignError) else str(exc))
            self.warn(_("cannot reveal roll {seq}: {problem}").format(seq=seq, problem=said))
            return False
        record = self.session.roll_by_seq(seq)
        if record is not None:
            self.emit(ev.RollRevealed(record, visibility=visibility(record)))
        return True

    def changed(self, how: str, label: str = "") -> None:
        super().changed(how, label)
        if self.line.strip():
            self._read_line()              # a character, a resource or a condition may have moved

    # ------------------------------------------------------------ what is chosen

    def select(self, char_id: str | None) -> None:
        if char_id == self.selected:
            return
        self.selected = char_id
        self.emit(ev.SelectionChanged(char_id))
        if self.line.strip():
            self._read_line()

    def set_gm_only(self, on: bool) -> None:
        """The next rolls are for the GM only until set back (a roll waiting is logged so too)."""
        if on == self.gm_only:
            return
        self.gm_only = on
        if self.roll is not None:
            self.roll.set_gm_only(on)
        self.emit(ev.GmOnlyChanged(on))
        if self.line.strip():
            self._emit_draft()

    def toggle_gm_only(self) -> None:
        self.set_gm_only(not self.gm_only)

    def watch(self, on: bool | None = None) -> None:
        """The players see the screen (None: toggle)."""
        on = not self.watching if on is None else on
        if on == self.watching:
            return
        self.watching = on
        self.emit(ev.WatchingChanged(on))

    def choose_difficulty(self, value: int) -> None:
        """A row of the difficulty table: the line takes it (the tray puts it in its text)."""
        self.emit(ev.DifficultyChosen(value))

    # ------------------------------------------------------------ the line

    def type_line(self, text: str) -> None:
        """The quick-roll line as it now reads: its draft (or error) in a `DraftChanged`."""
        self.line = text
        self._read_line()

    def complete(self, text: str, cursor: int) -> Completion | None:
        """What completes the word at `cursor` of `text` (Tab), in the game's words; None when
        the line cannot say yet."""
        from .quickroll.completion import complete
        from .quickroll.grammar import QuickRollError

        try:
            return complete(text, cursor, self.session.campaign, game=self.game, selected=self.selected)
        except QuickRollError:
            return None

    def _read_line(self) -> None:
        from gmscreen.rules import RequestError

        from .quickroll.grammar import QuickRollError, parse

        self.draft, self.error = None, None
        if self.line.strip():
            try:
                self.draft = parse(self.line, self.session.campaign, game=self.game, selected=self.selected)
            except QuickRollError as exc:
                self.error = exc
            except RequestError as exc:
                self.error = QuickRollError("rule", 0, error=exc)
        self._emit_draft()

    def _emit_draft(self) -> None:
        self.emit(ev.DraftChanged(self.line, self.draft, self.error, visibility=self.draft_visibility()))

    def draft_visibility(self) -> Visibility:
        """Who may see the roll typed (or waiting for a choice): `sight`'s, without the sides
        (read on every key)."""
        draft = self.roll.draft if self.roll is not None else self.draft
        if draft is None:
            return line_sight(self.line, gm_only=self.gm_only).visibility
        return roll_visibility(gm_only=self.gm_only or draft.gm_only, hidden=is_hidden(draft.request))

    def sight(self) -> Sight:
        """What the players may see of the roll typed (or waiting for a choice): how much, and
        which of its sides they may not have named. Decided here, read by every surface."""
        draft = self.roll.draft if self.roll is not None else self.draft
        campaign = self.session.campaign
        if draft is None:
            return line_sight(self.line, gm_only=self.gm_only, campaign=campaign)
        return draft_sight(draft, gm_only=self.gm_only, campaign=campaign)

    @property
    def prompt(self) -> Prompt | None:
        return self.roll.prompt if self.roll is not None else None

    @property
    def roll_waiting(self) -> bool:
        """A roll waits for a choice (a reroll, Providence, a parry…)."""
        return self.roll is not None

    def submit(self, text: str | None = None) -> TableRoll | None:
        """Enter: the line read, rolled, its first choice asked or the roll logged. None, the
        reason in the `DraftChanged` (or a notice), when it cannot roll."""
        from gmscreen.rules import RequestError

        from .quickroll.grammar import QuickRollError
        from .table_roll import Refused, TableRoll

        if self.roll is not None:
            return None                     # a choice is open: it is answered first
        if text is not None:
            self.line = text
        if not self.line.strip():
            return None
        self._read_line()
        draft = self.draft
        if self.error is not None or draft is None:
            return None
        if draft.missing:
            self.error = QuickRollError("missing", 0, text=draft.missing)
            self._emit_draft()
            return None
        try:
            roll = TableRoll(self.session, draft, table=self, rng=self.rng, gm_only=self.gm_only).start()
        except RequestError as exc:
            self.error = QuickRollError("rule", 0, error=exc)
            self._emit_draft()
            return None
        except Refused as exc:              # the game forbids it now, in its own words (MIR R20)
            self.error = QuickRollError("refused", 0, text=str(exc))
            self._emit_draft()
            return None
        self.roll = roll
        self.remember(self.line)
        self._next_step()
        return roll

    def choose(self, key: str) -> bool:
        """One key of the open prompt ("enter": its default); False when it means nothing now."""
        from gmscreen.rules import RequestError

        from .messages import rule_message

        roll = self.roll
        if roll is None or roll.prompt is None:
            return False
        try:
            if not roll.choose(key):
                return False
        except RequestError as exc:
            self.warn(rule_message(exc), "error")
            self.cancel_roll()
            return True
        self._next_step()
        return True

    def cancel_roll(self) -> None:
        """Give up a roll waiting for a choice. Nothing is logged when no die was shown; dice the
        table saw are never dropped: the roll is logged as it stood, each choice at its default."""
        roll, self.roll = self.roll, None
        if roll is None:
            return
        kept = roll.pending is not None
        record = roll.abandon()
        self.emit(ev.RollEnded(record, kept, visibility=visibility(record) if record is not None
                               else self.draft_visibility()))
        if record is not None:
            self.show_record(record)

    def settle(self) -> None:
        """The campaign is closing with a choice open: each choice ends the roll as the table
        saw it (`Prompt.settles`: no new die rolled unseen) and the roll is logged, so dice the
        table has seen are not lost."""
        from gmscreen.rules import RequestError

        roll = self.roll
        if roll is None or roll.prompt is None or roll.result is None:
            return
        try:
            roll.settle()
        except RequestError:
            self.cancel_roll()
            return
        if roll.prompt is None and roll.result is not None:
            self._finish()

    def _next_step(self) -> None:
        roll = self.roll
        assert roll is not None
        if roll.prompt is not None:
            seen = self.draft_visibility()
            if roll.result is not None:
                self.emit(ev.RollShown(roll.draft, roll.result, None, pending=True, visibility=seen))
            self.emit(ev.PromptOpened(roll.draft, roll.prompt, roll.result, visibility=seen))
        else:
            self._finish()

    def _finish(self) -> None:
        roll = self.roll
        assert roll is not None and roll.result is not None
        self.roll = None
        roll.gm_only = self.gm_only or roll.draft.gm_only
        record = roll.finish()
        self.line, self.draft, self.error = "", None, None
        seen = visibility(record) if record is not None else roll_visibility(
            gm_only=roll.gm_only, hidden=is_hidden(roll.draft.request, roll.result))
        self.emit(ev.RollShown(roll.draft, roll.result, record, visibility=seen))
        self._emit_draft()

    def roll_line(self, text: str, *, keys: Sequence[str] = (), policy: str = "odds") -> TableRoll:
        """One line rolled to the log with no one at the keys (`gmscreen line`): each prompt takes
        the next of `keys`, then `policy`. Raises what `table_roll.roll_line` raises."""
        from .table_roll import roll_line

        roll = roll_line(self.session, text, selected=self.selected, keys=keys, policy=policy,
                         gm_only=self.gm_only, table=self, rng=self.rng, game=self.game)
        self.remember(text)
        return roll

    # ------------------------------------------------------------ history

    def remember(self, line: str) -> None:
        self.last_line = line
        if not self.history or self.history[-1] != line:
            self.history.append(line)
            del self.history[:-HISTORY]

    def take_history(self, lines: Iterable[str]) -> None:
        """Lines read back from the log (after a restart); lines typed meanwhile stay the newest."""
        lines = list(lines)
        logged = set(lines)
        self.history = (lines + [line for line in self.history if line not in logged])[-HISTORY:]
        if self.last_line is None and self.history:
            self.last_line = self.history[-1]

    def history_source(self) -> tuple[Sequence[RollRecord], Campaign]:
        """What the history is rebuilt from (the newest rolls, the campaign), for a thread."""
        return self.session.rolls[-HISTORY_SCAN:], self.session.campaign

    # ------------------------------------------------------------ the fight

    def next_turn(self) -> TurnMove | None:
        """`n`: the current actor has acted. None when the campaign takes no change; with nobody
        in the fight, a move whose `problem` says so (not told: see `fight_empty`)."""
        from .encounter import next_turn

        if not self.may_edit():
            return None
        # An empty fight is not told here: the screen offers to add people instead.
        return self._moved(next_turn(self.session, self.change), say_problem=not self.fight_empty)

    def previous_turn(self) -> TurnMove | None:
        """`p`: back to the actor before (right after `n`, exactly that `n` undone)."""
        from .encounter import previous_turn

        if not self.may_edit():
            return None
        return self._moved(previous_turn(self.session, self.change, self.undo))

    def _moved(self, move: TurnMove, *, say_problem: bool = True) -> TurnMove:
        if move.problem and say_problem:
            self.say_fight(move.problem)
        for notice in move.notices:
            self.say_fight(notice, "information")
        if move.kept:
            self.say_fight(_("changed since, left as it is: {what} (ctrl+z goes back step by step)").format(
                what=", ".join(move.kept)))
        if move.moved:
            self.select_current()
        return move

    def say_fight(self, text: str, severity: str = "warning") -> None:
        """A notice of the fight (a turn moved, a condition ended, someone joined), said as the
        players may see it: while they watch, a word in its place when it names a character
        hidden from them (`public_notice`); else as it is, secret when it names one."""
        from gmscreen.campaign.textsafe import clean

        from .public import public_notice

        shown = public_notice(text, self.session.campaign)
        if self.watching:
            self.warn(shown, severity)
        else:
            self.warn(text, severity, secret=shown != clean(text))

    def as_seen(self, text: str) -> str:
        """`text` as the screen may show it now (a dialog's question, its options): while the
        players watch, a character hidden from them is not named."""
        from .public import public_names

        return public_names(text, self.session.campaign) if self.watching else text

    def roll_initiative(self, who: str) -> int | None:
        """The campaign's initiative expression rolled and logged for `who`; None, the GM told
        why, when it cannot (`play.encounter`)."""
        from .encounter import roll_initiative

        return roll_initiative(self, self.session, who)

    def select_current(self) -> None:
        """The fight's current actor becomes the selected character (as the screen follows
        the turn), so that a line without a name is theirs; nothing changes outside a fight."""
        from .encounter import current_character

        char_id = current_character(self.session.campaign)
        if char_id:
            self.select(char_id)

    # ------------------------------------------------------------ damage tracks

    def add_track(self, char_id: str, name: str, maximum: int) -> TrackMove | None:
        """A damage track on a character (`play.tracks`); None when the campaign takes no change."""
        from .tracks import add_track

        if not self.may_edit():
            return None
        return self._tracked(add_track(self.session.campaign, char_id, name, maximum, self.change, game=self.game))

    def move_track(self, char_id: str, delta: int, position: int = 0) -> TrackMove | None:
        """`+`/`-` on a character's track: hits taken or healed, defeat said."""
        from .tracks import move_track

        if not self.may_edit():
            return None
        return self._tracked(move_track(self.session.campaign, char_id, delta, self.change, position, game=self.game))

    def remove_track(self, char_id: str, position: int) -> TrackMove | None:
        """A track taken off a character."""
        from .tracks import remove_track

        if not self.may_edit():
            return None
        return self._tracked(remove_track(self.session.campaign, char_id, position, self.change))

    def _tracked(self, move: TrackMove) -> TrackMove:
        if move.problem:
            self.say_fight(move.problem)
        for notice in move.notices:            # "Callia is defeated": not named if hidden from watching players
            self.say_fight(notice, "information")
        return move

    @property
    def fight_empty(self) -> bool:
        return not self.session.campaign.encounter.entries

    def join_groups(self) -> list[tuple[str, list[str]]]:
        """The groups that may join the fight now, each with the names of those not in it yet."""
        from .joins import GROUPS, candidates

        campaign = self.session.campaign
        found = []
        for group in GROUPS:
            people = candidates(campaign, group, self.selected)
            if people:
                found.append((group, [c.name for c in people]))
        return found

    def nobody_to_join(self) -> None:
        """Said when `join_groups` is empty."""
        self.warn(_("nobody to add: everyone is already in the fight") if self.session.campaign.characters
                  else _("nobody in the initiative order: a to add"))

    def roll_joiners(self, group: str, *, start: bool = False) -> Joiners | None:
        """Roll (and log) the initiative of each one of `group` not in the fight yet."""
        from .joins import candidates, roll_joiners

        if not self.may_edit():
            return None
        people = roll_joiners(self, self.session, candidates(self.session.campaign, group, self.selected))
        return None if people is None else self.joiners(people, start=start)

    def joiners(self, people: list[tuple[str, str | None, int]], *, start: bool = False) -> Joiners:
        """`people` ((name, character id or None, initiative)) about to join."""
        from .joins import slot_passed

        campaign = self.session.campaign
        late = [name for name, _c, initiative in people if slot_passed(campaign, initiative)]
        return Joiners(people, late, start)

    def add_joiners(self, joiners: Joiners, when: str | None = None) -> Join | None:
        """Add them in one change (`when`: THIS_ROUND or NEXT_ROUND for those whose slot passed;
        None: the GM gave the question up, nobody is added); then start the fight if asked."""
        from .joins import NEXT_ROUND, join

        if when is None and joiners.needs_when:
            self.warn(_("nobody added"), "information")
            return None
        result = join(self, self.session, joiners.people, when or NEXT_ROUND)
        if result.problem:
            self.warn(result.problem)
        for notice in result.notices:
            self.say_fight(notice, "information")
        campaign = self.session.campaign
        if not result.problem and joiners.start and campaign.encounter.round == 0 and campaign.encounter.entries:
            self.next_turn()
        return result

    # ------------------------------------------------------------ closing

    def recover_pending(self) -> RollRecord | None:
        """Dice shown before a crash, logged as they stood (the GM told)."""
        recovered = self.session.recover_pending()
        if recovered is not None:
            secret = recovered.gm_only or bool(recovered.result.get("hidden"))
            what = _("the GM's secret roll") if secret else f"{recovered.who} · {recovered.line}"
            self.warn(_("roll shown before the stop, logged as it stood: {roll}").format(roll=what))
            self.emit(ev.RollLogged(recovered, visibility=visibility(recovered)))
        return recovered

    def close(self) -> None:
        """The campaign closes: a roll waiting is settled and logged, then the session closed."""
        if not self.session.closed:
            self.settle()
        self.session.close()
        self._listeners.clear()


__all__ = ["HISTORY", "Joiners", "Listener", "Table"]
