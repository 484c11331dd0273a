"""One quick-roll line rolled at the table, from its text to the log, with no screen.

Enter in the dice tray, `gmscreen line` and the tests go through the same steps: the line read
into a `Draft`, the `RollFlow` with its choices (each prompt answered by a key, or by a policy),
the roll shown while a choice is open kept on disk first (`X.pending.toml`, so a crash loses no
dice the table saw), then the log, the spending as one undoable change, and the timer an
extended test starts. Writes go through a `RollTable`: the live `Table` (the screen's, `gmscreen line`'s),
or a bare `TableWrites` of the session when the roll is played alone.
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any, Callable, Sequence

from gmscreen.i18n import _, ngettext
from gmscreen.rules import RequestError, get_system

from .effects import noted
from .public import noted_sides, timer_fields
from .roll_sides import with_sides
from .quickroll.choices import RollFlow, spending
from .quickroll.grammar import Draft, QuickRollError, parse
from .writes import RollTable, TableWrites

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, RollRecord
    from gmscreen.campaign.pending import PendingRoll
    from gmscreen.campaign.session import CampaignSession, EditBuilder

    from .exchange import Option, Prompt, Spend
    from .game import GameTable

# How `roll_line` answers a prompt no key was given for.
POLICIES = ("odds", "enter")


class ChoiceError(ValueError):
    """A key given for a prompt that has no such option."""


class Refused(ValueError):
    """The game forbids this roll now, and says why (MIR R20: a day-long extended test during a
    fight); nothing was rolled."""


def read_line(campaign: Campaign, text: str, *, selected: str | None = None, game: GameTable | None = None) -> Draft:
    """The line as the tray reads it, by `game` (None: the campaign's, found here: this is the
    edge a script or a test reads a line through); a refusal of the rules is said as a line
    error too. Raises `QuickRollError`."""
    if game is None:
        from .tables import table_for

        get_system(campaign.system)        # an unknown system: the rules' one clear error
        game = table_for(campaign.system)
    try:
        return parse(text, campaign, game=game, selected=selected)
    except RequestError as exc:
        raise QuickRollError("rule", 0, error=exc) from None


class TableRoll:
    """One roll from Enter to the log. `start()`, then `choose(key)` while `prompt` is set (or
    `settle()`), then `finish()`; `abandon()` gives it up. Rules errors (`RequestError`) come
    out of `start` and `choose` as they are."""

    def __init__(self, session: CampaignSession, draft: Draft, *, table: RollTable | None = None,
                 rng: random.Random | None = None, gm_only: bool = False) -> None:
        self.session = session
        self.draft = draft
        self.table: RollTable = table if table is not None else TableWrites(session)
        self.flow = RollFlow(draft, rng if rng is not None else random.Random())
        self.gm_only = gm_only or draft.gm_only     # the tray may change it until the roll is logged
        self.pending: PendingRoll | None = None     # the roll shown and waiting, as kept on disk
        self.record: RollRecord | None = None
        self.spends: list[Spend] = []
        self.timer: str | None = None               # the id of the timer the roll started
        self.answers: list[tuple[Prompt, Option]] = []   # each prompt asked, and the option taken

    @property
    def prompt(self) -> Prompt | None:
        return self.flow.prompt

    @property
    def result(self) -> dict[str, Any] | None:
        return self.flow.result

    @property
    def shown(self) -> bool:
        """Dice are on the table: the roll can no longer be dropped, only logged."""
        return self.flow.result is not None

    # ------------------------------------------------------------ the flow

    def start(self) -> TableRoll:
        """Roll what comes before the first choice. Refused (nothing rolled) when the line
        starts a test timer the game forbids now: the refusal `r` gives on such a timer."""
        self.refuse_if_forbidden()
        self.flow.start()
        self._keep_pending()
        return self

    def refuse_if_forbidden(self) -> None:
        """Refused when the line starts a test timer its game forbids now (MIR R20)."""
        from .timers import start_refusal

        draft = self.draft
        if draft.timer is not None:
            refusal = start_refusal(self.session.campaign, draft.timer, draft.request, game=draft.table)
            if refusal is not None:
                raise Refused(refusal)

    def choose(self, key: str) -> bool:
        """One key of the open prompt ("enter": its default); False when it means nothing now."""
        prompt = self.flow.prompt
        option = prompt.option(key) if prompt is not None else None
        if not self.flow.choose(key):
            return False
        if prompt is not None and option is not None:
            self.answers.append((prompt, option))
        self._keep_pending()
        return True

    def settle(self) -> TableRoll:
        """Every open choice ended as the table saw it (`Prompt.settles`: the campaign is closing)."""
        self.flow.settle()
        return self

    def policy_key(self, policy: str = "odds") -> str:
        """The key `policy` takes at the open prompt: "odds", the way of playing the odds shown
        while typing assume (`RollRules.policy_key`); "enter", the prompt's default."""
        return _policy_key(self.flow, policy)

    def play(self, keys: Sequence[str] = (), policy: str | None = "odds") -> TableRoll:
        """Answer the prompts: `keys` first, one a prompt, then `policy` for the others (None:
        stop at the next open prompt). ChoiceError for a key the prompt does not offer, or
        for keys left once the roll asks no more."""
        _answer(self.flow, keys, policy, self.choose)
        return self

    def rehearse(self, keys: Sequence[str] = (), policy: str | None = "odds") -> None:
        """Before `start()`: the roll played through with `keys` and `policy` on a twin of its
        flow, which draws the very dice the roll will, so a key that will not fit (one the
        prompt does not offer, one too many) is refused while nothing is shown, logged or
        kept. Raises ChoiceError, or RequestError when the rules refuse a step; writes nothing."""
        assert self.flow.result is None and self.flow.prompt is None, "rehearse() a roll already started"
        twin = self.flow.twin().start()
        _answer(twin, keys, policy, twin.choose)

    # ------------------------------------------------------------ to the log

    def finish(self) -> RollRecord | None:
        """Log the roll, spend its resources as one undoable change, start its timer; the
        record (None when it could not be logged: the table was told why)."""
        flow = self.flow
        assert flow.result is not None and flow.prompt is None, "finish() a roll still asking"
        draft, result = flow.draft, flow.result
        pending = self.pending
        if pending is not None:
            # The file holds what is logged now (a choice other than the default changes it), so
            # a crash between logging and spending is repaired exactly on the next opening.
            final = self._pending_of(flow, pending)
            if final != pending:
                self._write_pending(final)
            pending = final
        self.pending = None
        record = self.table.record_roll(who=draft.who, line=draft.line, request=flow.request,
                                        result=logged(result, draft, self.session.campaign),
                                        gm_only=self.gm_only, seed=flow.seed,
                                        pending=pending.id if pending else None)
        self.record = record
        self.spends = spending(draft, result, self.session.campaign) + flow.gains
        self._spend(" · ".join(s.text for s in self.spends), [(s.path, s.after) for s in self.spends])
        if pending is not None and record is not None:
            self.session.clear_pending()
        if draft.timer is not None:
            self._start_timer(draft, flow.request, result)
        return record

    def abandon(self) -> RollRecord | None:
        """Give the roll up. Nothing is logged when no die was shown (a choice asked before
        the roll); dice the table saw are never dropped: the roll is logged as kept on disk,
        each choice ended as the table saw it (`Prompt.settles`), with its spending. Returns
        that record, or None."""
        pending, self.pending = self.pending, None
        if pending is None:
            return None
        record = self.table.record_roll(who=pending.who, line=pending.line, request=pending.request,
                                        result=pending.result, gm_only=pending.gm_only, seed=pending.seed,
                                        pending=pending.id)
        self._spend(" · ".join(s.text for s in pending.spends), [(s.path, s.after) for s in pending.spends])
        if record is not None:
            self.session.clear_pending()
        self.record = record
        return record

    def _spend(self, label: str, values: list[tuple[tuple, Any]]) -> None:
        if not values:
            return

        def build(b: EditBuilder) -> None:
            for path, after in values:
                b.set(path, after)

        if self.table.change(label, build) and self.gm_only:
            change = self.session.last_change       # players watching: its label names the secret roll's
            if change is not None:                  # spending (Providence D6 → D4)
                change.secret = True

    def _start_timer(self, draft: Draft, request: dict[str, Any], result: dict[str, Any]) -> None:
        """An extended test starts a timer holding its request and the dice of its first interval."""
        from .encounter import slugify, unique_slug
        from .timers import status_of

        assert draft.timer is not None
        kind = get_system(draft.system).kinds[draft.kind]
        dice = {k: result[k] for k in kind.dice_fields if k in result}
        base = {k: v for k, v in request.items() if k not in kind.dice_fields}
        test = draft.table.fight.timed_test(str(draft.timer.get("kind", "")))
        fields = test.start_fields(base, draft.unconditioned, result) if test is not None else {"request": base}
        taken = {t.id for t in self.session.campaign.timers}
        timer_id = unique_slug(slugify(draft.timer["label"], "test"), taken)
        # What the players may see of it is decided now, with the roll: GM-only with it, its
        # request keeping `hidden`, the sides a hidden character plays (`gmscreen.play.public`).
        timer = {"id": timer_id, **draft.timer, "dice": dice, "status": status_of(result), **fields,
                 **timer_fields(draft, gm_only=self.gm_only)}
        timer = {k: v for k, v in timer.items() if v is not None}
        if self.table.change(_("Timer: {label}").format(label=draft.timer["label"]),
                             lambda b: b.insert(("timers",), None, timer)):
            self.timer = timer_id

    def set_gm_only(self, on: bool) -> None:
        """GM-only set (or unset) while the roll waits: logged so, and the copy kept on disk
        says so too, so a crash or a roll given up after its dice keeps it secret."""
        from dataclasses import replace

        self.gm_only = on or self.draft.gm_only
        if self.pending is not None and self.pending.gm_only != self.gm_only:
            self._write_pending(replace(self.pending, gm_only=self.gm_only))

    # ------------------------------------------------------------ the roll shown, kept on disk

    def _keep_pending(self) -> None:
        """Before dice are shown with a choice still open: the roll they belong to, each choice
        ended as the table saw it (what `q` or a signal would log), is written to
        `X.pending.toml`; a SIGKILL or a power cut then loses nothing, the next opening logs it
        (`CampaignSession.recover_pending`)."""
        flow = self.flow
        if flow.prompt is None or flow.result is None:
            return
        try:
            settled = flow.settled()
        except RequestError:
            settled = flow                       # the next choice fails: the roll as it stands
        if settled.result is None:
            settled = flow
        pending = self._pending_of(settled, self.pending)
        if pending != self.pending:
            self._write_pending(pending)

    def _pending_of(self, flow: RollFlow, old: PendingRoll | None) -> PendingRoll:
        """The record of `flow` as logged now, under the id (and time shown) of `old`."""
        from gmscreen.campaign.pending import PendingRoll, PendingSpend, new_pending_id
        from gmscreen.campaign.rolllog import now_iso

        assert flow.result is not None
        draft = flow.draft
        spends = tuple(PendingSpend(tuple(s.path), s.after, s.text)
                       for s in spending(draft, flow.result, self.session.campaign) + flow.gains)
        return PendingRoll(old.id if old else new_pending_id(), old.time if old else now_iso(),
                           self.session.campaign.session, draft.who, draft.line, copy.deepcopy(flow.request),
                           copy.deepcopy(logged(flow.result, draft, self.session.campaign)), self.gm_only, flow.seed,
                           spends)

    def _write_pending(self, pending: PendingRoll) -> None:
        from gmscreen.campaign.errors import CampaignError

        self.pending = pending
        try:
            self.session.write_pending(pending)
        except CampaignError as exc:
            self.table.warn(_("roll shown but not kept safe: {problems}")
                            .format(problems="; ".join(str(p) for p in exc.problems)), "error")


