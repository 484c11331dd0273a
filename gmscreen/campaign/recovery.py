"""What a stop left beside the campaign — the journal's changes, a pending roll — checked
before any of it is applied.

Both files can come from elsewhere (another campaign's journal copied with a folder, a hand
edit, a file a shared folder carries), so neither is trusted: a journal op is applied only when
the value it finds is the `old` it recorded, and the campaign the journal gives must pass the
validator (the same that reads the file) before anything is shown or written; a pending roll
must name this campaign and its game, and its spending must give a valid campaign too. What
does not fit is applied not at all, never in part: the caller says so in one line (and, when
it holds the campaign, sets the file aside).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from gmscreen.i18n import _

from .changes import Change, ChangeError, Op, apply_op, get, set_op
from .errors import CampaignError, Problem
from .journal import JournalEntry
from .model import Campaign, to_data

# A value in an op that has no business in a campaign makes apply_op fail in many ways.
_APPLY_ERRORS = (ChangeError, KeyError, IndexError, TypeError, AttributeError, ValueError, RecursionError)


def same(a: Any, b: Any) -> bool:
    """Plain data equal, a boolean never equal to a number (TOML tells them apart)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _where(path: tuple) -> str:
    from .validate import format_path

    return format_path(path) or "."


def _shown(value: Any) -> str:
    text = repr(value) if value is not None else _("nothing")
    return text if len(text) <= 40 else text[:37] + "..."


def _current(campaign: Campaign, op: Op) -> tuple[bool, Any]:
    """(whether the op records an old value to compare, the value it finds now)."""
    path = tuple(op.path)
    if op.op == "set":
        if not path:
            raise ChangeError(_("an empty path"))
        parent = get(campaign, path[:-1])
        if isinstance(parent, dict):
            return True, parent.get(path[-1])
        return True, get(campaign, path)
    if op.op == "delete":
        target = get(campaign, path)
        if not isinstance(target, list) or type(op.index) is not int or not 0 <= op.index < len(target):
            raise ChangeError(_("{where}: no item {index} to delete").format(where=_where(path), index=op.index))
        return True, target[op.index]
    return False, None


def apply_checked(campaign: Campaign, op: Op) -> None:
    """Apply `op` only if the value it finds is the `old` it recorded; ChangeError (saying
    what was expected and found) otherwise, or when it does not apply at all."""
    try:
        compared, now = _current(campaign, op)
        if compared and not same(to_data(now), op.old):
            raise ChangeError(_("{where}: the journal expects {old}, the campaign holds {now}").format(
                where=_where(tuple(op.path)), old=_shown(op.old), now=_shown(to_data(now))))
        apply_op(campaign, op)
    except ChangeError:
        raise
    except _APPLY_ERRORS as exc:
        raise ChangeError(f"{_where(tuple(op.path))}: {exc}") from None


def fits(campaign: Campaign, file: str) -> list[Problem]:
    """The errors the validator finds in `campaign` as a file would hold it (none: it fits)."""
    from .store import campaign_data
    from .validate import parse_campaign

    try:
        import tomli_w

        text = tomli_w.dumps(campaign_data(campaign))
    except (TypeError, ValueError, RecursionError) as exc:
        return [Problem(file, "", _("cannot be written as TOML: {error}").format(error=exc))]
    try:
        parse_campaign(text, file)
    except CampaignError as exc:
        # Lines would be those of the text made here, not of any file: none given.
        return [Problem(file, p.path, p.message) for p in exc.problems if not p.warning]
    return []


def _copy_into(campaign: Campaign, source: Campaign) -> None:
    for f in dataclasses.fields(campaign):
        setattr(campaign, f.name, getattr(source, f.name))


