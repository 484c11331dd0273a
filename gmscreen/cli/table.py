"""`gmscreen line` and `gmscreen turn`: the headless table (`gmscreen.play.table.Table`, the one
the screen drives) driven from a shell.

What a GM binds to a tmux key or a stream deck. Both go through `gmscreen.play` exactly as
the screen does (same grammar, choices, spending, ticks, journal and undo), and both refuse a
campaign that another gmscreen holds: two writers would lose one's work. Like the screen, both
first settle a roll a stopped screen left waiting for a choice: the dice the table saw are logged.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any, Iterator

from gmscreen.i18n import _

from .common import CliError, Parser, campaign_call, dump, roll_lines


@contextmanager
def _table(path: str, prog: str) -> Iterator[Any]:
    """The campaign's session, locked for this command alone, saved and released after."""
    from gmscreen.campaign.session import open_session

    session = open_session(path, if_locked="raise", defer_rolls=True)   # a roll appended from the tail
    try:
        if session.read_only:
            raise CliError(_("{prog}: {path}: opened read-only ({reason}); nothing was written").format(
                prog=prog, path=path, reason=session.read_only_reason or _("journal damaged")))
        _settle_pending(session, prog)
        yield session
    finally:
        session.close()


def _settle_pending(session: Any, prog: str) -> None:
    """A roll shown by a screen that stopped before logging it: logged as it stood, as the
    screen does when it opens (or set aside when it does not fit), said on stderr."""
    import sys

    before = len(session.warnings)
    recovered = session.recover_pending()
    for problem in session.warnings[before:]:
        print(f"{prog}: {problem}", file=sys.stderr)
    if recovered is not None:
        secret = recovered.gm_only or bool(recovered.result.get("hidden"))
        what = _("the GM's secret roll") if secret else f"{recovered.who} · {recovered.line}"
        print(f"{prog}: " + _("roll shown before the stop, logged as it stood: {roll}").format(roll=what),
              file=sys.stderr)


def cmd_line(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen line",
                     description=_("Roll one quick-roll line on a campaign, exactly as the dice tray reads it; "
                                   "the roll is logged and what it spends is taken off the sheets."))
    parser.add_argument("file", metavar="CAMPAIGN.toml")
    parser.add_argument("text", metavar="TEXT", help=_('the line, as typed in the tray ("loriane eloquence sd3")'))
    parser.add_argument("--json", action="store_true", help=_("print the roll as one JSON object"))
    parser.add_argument("--choose", metavar="KEYS", default="",
                        help=_("the keys answering the roll's questions, in order (e.g. 'o' or 'nk'); "
                               "questions left take the choice the odds assume"))
    parser.add_argument("--policy", choices=("odds", "enter"), default="odds",
                        help=_("what an unanswered question takes: the choice the odds assume (default) "
                               "or the tray's default, as Enter"))
    parser.add_argument("--who", metavar="ID", help=_("the character a line without a name is about (default: whose turn it is in the fight)"))
    parser.add_argument("--gm-only", action="store_true", help=_("log the roll for the GM only"))
    parser.add_argument("--seed", type=int, metavar="N", help=_("seed the dice (to replay a roll)"))
    ns = parser.parse_args(argv)
    return campaign_call(parser.prog, lambda: _line(ns, parser.prog))