def _policy_key(flow: RollFlow, policy: str = "odds") -> str:
    if policy not in POLICIES:
        raise ValueError(f"unknown choice policy {policy!r} (expected one of {', '.join(POLICIES)})")
    return flow.rules.policy_key(flow) if policy == "odds" else "enter"


def _answer(flow: RollFlow, keys: Sequence[str], policy: str | None, choose: Callable[[str], bool]) -> None:
    """Each prompt of `flow` answered through `choose`: the next of `keys`, then `policy`."""
    keys = list(keys)
    for _step in range(50):
        prompt = flow.prompt
        if prompt is None or (not keys and policy is None):
            break
        key = keys.pop(0) if keys else _policy_key(flow, policy)  # type: ignore[arg-type]
        if not choose(key):
            offered = ", ".join(f"{o.key} ({o.label})" for o in prompt.options)
            raise ChoiceError(_("no choice {key} at “{question}”: expected {offered}")
                              .format(key=repr(key), question=prompt.question, offered=offered))
    if keys:
        raise ChoiceError(ngettext("{n} choice left over ({keys}): the roll asked no more",
                                   "{n} choices left over ({keys}): the roll asked no more", len(keys))
                          .format(n=len(keys), keys=", ".join(map(repr, keys))))


def logged(result: dict[str, Any], draft: Draft, campaign: Campaign | None = None) -> dict[str, Any]:
    """The result as the log keeps it: the conditions applied (`effects.noted`), the sides a
    hidden character plays (`public.noted_sides`), and the other characters who rolled dice in it
    (`roll_sides`: the opponent, helpers with dice of their own)."""
    opponent = next((s.name for s in draft.sides if s.role == "opponent" and s.character is not None), None)
    return with_sides(noted_sides(noted(result, draft), draft, campaign), opponent, draft.dice_helpers)