def replay(campaign: Campaign, entries: list[JournalEntry], file: str = "journal") -> tuple[
        list[Change], list[Change], list[JournalEntry], list[Problem]]:
    """Apply the journal entries beyond `campaign.revision`, in order, and rebuild the undo and
    redo stacks: (undo, redo, applied entries, problems).

    All or nothing: an entry that does not follow the campaign's revision, an op whose `old`
    is not the value it finds, or a result the validator refuses leaves `campaign` exactly as
    it was, with nothing applied and one problem saying why.
    """
    todo = [(i, e) for i, e in enumerate(entries) if e.revision > campaign.revision]
    if not todo:
        return [], [], [], []       # all in the saved state already (a crash between save and truncation)
    work = copy.deepcopy(campaign)
    undo: list[Change] = []
    redo: list[Change] = []
    applied: list[JournalEntry] = []
    for i, entry in todo:
        where = f"change[{i}]"
        if entry.revision != work.revision + 1:
            return [], [], [], [Problem(file, where, _("revision {revision} does not follow the campaign's revision "
                                                       "{campaign}").format(revision=entry.revision,
                                                                            campaign=work.revision))]
        try:
            for op in entry.ops:
                apply_checked(work, op)
        except ChangeError as exc:
            return [], [], [], [Problem(file, where, _("change {label} (revision {revision}) does not fit the "
                                                       "campaign: {error}").format(
                label=repr(entry.label), revision=entry.revision, error=exc))]
        work.revision = entry.revision
        applied.append(entry)
        change = entry.change
        if entry.action == "do":
            undo.append(change)
            redo.clear()
        elif entry.action == "undo":
            # The entry holds the inverse that was applied; the undone change is its inverse.
            redo.append(undo.pop() if undo else change.inverse())
        else:
            if redo:
                redo.pop()
            undo.append(change)
    wrong = fits(work, file)
    if wrong:
        first = wrong[0]
        said = f"{first.path}: {first.message}" if first.path else first.message
        return [], [], [], [Problem(file, "", _("its changes would make the campaign invalid: {problem}").format(
            problem=said))]
    _copy_into(campaign, work)
    return undo, redo, applied, []


def pending_misfit(pending: Any, campaign: Campaign, campaign_file: str, file: str) -> str | None:
    """Why a pending roll does not belong to this campaign or would spoil it; None when it fits.

    It must name this campaign (`campaign_file`, the file's name) and its game, be of a
    session the campaign had, and its spending must apply and give a valid campaign."""
    if pending.campaign != campaign_file:
        return _("it names the campaign {named}, not {name}").format(named=_shown(pending.campaign),
                                                                    name=_shown(campaign_file))
    games = {pending.game, pending.request.get("system", campaign.system), pending.result.get("system",
                                                                                            campaign.system)}
    if games != {campaign.system}:
        other = next(g for g in (pending.game, pending.request.get("system"), pending.result.get("system"))
                     if g != campaign.system)
        return _("it is a roll of {game}, the campaign plays {system}").format(game=_shown(other),
                                                                              system=_shown(campaign.system))
    if not 1 <= pending.session <= campaign.session:
        return _("session {n}: the campaign has had sessions 1 to {current}").format(n=pending.session,
                                                                                   current=campaign.session)
    if not pending.spends:
        return None
    work = copy.deepcopy(campaign)
    try:
        for spend in pending.spends:
            apply_checked(work, set_op(work, tuple(spend.path), spend.after))
    except _APPLY_ERRORS as exc:
        return _("its spending does not apply: {error}").format(error=exc)
    wrong = fits(work, file)
    if wrong:
        first = wrong[0]
        return _("its spending would make the campaign invalid: {problem}").format(
            problem=f"{first.path}: {first.message}" if first.path else first.message)
    return None


def replay_journal(campaign: Campaign, journal: Any) -> tuple[list[Change], list[Change], list[JournalEntry],
                                                              list[Problem]]:
    """`replay` of a loaded `Journal`: one damaged before its last entry (lost entries, so
    the state it gives is not the GM's) is applied not at all either, one problem saying so."""
    if journal.damaged:
        first = journal.warnings[0]         # (a torn last entry, which a crash leaves, comes last)
        return [], [], [], [Problem(first.file, first.path, _("an entry before the last one is damaged "
                                                              "({problem})").format(problem=first.message),
                                    first.line)]
    return replay(campaign, journal.entries, str(journal.path))