def _line(ns: Any, prog: str) -> int:
    from gmscreen.play.events import Notice
    from gmscreen.play.quickroll.grammar import QuickRollError
    from gmscreen.play.table import Table
    from gmscreen.play.table_roll import ChoiceError, Refused
    from gmscreen.rules import RequestError, get_system

    with _table(ns.file, prog) as session:
        table = Table(session, rng=random.Random(ns.seed) if ns.seed is not None else None)
        warnings: list[str] = []
        table.subscribe(lambda event: warnings.append(event.text) if isinstance(event, Notice) else None)
        if ns.who is not None:
            table.selected = ns.who
        else:
            table.select_current()          # as the screen: a line without a name is the current actor's
        table.gm_only = ns.gm_only
        try:
            roll = table.roll_line(ns.text, keys=list(ns.choose), policy=ns.policy)
        except QuickRollError as err:
            raise CliError(f"{prog}: {ns.text!r}: {err.message}") from None
        except ChoiceError as err:
            raise CliError(f"{prog}: --choose: {err}") from None
        except Refused as err:
            raise CliError(f"{prog}: {ns.text!r}: {err}") from None
        except RequestError as err:
            from gmscreen.play.messages import rule_message

            raise CliError(f"{prog}: {ns.text!r}: {rule_message(err)}") from None
        record = roll.record
        if record is None:
            raise CliError(_("{prog}: {file}: the roll could not be logged").format(prog=prog, file=ns.file))
        system = get_system(record.request["system"])
        answers = [{"question": prompt.question, "key": option.key, "choice": option.label}
                   for prompt, option in roll.answers]
        if ns.json:
            print(dump({"seq": record.seq, "who": record.who, "line": record.line, "gm_only": record.gm_only,
                         "seed": record.seed, "request": record.request, "result": record.result,
                         "answers": answers, "spent": [s.text for s in roll.spends], "timer": roll.timer,
                         "warnings": warnings}))
        else:
            kind = system.kinds[record.request["kind"]]
            print(f"#{record.seq} {record.who} · {record.line}")
            from gmscreen.play import chances
            from gmscreen.play.effects import conditions_lines

            for said in conditions_lines(roll.draft, chances.chance):
                print(f"  {said}")
            print("\n".join(roll_lines(system, kind, record.request, record.result)))
            for answer in answers:
                print(f"  {answer['question']} → {answer['choice']}")
            for spend in roll.spends:
                print(f"  {spend.text}")
            for warning in warnings:
                print(f"  ! {warning}")
    return 0


def cmd_turn(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen turn",
                     description=_("Move the turn of a campaign's fight as n and p do on the screen: conditions "
                                   "tick, a new round starts, p gives the ticks back."))
    parser.add_argument("file", metavar="CAMPAIGN.toml")
    parser.add_argument("direction", choices=("next", "previous"), metavar="next|previous")
    parser.add_argument("--json", action="store_true", help=_("print the new state of the fight as JSON"))
    ns = parser.parse_args(argv)
    return campaign_call(parser.prog, lambda: _turn(ns, parser.prog))


def _turn(ns: Any, prog: str) -> int:
    from gmscreen.play.table import Table

    with _table(ns.file, prog) as session:
        table = Table(session)      # its notices are the move's, printed below from the move itself
        move = table.next_turn() if ns.direction == "next" else table.previous_turn()
        if move is None:            # refused: the campaign takes no change (said by _table before)
            raise CliError(_("{prog}: {path}: opened read-only ({reason}); nothing was written").format(
                prog=prog, path=ns.file, reason=session.read_only_reason or _("journal damaged")))
        if move.problem:
            raise CliError(f"{prog}: {ns.file}: {move.problem}")
        enc = session.campaign.encounter
        current = enc.entries[min(enc.turn, len(enc.entries) - 1)].name if enc.entries and enc.round else None
        if ns.json:
            print(dump({"moved": move.moved, "undone": move.undone, "round": enc.round, "current": current,
                         "notices": list(move.notices), "kept": list(move.kept)}))
        else:
            for notice in move.notices:
                print(notice)
            for kept in move.kept:
                print(f"! {kept}")
            print(_("Round {round} · {name}").format(round=enc.round, name=current) if current
                  else _("Round {round}").format(round=enc.round))
    return 0


def cmd_track(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen track",
                     description=_("Count hits on a character's damage track, as T, + and - do on the roster: "
                                   "at its maximum the character is defeated and the turn order passes over them."))
    parser.add_argument("file", metavar="CAMPAIGN.toml")
    parser.add_argument("who", metavar="WHO", help=_("the character's id or name"))
    parser.add_argument("hits", metavar="+N|-N", nargs="?", default="",
                        help=_("hits taken (+1) or healed (-1); none: show the tracks"))
    parser.add_argument("--add", metavar="NAME", nargs="?", const="",
                        help=_("add a track first (no name: the game's own, MIR's Blessures or Hits)"))
    parser.add_argument("--max", metavar="N", type=int, help=_("the added track's maximum (the hits that defeat)"))
    parser.add_argument("--track", metavar="NAME", help=_("which of the character's tracks (default: the first)"))
    parser.add_argument("--json", action="store_true", help=_("print the character's tracks as JSON"))
    ns = parser.parse_args(argv)
    return campaign_call(parser.prog, lambda: _track(ns, parser.prog))


