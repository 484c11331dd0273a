"""`gmscreen validate`, `export`, `new` and the logging half of `roll --campaign`.

Each command returns an exit status (0 fine, 2 bad input) and prints every problem on its
own line on stderr as `FILE:LINE: key.path: what was expected`; never a traceback.
`validate` and `export` only read: not even a lock file is created.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, TextIO

from gmscreen.i18n import _, ngettext, os_reason

from .errors import CampaignError, Problem
from .export import markdown_pieces
from .journal import Journal, journal_path
from .lock import lock_path
from .model import Campaign, RollRecord
from .rolllog import RollLog, append_one, rolls_path
from .recovery import replay_journal
from .store import backup_path, create_campaign_file, load_campaign_with_warnings, write_atomic


def _print_problems(problems: list[Problem], err: TextIO) -> None:
    for p in problems:
        print(str(p), file=err)


def _load_with_journal(path: Path) -> tuple[Campaign, list[Problem], list[Problem]]:
    """(campaign as the GM last saw it, warnings, errors): state file + journal replayed in memory."""
    campaign, warnings = load_campaign_with_warnings(path)
    journal = Journal.load(journal_path(path))
    warnings = warnings + journal.warnings
    _state, _undo, _redo, errors = replay_journal(campaign, journal)
    errors = [Problem(p.file, p.path, _("{problem}: none of its changes is applied; the screen sets the journal "
                                        "aside when it opens the campaign").format(problem=p.message), p.line)
              for p in errors]
    return campaign, warnings, errors


def cmd_validate(path: str | Path, *, out: TextIO | None = None, err: TextIO | None = None,
                 checks: Callable[[Campaign, Path], list[Problem]] | None = None) -> int:
    """Check the campaign, its journal and its roll log. 0: valid (warnings allowed), 2: not.
    `checks`: the play layer's own (condition effects its systems cannot read), given by the
    command line, since this layer does not know the table. The roll log is read a piece at a
    time (`rollstream`), each of its problems said as it is found: memory stays the same with
    a million rolls."""
    from .rollstream import RollStream
    from .validate import validate_file

    out = out or sys.stdout
    err = err or sys.stderr
    path = Path(path)
    problems = list(validate_file(path))
    if any(not p.warning for p in problems):
        _print_problems(problems, err)
        return 2
    try:
        campaign, warnings, journal_errors = _load_with_journal(path)
    except CampaignError as exc:
        _print_problems(problems + exc.problems, err)
        return 2
    _print_problems(problems + [w for w in warnings if w not in problems] + journal_errors, err)
    log = RollStream(rolls_path(path), on_problem=lambda p: print(str(p), file=err))
    try:
        for _roll in log.rolls():
            pass
    except CampaignError as exc:
        _print_problems(exc.problems, err)
        return 2
    if checks is not None:
        _print_problems(checks(campaign, path), err)
    if journal_errors:
        return 2
    characters, rolls = len(campaign.characters), log.count
    print(_("{file}: valid ({system}, {characters}, {rolls} in the log)").format(
        file=path, system=campaign.system,
        characters=ngettext("{n} character", "{n} characters", characters).format(n=characters),
        rolls=ngettext("{n} roll", "{n} rolls", rolls).format(n=rolls)), file=out)
    return 0


def cmd_export(path: str | Path, out: str | Path | None = None, *, reveal_all: bool = False,
               stdout: TextIO | None = None, err: TextIO | None = None, session: int | None = None) -> int:
    """The notes and the roll log as Markdown, to stdout or to the file `out`; `session`: that
    session's rolls only (read without reading the rest of the log). The whole log is read a
    piece at a time (`rollstream`) and written as it is made: a million rolls cost the memory
    of a few."""
    from .rollstream import RollStream

    stdout = stdout or sys.stdout
    err = err or sys.stderr
    path = Path(path)
    target = None if out is None or str(out) == "-" else Path(out)
    if target is not None:
        from .history import history_path

        own = {p.absolute() for p in (path, backup_path(path), rolls_path(path), journal_path(path),
                                      lock_path(path), history_path(path))}
        if target.absolute() in own:
            print(_("{file}: is one of the campaign's own files: choose another output file").format(file=target),
                  file=err)
            return 2
    try:
        campaign, warnings, errors = _load_with_journal(path)
        if session is None:
            log = RollStream(rolls_path(path), on_problem=lambda p: print(str(p), file=err))
            _print_problems(warnings + errors, err)
            pieces = markdown_pieces(campaign, log.rolls(), reveal_all=reveal_all, revealed=log.revealed)
            first = next(pieces)            # every roll read: the log's own errors come before any output
        else:
            one = RollLog.load_session(rolls_path(path), session)
            _print_problems(warnings + errors + one.warnings, err)
            pieces = markdown_pieces(campaign, one.records, reveal_all=reveal_all)
            first = next(pieces)
    except CampaignError as exc:
        _print_problems(exc.problems, err)
        return 2
    if target is None:
        stdout.write(first)
        for piece in pieces:
            stdout.write(piece)
        return 0
    try:
        write_atomic(target, _encoded(first, pieces), backup=False)
    except OSError as exc:
        print(_("{file}: cannot write: {reason}").format(file=target, reason=os_reason(exc)), file=err)
        return 2
    return 0


def _encoded(first: str, rest: Iterator[str]) -> Iterator[bytes]:
    """The pieces of a document as UTF-8, a quarter of a megabyte at a time."""
    batch = [first]
    size = len(first)
    for piece in rest:
        batch.append(piece)
        size += len(piece)
        if size >= 1 << 18:
            yield "".join(batch).encode("utf-8")
            batch, size = [], 0
    yield "".join(batch).encode("utf-8")


def cmd_new(path: str | Path, system: str, name: str | None = None, *, out: TextIO | None = None,
            err: TextIO | None = None, template: Callable[[Campaign], str] | None = None) -> int:
    """Create an empty campaign for `system`; never overwrites anything. `template`: the file's
    text for the new campaign (gmscreen.play.template: commented, in the game's words); without
    it, the bare dump."""
    from ..rules import get_system
    from .validate import new_campaign, parse_campaign

    out = out or sys.stdout
    err = err or sys.stderr
    path = Path(path)
    for existing in (path, rolls_path(path), journal_path(path)):
        if existing.exists():
            print(_("{file}: already exists: nothing written (choose another name, or move it away)").format(
                file=existing), file=err)
            return 2
    if name is None:
        stem = path.name[:-5] if path.name.endswith(".toml") else path.name
        name = " ".join(stem.replace("_", " ").replace("-", " ").split()) or _("New campaign")
    try:
        campaign = new_campaign(name, system)
    except CampaignError as exc:
        _print_problems([Problem(str(path), "system", p.message, None, p.warning) for p in exc.problems], err)
        return 2
    try:
        if template is None:
            create_campaign_file(campaign, path)
        else:
            text = template(campaign)
            parse_campaign(text, str(path))     # what is written loads: checked like any file
            write_atomic(path, text.encode("utf-8"), backup=False, exclusive=True)
    except FileExistsError:
        print(_("{file}: already exists: nothing written").format(file=path), file=err)
        return 2
    except (OSError, CampaignError) as exc:
        message = os_reason(exc)
        print(_("{file}: cannot create: {reason}").format(file=path, reason=message), file=err)
        return 2
    try:
        game = get_system(system).game
    except Exception:   # only for the message: the campaign is already written
        game = system
    print(_("{file}: new {game} campaign \"{name}\" (format {format})").format(
        file=path, game=game, name=name, format=campaign.format), file=out)
    return 0


def append_roll(path: str | Path, *, who: str, line: str, request: Mapping[str, Any], result: Mapping[str, Any],
                seed: int | None = None, gm_only: bool = False, err: TextIO | None = None) -> RollRecord:
    """Record one roll in the campaign's log (`gmscreen roll --campaign`); raises CampaignError.

    Works while the screen has the campaign open: appends are serialised by a lock on the
    log itself, and the screen picks the roll up with its next one. Warnings (a torn last
    entry cut off) are printed on stderr.
    """
    err = err or sys.stderr
    path = Path(path)
    campaign, _warnings, _errors = _load_with_journal(path)
    try:
        rec, warnings = append_one(rolls_path(path), campaign_name=path.name, session=campaign.session, who=who,
                                   line=line, request=request, result=result, gm_only=gm_only, seed=seed)
    except OSError as exc:
        raise CampaignError([Problem(str(rolls_path(path)), "", _("cannot record the roll: {reason}").format(
            reason=os_reason(exc)))]) \
            from None
    _print_problems(warnings, err)
    return rec