def roll_line(session: CampaignSession, text: str, *, selected: str | None = None, keys: Sequence[str] = (),
              policy: str = "odds", gm_only: bool = False, table: RollTable | None = None,
              rng: random.Random | None = None, game: GameTable | None = None) -> TableRoll:
    """Roll one quick-roll line on `session` exactly as the tray would, and log it (read by
    `game`; None: the campaign's, as `read_line` finds it).

    Each prompt takes the next of `keys`, then `policy` ("odds": the choice the odds shown while
    typing assume; "enter": each prompt's default, as Enter). Raises `QuickRollError` for a line
    that does not read (or lacks its difficulty), `ChoiceError` for a key the prompt does not
    offer or a key too many, `RequestError` when the rules refuse the roll, and `Refused` when
    the game forbids it now (MIR R20): all of them before anything is shown or written (the
    roll is rehearsed first, on the very dice it will draw). Once dice are shown nothing
    raises: the roll is logged. The roll returned holds its record, spends and timer; what
    could not be written is told as a `Notice` by `table`."""
    if policy not in POLICIES:
        raise ValueError(f"unknown choice policy {policy!r} (expected one of {', '.join(POLICIES)})")
    draft = read_line(session.campaign, text, selected=selected, game=game)
    if draft.missing:
        raise QuickRollError("missing", 0, text=draft.missing)
    roll = TableRoll(session, draft, table=table, rng=rng, gm_only=gm_only)
    roll.refuse_if_forbidden()
    roll.rehearse(keys, policy)
    roll.start()
    try:
        roll.play(keys, policy)
    except (ChoiceError, RequestError) as exc:    # not as rehearsed: the dice shown are kept all the same
        if roll.abandon() is None:
            raise
        roll.table.warn(_("the roll is logged as it stood: {problem}").format(problem=exc), "error")
        return roll
    roll.finish()
    return roll