def _track(ns: Any, prog: str) -> int:
    from gmscreen.campaign.textsafe import clean
    from gmscreen.play.events import Notice
    from gmscreen.play.table import Table
    from gmscreen.play.tracks import default_track, is_defeated, track_text

    hits = ns.hits.strip().replace("\u2212", "-")
    if hits and not (hits[0] in "+-" and hits[1:].isdigit()):
        raise CliError(_("{prog}: {hits!r}: expected +N or -N (hits taken or healed)").format(prog=prog, hits=ns.hits))
    with _table(ns.file, prog) as session:
        campaign = session.campaign
        wanted = ns.who.casefold()
        ch = next((c for c in campaign.characters if c.id == ns.who), None) or next(
            (c for c in campaign.characters if c.name.casefold() == wanted), None)
        if ch is None:
            raise CliError(_("{prog}: {file}: no character {who!r} (expected an id or a name)").format(
                prog=prog, file=ns.file, who=clean(ns.who)))
        table = Table(session)
        said: list[str] = []
        table.subscribe(lambda event: said.append(event.text) if isinstance(event, Notice) else None)

        def done(move: Any) -> None:
            if move is None:
                raise CliError(_("{prog}: {path}: opened read-only ({reason}); nothing was written").format(
                    prog=prog, path=ns.file, reason=session.read_only_reason or _("journal damaged")))
            if move.problem:
                raise CliError(f"{prog}: {ns.file}: {move.problem}")

        char_id = ch.id
        if ns.add is not None:
            spec = default_track(table.game)
            done(table.add_track(char_id, ns.add or spec.name, ns.max if ns.max is not None else spec.max))
        tracks = campaign.characters[next(i for i, c in enumerate(campaign.characters) if c.id == char_id)].tracks
        if hits:
            position = 0
            if ns.track is not None:
                names = [t.name.casefold() for t in tracks]
                if ns.track.casefold() not in names:
                    raise CliError(_("{prog}: {file}: {name} has no track {track!r}").format(
                        prog=prog, file=ns.file, name=clean(ch.name), track=clean(ns.track)))
                position = names.index(ns.track.casefold())
            done(table.move_track(char_id, int(hits), position))
        ch = next(c for c in campaign.characters if c.id == char_id)
        out = bool(ch.tracks) and is_defeated(ch)
        if ns.json:
            print(dump({"who": char_id, "defeated": out, "notices": said,
                         "tracks": [{"name": t.name, "value": t.value, "max": t.max} for t in ch.tracks]}))
        else:
            for notice in said:
                print(notice)
            shown = " · ".join(track_text(t) for t in ch.tracks) or _("no track (--add adds one)")
            print(f"{clean(ch.name)} · {shown}" + (f" · {_('defeated')}" if out else ""))
    return 0


def cmd_recap(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen recap",
                     description=_("Print the recap of a session as Markdown: what changed, the fight, the notable "
                                   "rolls and each character's luck. Reads only: no lock, nothing written."))
    parser.add_argument("file", metavar="CAMPAIGN.toml")
    parser.add_argument("--session", type=int, metavar="N", help=_("the session (default: the current one)"))
    parser.add_argument("--json", action="store_true", help=_("print the recap as one JSON object"))
    parser.add_argument("--gm", action="store_true", help=_("include the GM's secret rolls not revealed"))
    ns = parser.parse_args(argv)
    return campaign_call(parser.prog, lambda: _recap(ns, parser.prog))


def _recap(ns: Any, prog: str) -> int:
    import sys

    from gmscreen.play.recap import RecapError, build_recap, recap_data, recap_markdown
    from gmscreen.play.tables import table_for

    try:
        recap = build_recap(ns.file, ns.session, gm=ns.gm, tables=table_for)
    except RecapError as err:
        raise CliError(f"{prog}: {err}") from None
    for warning in recap.warnings:
        print(f"{prog}: {warning}", file=sys.stderr)
    print(dump(recap_data(recap)) if ns.json else recap_markdown(recap), end="" if not ns.json else "\n")
    return 0
