"""The `gmscreen` command: the screen, or one subcommand (systems, resolve, roll, odds, ...).

A package: this module dispatches; `common` holds what every command shares (`CliError`,
`Parser`, `campaign_call`, `dump`, `roll_lines`); `argwords` says argparse's own words (usage:,
its headings and errors) from the catalog; `--lang` is read here wherever it is; `table` (line, turn, recap) and `players`
(players, serve) are loaded lazily through `COMMANDS`. To add a subcommand, add one entry to
`COMMANDS` and `_SUBCOMMAND_HELP` and one module importing its helpers from `common`.

The subcommand is chosen by the first argument, so `gmscreen my.toml` opens a campaign and
`gmscreen roll SYSTEM ...` rolls. Flags of `roll` and `odds` are generated from the rules' own
field descriptions (`Kind.fields`), so a new field is a new flag without touching this file.
Bad input never ends in a traceback: one line on stderr, exit status 2. Only the screen
imports Textual; the other commands stay quick to start.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from gmscreen import __version__, i18n
from gmscreen.i18n import N_, _, ngettext, os_reason, pgettext
from gmscreen.rules import SYSTEMS, RequestError, get_system, odds, resolve
from gmscreen.rules._base import FieldSpec, Kind, System

from .common import EXIT_USAGE, CliError, LateHelp, Parser, campaign_call, dump, error_line, roll_lines, system_id

# The commands that live in a module of their own: name -> "module:function", imported only
# when that command runs. A new subcommand is one entry here (and in _SUBCOMMAND_HELP) and one
# module whose function takes the arguments after the name and returns the exit status.
COMMANDS = {
    "line": "gmscreen.cli.table:cmd_line",
    "turn": "gmscreen.cli.table:cmd_turn",
    "track": "gmscreen.cli.table:cmd_track",
    "recap": "gmscreen.cli.table:cmd_recap",
    "players": "gmscreen.cli.players:cmd_players",
    "serve": "gmscreen.cli.players:cmd_serve",
    "vectors": "gmscreen.cli.vectors:cmd_vectors",
    "game": "gmscreen.cli.game:cmd_game",
}

SUBCOMMANDS = ("systems", "resolve", "roll", "odds", "line", "turn", "track", "validate", "export", "new", "recap",
               "players", "serve", "vectors", "game")

# The subcommand list under `gmscreen --help`: (usage, what it does), translated when shown.
_SUBCOMMAND_HELP: tuple[tuple[str, str], ...] = (
    ("systems", N_("list the systems: id, game, dice")),
    ("roll SYSTEM [--kind K] ...", N_("one test from flags (--dice 1,5,12 for physical dice)")),
    ("odds SYSTEM [--kind K] ...", N_("exact probability of each outcome (or odds FILE|-)")),
    ("resolve FILE|-", N_("one test from a TOML file (- : JSON on stdin), JSON out")),
    ('line CAMPAIGN.toml "TEXT"', N_("one quick-roll line, as the dice tray reads it; logged")),
    ("turn CAMPAIGN.toml next|previous", N_("move the fight's turn, as n and p do")),
    ("track CAMPAIGN.toml WHO [+N|-N] [--add]", N_("hits on a character's track; at its maximum, defeated")),
    ("validate CAMPAIGN.toml", N_("check a campaign file")),
    ("export CAMPAIGN.toml [-o OUT] [--session N]", N_("the session log as Markdown")),
    ("new CAMPAIGN.toml --system ID", N_("create a campaign file")),
    ("recap CAMPAIGN.toml [--session N]", N_("the session's recap as Markdown (--json)")),
)
_SUBCOMMAND_HELP += (
    ("players CAMPAIGN.toml", N_("the players' view, live and read-only, for a second screen")),
    ("serve [CAMPAIGN.toml] [--players]", N_("the screen or the player view in a browser (gmscreen[web])")),
    ("vectors FILE…", N_("check a game's golden vectors through resolve")),
    ("game new ID [--dir DIR]", N_("write a ready package skeleton for a new game")),
)


def _subcommand_help() -> str:
    lines = [_("subcommands (gmscreen COMMAND --help for each):")]
    for usage, what in _SUBCOMMAND_HELP:
        gap = " " * max(30 - len(usage), 1) if len(usage) < 30 else "  "
        lines.append(f"  {usage}{gap}{_(what)}")
    lines.append("")
    lines.append(_("--lang fr|en, anywhere on the command line, chooses the language (else config.toml's "
                   "language, then LANG, then French; the screen asks once when none says)."))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None, *, gc_paused: bool = False) -> int:
    """`gc_paused`: the command's entry point paused the collector for the start (see
    `gmscreen.__main__`); the screen resumes it after its first frame, the others now."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        option, args = _lang_option(args)
    except CliError:
        i18n.choose(None, _configured_language())       # the error in the language otherwise chosen
        try:
            _lang_option(args)
        except CliError as err:
            error_line(str(err))
        return EXIT_USAGE
    i18n.choose(option, None if option else _configured_language())
    commands: dict[str, Callable[[list[str]], int]] = {
        "systems": _cmd_systems,
        "resolve": _cmd_resolve,
        "roll": lambda a: _cmd_roll(a, "roll"),
        "odds": lambda a: _cmd_roll(a, "odds"),
        "validate": _cmd_validate,
        "export": _cmd_export,
        "new": _cmd_new,
    }
    commands.update({name: _lazy(target) for name, target in COMMANDS.items()})
    commands["players"] = _lazy(COMMANDS["players"], lang=option)     # asks the language if none
    if args and args[0] in commands:
        if gc_paused:
            import gc

            gc.enable()
        # Every line a subcommand prints, on stdout or stderr, whoever prints it, passes one
        # gate: a control character from a file or an argument shows as `\x1b`, never acts.
        with _safe_output():
            from gmscreen.rules.render import describe_failures

            describe_failures(clear=True)          # only this command's are said
            status = _run(lambda: commands[args[0]](args[1:]))
            _say_describe_failures(args[0])
            return status
    return _run(lambda: _cmd_screen(args, option, gc_paused))


def _say_describe_failures(command: str) -> None:
    """A game's `describe` that raised showed plain words: say which game and why (stderr)."""
    from gmscreen.rules.render import describe_failures

    for system_id, error in describe_failures(clear=True).items():
        error_line(_("gmscreen {command}: {system}: its describe failed, plain words shown: {error}").format(
            command=command, system=system_id, error=error))


def _lang_option(args: list[str]) -> tuple[str | None, list[str]]:
    """`--lang fr|en` (or `--lang=en`) anywhere on the command line, before or after the
    subcommand (up to a `--`): the language asked for (the last one given), and the arguments
    without it."""
    chosen: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])       # what follows `--` is text, never an option
            break
        if arg == "--lang" or arg.startswith("--lang="):
            if arg == "--lang" and i + 1 >= len(args):
                raise CliError(_("gmscreen: --lang: expected fr or en"))
            value = args[i + 1] if arg == "--lang" else arg.split("=", 1)[1]
            i += 2 if arg == "--lang" else 1
            if value not in i18n.LANGUAGES:
                raise CliError(_("gmscreen: --lang: expected fr or en, got {value}").format(value=repr(value)))
            chosen = value
            continue
        rest.append(arg)
        i += 1
    return chosen, rest


def _configured_language() -> str | None:
    """config.toml's `language`, when it names one we speak (read with the screen's own loader,
    which imports no Textual); None when unset or unreadable (the screen reports a bad file)."""
    try:
        from gmscreen.ui.config import Config

        config = Config.load()
    except Exception:      # an unusable config never stops a command
        return None
    value = getattr(config, "language", None) or config.extra.get("language")
    return value if value in i18n.LANGUAGES else None


def _lazy(target: str, **options: Any) -> Callable[[list[str]], int]:
    """The command at `target` ("module:function"), imported only when it runs (given `options`
    as keywords: `players` is told the --lang read here)."""

    def run(argv: list[str]) -> int:
        module, function = target.split(":")
        return getattr(import_module(module), function)(argv, **options)

    return run


def _run(call: Callable[[], int]) -> int:
    try:
        status = call()
        if sys.stdout is not None:
            sys.stdout.flush()            # a reader gone shows here, not as a traceback at exit
        return status
    except CliError as err:
        error_line(str(err))
        return EXIT_USAGE
    except SystemExit as stop:            # argparse after --help / --version
        code = stop.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_USAGE)
    except BrokenPipeError:
        # `gmscreen line ... | head -c1`: the reader left while the outcome was printed. What
        # the command did (a roll logged, a turn moved) stands: it succeeded, and a script
        # that retries on failure would do it twice.
        _stdout_to_devnull()
        return 0
    except KeyboardInterrupt:
        return 130


def _stdout_to_devnull() -> None:
    """What is left to print goes nowhere (the Python docs' way for a closed pipe): the flush at
    exit then raises no second BrokenPipeError."""
    import os

    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):       # no file under it (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fileno)
    finally:
        os.close(devnull)


class _safe_output:
    """sys.stdout and sys.stderr behind `SafeWriter` for the time of one subcommand."""

    def __enter__(self) -> None:
        from gmscreen.campaign.textsafe import SafeWriter

        self._saved = sys.stdout, sys.stderr
        # A closed stream (None) stays None: print() then writes nothing, as without the gate.
        sys.stdout = SafeWriter(sys.stdout) if sys.stdout is not None else None
        sys.stderr = SafeWriter(sys.stderr) if sys.stderr is not None else None

    def __exit__(self, *exc: object) -> None:
        sys.stdout, sys.stderr = self._saved


# ---------------------------------------------------------------- systems


def _cmd_systems(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen systems", description=_("List the dice systems: id, game, dice."))
    parser.add_argument("--json", action="store_true", help=_("print a JSON list (with the kinds)"))
    ns = parser.parse_args(argv)
    from gmscreen.rules import registry

    systems = [SYSTEMS[sid] for sid in SYSTEMS]
    if ns.json:
        print(dump([{"id": s.id, "game": s.game, "dice": _(s.dice), "kinds": list(s.kinds)} for s in systems]))
    else:
        w_id = max(len(s.id) for s in systems)
        w_game = max(len(s.game) for s in systems)
        for s in systems:
            print(f"{s.id:<{w_id}}  {s.game:<{w_game}}  {_(s.dice)}")
    for failure in registry.failures():       # skipped, said: the games listed are the ones that work
        error_line(f"{parser.prog}: {failure.text} ({failure.value})")
    return 0


def _unknown_system_note() -> str:
    """After "expected one of …, got 'yze'": the packages that failed to load, if any."""
    from gmscreen.rules import registry

    return registry.failure_note()


# ---------------------------------------------------------------- request files


def _read_request(source: str, prog: str) -> tuple[dict, str, str]:
    """The request held by a TOML file, a .json file, or JSON on stdin (`-`).

    Returns (request, name shown in errors, text). Too big (over MAX_REQUEST_BYTES), nested
    too deeply, not UTF-8 or not valid: one CliError naming the file, the line or key, and
    what was expected.
    """
    from gmscreen.campaign import safeload

    limit = safeload.MAX_REQUEST_BYTES
    if source == "-":
        name = "<stdin>"
        text = _read_stdin(name, prog, limit)
        return _parse_json(text, name, prog), name, text
    path = Path(source)
    name = source
    try:
        data = safeload.read_limited(path, limit)
    except safeload.LoadError as err:
        raise CliError(_("{prog}: {name}: {problem}; expected a request of a few lines").format(
            prog=prog, name=name, problem=err.message)) from None
    except FileNotFoundError:
        raise CliError(_("{prog}: {name}: no such file").format(prog=prog, name=name)) from None
    except IsADirectoryError:
        raise CliError(_("{prog}: {name}: is a directory, expected a TOML file").format(prog=prog, name=name)) from None
    except PermissionError:
        raise CliError(_("{prog}: {name}: permission denied").format(prog=prog, name=name)) from None
    except OSError as err:
        raise CliError(_("{prog}: {name}: cannot read: {reason}").format(prog=prog, name=name,
                                                                        reason=os_reason(err))) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        bad_line = data.count(b"\n", 0, err.start) + 1
        raise CliError(_("{prog}: {name}:{line}: not UTF-8 text, expected a TOML file").format(
            prog=prog, name=name, line=bad_line)) from None
    if path.suffix.lower() == ".json":
        return _parse_json(text, name, prog), name, text
    try:
        request = safeload.loads_toml(text, max_depth=safeload.MAX_REQUEST_DEPTH)
    except safeload.DeepValue as err:
        line = _key_line(text, str(err.path[0])) if err.path else None
        where = f"{name}:{line}" if line else name
        raise CliError(f"{prog}: {where}: {safeload.dotted(err.path)}: {err.message}; {_(_REQUEST_SHAPE)}") from None
    except safeload.LoadError as err:
        where = f"{name}:{err.line}" if err.line else name
        if err.syntax:
            raise CliError(_("{prog}: {where}: invalid TOML: {syntax}").format(prog=prog, where=where,
                                                                                syntax=err.syntax)) from None
        raise CliError(f"{prog}: {where}: {err.message}; {_(_REQUEST_SHAPE)}") from None
    return request, name, text


_REQUEST_SHAPE = N_("expected a request table (system, kind and its fields: numbers, text, lists of dice)")


def _read_stdin(name: str, prog: str, limit: int) -> str:
    """Standard input as UTF-8 text, at most `limit` bytes."""
    from gmscreen.campaign import safeload

    if sys.stdin is None:
        raise CliError(_("{prog}: {name}: standard input is closed; expected a JSON object").format(
            prog=prog, name=name))
    stream = getattr(sys.stdin, "buffer", None)
    text = ""
    try:
        if stream is not None:
            raw = stream.read(limit + 1)
        else:
            text = sys.stdin.read(limit + 1)
            raw = None
    except MemoryError:
        raise CliError(_("{prog}: {name}: too big to read (out of memory); expected a JSON object").format(
            prog=prog, name=name)) from None
    except UnicodeDecodeError:
        raise CliError(_("{prog}: {name}: not UTF-8 text, expected a JSON object").format(
            prog=prog, name=name)) from None
    if raw is not None:
        if len(raw) > limit:
            raise CliError(_too_big(prog, name, limit)) from None
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as err:
            line = raw.count(b"\n", 0, err.start) + 1
            raise CliError(_("{prog}: {name}:{line}: not UTF-8 text, expected a JSON object").format(
                prog=prog, name=name, line=line)) from None
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        raise CliError(_too_big(prog, name, limit)) from None
    return text


def _too_big(prog: str, name: str, limit: int) -> str:
    from gmscreen.campaign import safeload

    return _("{prog}: {name}: larger than {size}; expected a JSON object of request fields").format(
        prog=prog, name=name, size=safeload.size_text(limit))


def _parse_json(text: str, name: str, prog: str) -> dict:
    from gmscreen.campaign import safeload

    try:
        data = safeload.loads_json(text, max_depth=safeload.MAX_REQUEST_DEPTH)
    except safeload.DeepValue as err:
        raise CliError(f"{prog}: {name}: {safeload.dotted(err.path)}: {err.message}; {_(_REQUEST_SHAPE)}") from None
    except safeload.LoadError as err:
        where = f"{name}:{err.line}" if err.line else name
        tail = "" if err.syntax else f"; {_(_REQUEST_SHAPE)}"
        raise CliError(f"{prog}: {where}: {err.message}{tail}") from None
    if not isinstance(data, dict):
        kind = _("a list") if isinstance(data, list) else _("a {type}").format(type=type(data).__name__)
        raise CliError(_("{prog}: {name}: expected a JSON object of request fields, got {kind}").format(
            prog=prog, name=name, kind=kind))
    return data


def _key_line(text: str, key: str) -> int | None:
    """Line of a top-level `key = ...` in a TOML text, for error messages."""
    pattern = re.compile(rf'^\s*(?:{re.escape(key)}|"{re.escape(key)}")\s*=', re.MULTILINE)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _reason(err: RequestError) -> str:
    """A rules refusal in the language spoken (the rules' own text is their English contract)."""
    from gmscreen.play.messages import rule_reason

    return rule_reason(err)


def _request_error(prog: str, name: str, text: str, err: RequestError, toml: bool) -> CliError:
    line = _key_line(text, err.field) if toml else None
    where = f"{name}:{line}" if line else name
    return CliError(f"{prog}: {where}: {err.field}: {_reason(err)}")


# ---------------------------------------------------------------- resolve


def _cmd_resolve(argv: list[str]) -> int:
    parser = Parser(
        prog="gmscreen resolve",
        description=_("Resolve one test described in a TOML file (or JSON on stdin with -) and print "
                      "the outcome as one JSON object. Format: gmscreen/docs/requests.md (ships with the package)."),
    )
    parser.add_argument("file", metavar="FILE|-", help=_("TOML request file, or - for a JSON object on stdin"))
    parser.add_argument("--seed", type=_seed, help=_("seed for the dice rolled (ignored with forced dice)"))
    ns = parser.parse_args(argv)
    request, name, text = _read_request(ns.file, parser.prog)
    try:
        result = resolve(request, seed=ns.seed)
    except RequestError as err:
        raise _request_error(parser.prog, name, text, err, ns.file != "-") from None
    print(dump(result))
    return 0


def _seed(text: str) -> int:
    """A seed within what a roll log keeps (`limits.MAX_SEED`: the 63 bits gmscreen draws itself)."""
    from gmscreen.campaign.limits import MAX_SEED

    try:
        seed = int(text) if len(text) <= 40 else None
    except ValueError:
        seed = None
    if seed is None or not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(_("expected an integer seed from 0 to {most}, got {text}").format(
            most=MAX_SEED, text=repr(text[:40]))) from None
    return seed


# ---------------------------------------------------------------- roll and odds: flags from Kind.fields


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


_HIDDEN = FieldSpec("hidden", "bool", default=False,
                    help=N_("the difficulty is kept secret from the players (echoed, changes nothing)"))


def _kind_specs(kind: Kind, with_dice: bool) -> list[FieldSpec]:
    specs = [s for s in kind.fields if with_dice or s.type not in ("dice", "dice_lists")]
    if not any(s.name == "hidden" for s in specs):
        specs.append(_HIDDEN)
    return specs


def _spec_help(spec: FieldSpec) -> str:
    parts = [_(spec.help)] if spec.help else []      # the rules' field help: its catalog, if it has one
    if spec.choices:
        parts.append(_("one of {choices}").format(choices=", ".join(str(c) if c != "" else '""'
                                                                   for c in spec.choices)))
    elif spec.type == "int" and spec.lo is not None and spec.hi is not None:
        parts.append(f"{spec.lo}..{spec.hi}")
    elif spec.type in ("dice", "int_list") and spec.lo is not None:
        parts.append(_("comma-separated, each {lo}..{hi}").format(lo=spec.lo, hi=spec.hi))
    elif spec.type == "dice_lists":
        parts.append(_("lists separated by ';', faces by ',' (\"7,8;9,1\")"))
    if spec.required:
        parts.append(_("required"))
    elif spec.default not in (None, "", ()) and spec.type != "bool":
        parts.append(_("default {value}").format(value=spec.default))
    elif spec.type == "bool":
        parts.append(_("default {value}").format(value="true" if spec.default else "false"))
    return "; ".join(parts).replace("%", "%%")


def _add_spec(group: argparse._ArgumentGroup, spec: FieldSpec) -> None:
    flag = _flag(spec.name)
    if spec.type == "bool":
        group.add_argument(flag, dest=spec.name, nargs="?", const="true", default=argparse.SUPPRESS,
                           metavar="true|false", help=_spec_help(spec))
        group.add_argument("--no-" + flag[2:], dest=spec.name, action="store_const", const="false",
                           default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        return
    metavar = {"int": "N", "str": "TEXT", "dice": "F,F,...", "int_list": "N,N,...",
               "dice_lists": "F,F;F,..."}.get(spec.type, "VALUE")
    if spec.type == "int" and spec.choices:
        metavar = "{" + ",".join(str(c) for c in spec.choices) + "}"
    group.add_argument(flag, dest=spec.name, default=argparse.SUPPRESS, metavar=metavar, help=_spec_help(spec))


_TRUE = {"true", "yes", "on", "1", "oui", "vrai"}
_FALSE = {"false", "no", "off", "0", "non", "faux"}


def _int(text: str, flag: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise CliError(_("{flag}: expected an integer, got {text}").format(flag=flag, text=repr(text))) from None


def _int_list(text: str, flag: str) -> list[int]:
    items = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    return [_int(t, flag) for t in items]


def _convert(spec: FieldSpec, text: str) -> Any:
    """Turn one flag's text into the request value its field expects."""
    flag = _flag(spec.name)
    if spec.type == "int":
        return _int(text, flag)
    if spec.type == "bool":
        word = text.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise CliError(_("{flag}: expected true or false, got {text}").format(flag=flag, text=repr(text)))
    if spec.type in ("dice", "int_list"):
        return _int_list(text, flag)
    if spec.type == "dice_lists":
        if not text.strip():
            return []
        return [_int_list(part, flag) for part in text.split(";")]
    return text


def _pick_system(token: str, prog: str) -> System:
    try:
        return get_system(token)
    except RequestError:
        raise CliError(_("{prog}: SYSTEM: expected one of {systems}, got {token}").format(
            prog=prog, systems=", ".join(SYSTEMS), token=repr(token)) + _unknown_system_note()) from None


def _general_help(prog: str, mode: str) -> str:
    lines = [
        _("usage: ") + f"{prog} SYSTEM [--kind KIND] [--FIELD VALUE ...]"
        + (" [--seed N] [--json] [--campaign FILE --who NAME]" if mode == "roll" else " [--json]"),
    ]
    if mode == "odds":
        lines.append(" " * len(_("usage: ")) + f"{prog} FILE|-   " + _("(a resolve request; its dice fields are left out)"))
    lines.append("")
    lines.append(_("One test from flags, human output; --json prints the outcome mapping.")
                 if mode == "roll" else _("Exact probability of each outcome of a test (no dice)."))
    lines.append(_("Flags depend on the system and kind: {command}").format(
        command=f"{prog} SYSTEM [--kind KIND] --help"))
    lines.append("")
    lines.append(_("systems and kinds (the first kind is the default):"))
    for sid in SYSTEMS:
        system = SYSTEMS[sid]
        lines.append(f"  {sid:<11} {', '.join(system.kinds)}")
    return "\n".join(lines)


def _cmd_roll(argv: list[str], mode: str) -> int:
    prog = f"gmscreen {mode}"
    if not argv or argv[0] in ("-h", "--help"):
        if not argv:
            raise CliError(_("{prog}: SYSTEM: required, one of {systems} (see {prog} --help)").format(
                prog=prog, systems=", ".join(SYSTEMS)))
        print(_general_help(prog, mode))
        return 0
    token, rest = argv[0], argv[1:]
    if mode == "odds" and token not in SYSTEMS and (token == "-" or not token.startswith("-")):
        if token == "-" or Path(token).suffix.lower() in (".toml", ".json") or Path(token).exists():
            return _odds_from_file(token, rest)
    system = _pick_system(token, prog)

    pre = Parser(prog=f"{prog} {system.id}", add_help=False)
    pre.add_argument("--kind")
    known, _unknown = pre.parse_known_args(rest)
    kind_name = known.kind if known.kind is not None else next(iter(system.kinds))
    if kind_name not in system.kinds:
        raise CliError(_("{prog}: --kind: expected one of {kinds}, got {kind}").format(
            prog=f"{prog} {system.id}", kinds=", ".join(system.kinds), kind=repr(kind_name)))
    kind = system.kinds[kind_name]

    specs = _kind_specs(kind, with_dice=(mode == "roll"))
    parser = Parser(
        prog=f"{prog} {system.id}",
        description=_("{game} · {kind} ({id}). Kinds of {system}: {kinds}.").format(
            game=system.game, kind=_(kind.label), id=kind.name, system=system.id, kinds=", ".join(system.kinds)),
    )
    parser.add_argument("--kind", choices=list(system.kinds), default=kind_name,
                        help=_("test kind (default: {kind})").format(kind=next(iter(system.kinds))))
    fields = parser.add_argument_group(_("request fields (format: gmscreen/docs/requests.md)"))
    for spec in specs:
        _add_spec(fields, spec)
    parser.add_argument("--json", action="store_true",
                        help=_("print the outcome mapping as JSON") if mode == "roll" else _("print the odds as JSON"))
    if mode == "roll":
        parser.add_argument("--seed", type=_seed, help=_("seed for the dice rolled, for a reproducible roll"))
        parser.add_argument("--campaign", metavar="FILE", help=_("record the roll in this campaign's log"))
        parser.add_argument("--who", metavar="NAME", help=_("who rolled (with --campaign)"))
    ns = parser.parse_args(rest)

    request: dict[str, Any] = {"system": system.id, "kind": kind.name}
    for spec in specs:
        if hasattr(ns, spec.name):
            request[spec.name] = _convert_or_fail(spec, getattr(ns, spec.name), parser.prog)
    known_fields = {s.name for s in specs}

    if mode == "odds":
        try:
            probs = odds(request)
        except RequestError as err:
            raise CliError(f"{parser.prog}: {_flag_name(err.field, known_fields)}: {_reason(err)}") from None
        if ns.json:
            print(dump(probs))
        else:
            print("\n".join(_odds_lines(system, kind, request, probs)))
        return 0

    if ns.campaign is not None and not ns.who:
        raise CliError(_("{prog}: --who: required with --campaign (the name shown in the log)").format(
            prog=parser.prog))
    if ns.who is not None and ns.campaign is None:
        raise CliError(_("{prog}: --who: only with --campaign FILE").format(prog=parser.prog))
    if ns.campaign is not None:
        _check_campaign(ns.campaign, system.id, parser.prog)
    forced = any(name in request for name in kind.dice_fields)
    seed = ns.seed
    if seed is None and not forced and ns.campaign is not None:
        # A logged random roll keeps its seed, so it can be replayed.
        import secrets

        seed = secrets.randbits(63)
    try:
        result = resolve(request, seed=seed)
    except RequestError as err:
        raise CliError(f"{parser.prog}: {_flag_name(err.field, known_fields)}: {_reason(err)}") from None

    if ns.campaign is not None:
        _record(ns.campaign, ns.who, argv, request, result, None if forced else seed, parser.prog)
    if ns.json:
        print(dump(result))
    else:
        print("\n".join(roll_lines(system, kind, request, result)))
    return 0


def _convert_or_fail(spec: FieldSpec, text: str, prog: str) -> Any:
    try:
        return _convert(spec, text)
    except CliError as err:
        raise CliError(f"{prog}: {err}") from None


def _flag_name(field: str, known: set[str]) -> str:
    return _flag(field) if field in known or field == "kind" else field


_LOG_ONLY_FLAGS = ("--campaign", "--who")


def _roll_line(argv: list[str]) -> str:
    """The command as the log shows it: without the flags that only say where to log it."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in _LOG_ONLY_FLAGS:
            skip = True
            continue
        if arg.startswith(tuple(f + "=" for f in _LOG_ONLY_FLAGS)):
            continue
        kept.append(arg)
    import shlex

    return "gmscreen roll " + shlex.join(kept)


class _CampaignErrors:
    """Turns a campaign problem into the single error line of the command."""

    def __init__(self, prog: str, path: str) -> None:
        self.prog, self.path = prog, path

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, err: BaseException | None, tb: object) -> None:
        from gmscreen.campaign.errors import CampaignError, CampaignLocked

        if isinstance(err, CampaignError):
            problems = err.problems
            more = (" " + ngettext("(and {n} more problem)", "(and {n} more problems)",
                                   len(problems) - 1).format(n=len(problems) - 1) if len(problems) > 1 else "")
            errors = [p for p in problems if not p.warning] or problems
            first = str(errors[0]) if errors else str(err)
            raise CliError(f"{self.prog}: --campaign: {first}{more}") from None
        if isinstance(err, CampaignLocked):
            raise CliError(f"{self.prog}: --campaign: {err}") from None
        if isinstance(err, OSError):
            raise CliError(f"{self.prog}: --campaign: {self.path}: {os_reason(err)}") from None
        return None                     # any other exception goes on


def _check_campaign(path: str, system_id: str, prog: str) -> None:
    """Before rolling: the campaign loads and is of the roll's system."""
    from gmscreen.campaign import load_campaign

    with _CampaignErrors(prog, path):
        campaign = load_campaign(path)
    if campaign.system != system_id:
        raise CliError(_("{prog}: --campaign: {path} is a {system} campaign, this roll is {roll}").format(
            prog=prog, path=path, system=campaign.system, roll=system_id))


def _record(path: str, who: str, argv: list[str], request: dict, result: dict, seed: int | None,
            prog: str) -> None:
    """Append the roll to the campaign's log; a hidden roll is logged GM-only."""
    from gmscreen.campaign import commands

    with _CampaignErrors(prog, path):
        commands.append_roll(path, who=who, line=_roll_line(argv), request=request, result=result, seed=seed,
                             gm_only=bool(result.get("hidden")))


def _odds_from_file(source: str, rest: list[str]) -> int:
    parser = Parser(prog="gmscreen odds", description=_("Exact odds of the test in a resolve request file."))
    parser.add_argument("file", metavar="FILE|-")
    parser.add_argument("--json", action="store_true", help=_("print the odds as JSON"))
    ns = parser.parse_args([source, *rest])
    request, name, text = _read_request(ns.file, parser.prog)
    system = kind = None
    if isinstance(request.get("system"), str) and request["system"] in SYSTEMS:
        system = SYSTEMS[request["system"]]
        kind_name = request.get("kind")
        kind = system.kinds.get(kind_name) if isinstance(kind_name, str) else None
    if kind is not None:
        request = {k: v for k, v in request.items() if k not in kind.dice_fields}
    try:
        probs = odds(request)
    except RequestError as err:
        raise _request_error(parser.prog, name, text, err, ns.file != "-") from None
    assert system is not None and kind is not None     # odds() accepted system and kind
    if ns.json:
        print(dump(probs))
    else:
        print("\n".join(_odds_lines(system, kind, request, probs)))
    return 0


# ---------------------------------------------------------------- human output

_ORDER = ("critical_success", "success", "pending", "failure", "automatic_failure", "critical_failure",
          "actor", "tie", "opponent")


def _pct(p: float) -> str:
    """Exact odds to two decimals, in the reader's style: "41,67 %" (French), "41.67%" (English)."""
    from gmscreen.i18n.typography import NARROW_NBSP, number

    if p <= 0:
        figure = "0"
    elif p >= 1:
        figure = "100"
    elif p < 0.0001:
        figure = "< " + number(0.01, 2)
    elif p > 0.9999:
        figure = "> " + number(99.99, 2)
    else:
        figure = number(p * 100, 2)
    return f"{figure}%" if i18n.language() == "en" else f"{figure}{NARROW_NBSP}%"


def _odds_lines(system: System, kind: Kind, request: Mapping[str, Any], probs: Mapping[str, Any]) -> list[str]:
    table = probs.get("outcome") or probs.get("winner") or {}
    header = f"{system.game} · {_(kind.label)} · " + _("exact odds")
    from gmscreen.play.render import difficulty_name, outcome_words

    named = difficulty_name(system, request)
    if named:
        header += f" · {system.difficulty_word} {named[0]} ({named[1]})"
    lines = [header]
    keys = [k for k in _ORDER if k in table] + [k for k in table if k not in _ORDER]
    labels = {k: outcome_words(system, k) for k in keys}
    width = max((len(v) for v in labels.values()), default=0)
    for key in keys:
        lines.append(f"  {labels[key]:<{width}}  {_pct(table[key]):>9}")
    if "chance" in probs and "outcome" in probs:
        lines.append("  " + _("chance of success: {chance}").format(chance=_pct(probs["chance"])))
    if probs.get("policy"):
        lines.append("  " + _("assuming: {policy}").format(policy=_policy_words(str(probs["policy"]))))
    return lines


# The way of playing the rules priced (their odds' "policy", English in the JSON), as a person
# reads it: "assuming: Providence called on for the actor; Providence not called on for the
# opponent". A choice's own id ("best", the value
# of --policy) and a policy no catalog knows (a third-party game's) are shown as they are.
_POLICY_WORDS = frozenset(("providence", "no providence", "parry", "no parry",   # (msgctxt "odds policy")
                           "no reroll (no Impulsion point to spend)"))
_REROLLS = re.compile(r"reroll while failing, at most (\d+) rerolls?")
_SIDES = ("actor", "opponent")


def _policy_words(policy: str) -> str:
    def one(text: str) -> str:
        rerolls = _REROLLS.fullmatch(text)
        if rerolls:
            n = int(rerolls.group(1))
            return ngettext("reroll while failing, at most {n} reroll", "reroll while failing, at most {n} rerolls",
                            n).format(n=n)
        return pgettext("odds policy", text) if text in _POLICY_WORDS else text

    parts = []
    for part in policy.split("; "):
        side, colon, rest = part.partition(": ")
        if colon and side in _SIDES:
            parts.append(_("{policy} for the {side}").format(side=pgettext("request side", side), policy=one(rest)))
        else:
            parts.append(one(part))
    return _("; ").join(parts)


# ---------------------------------------------------------------- campaign commands


def _cmd_validate(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen validate",
                     description=_("Check a campaign file: exit 0 when valid, else each problem on its own line."))
    parser.add_argument("file", metavar="CAMPAIGN.toml")
    ns = parser.parse_args(argv)
    from gmscreen.campaign import commands

    from gmscreen.play.effects import validate_problems
    from gmscreen.play.tables import known_table

    return campaign_call(parser.prog, lambda: commands.cmd_validate(
        ns.file, checks=lambda campaign, path: validate_problems(campaign, path, game=known_table(campaign.system))))


def _cmd_export(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen export", description=_("Print the session log of a campaign as Markdown."))
    parser.add_argument("file", metavar="CAMPAIGN.toml")
    parser.add_argument("-o", "--output", metavar="OUT", help=_("write to this file instead of stdout"))
    parser.add_argument("--session", type=int, metavar="N", help=_("only the rolls of session N"))
    ns = parser.parse_args(argv)
    from gmscreen.campaign import commands

    return campaign_call(parser.prog, lambda: commands.cmd_export(ns.file, ns.output, session=ns.session))


def _cmd_new(argv: list[str]) -> int:
    parser = Parser(prog="gmscreen new", description=_("Create a new campaign file for a system."))
    parser.add_argument("file", metavar="CAMPAIGN.toml")
    parser.add_argument("--system", required=True, metavar="ID",
                        help=_("one of {choices}").format(choices=", ".join(SYSTEMS)))
    ns = parser.parse_args(argv)
    ns.system = system_id(ns.system)
    if not Path(ns.file).suffix:
        ns.file += ".toml"          # `gmscreen new mycamp`: the campaign file it means
    if ns.system not in SYSTEMS:
        raise CliError(_("{prog}: --system: expected one of {systems}, got {system}").format(
            prog=parser.prog, systems=", ".join(SYSTEMS), system=repr(ns.system)) + _unknown_system_note())
    from gmscreen.campaign import commands
    from gmscreen.play.tables import table_for
    from gmscreen.play.template import campaign_template

    return campaign_call(parser.prog, lambda: commands.cmd_new(
        ns.file, ns.system, template=lambda campaign: campaign_template(campaign, table_for(campaign.system))))


# ---------------------------------------------------------------- the screen


def _looks_like_a_command(word: str) -> bool:
    """`gmscreen open c.toml`: a bare word that is no file, where a campaign file or a command goes."""
    return (bool(word) and not word.startswith("-") and not Path(word).suffix and "/" not in word
            and "\\" not in word and not Path(word).exists())


def _unknown_command(word: str) -> str:
    """The one line for a word that is neither a command nor a campaign file."""
    text = _("gmscreen: no command {word}: to open a campaign, `gmscreen FILE`; to create one, "
             "`gmscreen new FILE --system ID`").format(word=repr(word))
    close = difflib.get_close_matches(word.lower(), SUBCOMMANDS, n=1)
    if close:
        text += " " + _("(did you mean {command}?)").format(command=close[0])
    return text


def _cmd_screen(argv: list[str], lang: str | None = None, gc_paused: bool = False) -> int:
    """The screen; `lang`: --lang as given (the screen weighs it against config.toml itself);
    `gc_paused`: see `main`."""
    from gmscreen.rules import registry

    def word(parser: argparse.ArgumentParser) -> None:
        parser.description = _("A game master's screen for the terminal. Without a file, opens the last "
                               "campaign (or a copy of the {game} sample on first run).").format(
            game=registry.system(registry.FIRST_RUN).game)
        system.help = _("system of the new campaign: {systems}").format(systems=", ".join(SYSTEMS))

    parser = LateHelp(
        prog="gmscreen",
        epilog=_subcommand_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        word=word,
    )
    parser.add_argument("campaign", nargs="?", metavar="CAMPAIGN.toml", help=_("campaign file to open"))
    parser.add_argument("--new", action="store_true", help=_("create CAMPAIGN.toml (with --system)"))
    system = parser.add_argument("--system", metavar="ID")
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    parser.add_argument("--theme", metavar="NAME", help=_("theme to use (remembered)"))
    parser.add_argument("--version", action="version", version=f"gmscreen {__version__}")
    if argv and _looks_like_a_command(argv[0]):
        raise CliError(_unknown_command(argv[0]))
    ns = parser.parse_args(argv)
    if ns.system is not None:
        ns.system = system_id(ns.system)

    if ns.new:
        if ns.campaign is None:
            raise CliError(_("gmscreen: --new: a CAMPAIGN.toml file to create is required"))
        if ns.system is None:
            raise CliError(_("gmscreen: --new: --system is required, one of {systems}").format(
                systems=", ".join(SYSTEMS)))
        if ns.system not in SYSTEMS:
            raise CliError(_("{prog}: --system: expected one of {systems}, got {system}").format(
                prog="gmscreen", systems=", ".join(SYSTEMS), system=repr(ns.system)) + _unknown_system_note())
        if Path(ns.campaign).exists():
            raise CliError(_("gmscreen: {file}: already exists (open it without --new)").format(file=ns.campaign))
    elif ns.system is not None:
        raise CliError(_("gmscreen: --system: only with --new"))
    elif ns.campaign is not None:
        path = Path(ns.campaign)
        if not path.exists():
            raise CliError(_("gmscreen: {file}: no such file (create it with --new --system ID)").format(
                file=ns.campaign))
        if path.is_dir():
            raise CliError(_("gmscreen: {file}: is a directory, expected a campaign TOML file").format(
                file=ns.campaign))

    from gmscreen import ui
    from gmscreen.campaign.errors import CampaignError, CampaignLocked

    path_arg = Path(ns.campaign) if ns.campaign is not None else None
    try:
        status = ui.run(path_arg, new_system=ns.system if ns.new else None, ascii=ns.ascii, theme=ns.theme,
                        language=lang, gc_paused=gc_paused)
    except CampaignError as err:
        first = str(err.problems[0]) if err.problems else str(err)
        more = (" " + _("(and {n} more; see gmscreen validate)").format(n=len(err.problems) - 1)
                if len(err.problems) > 1 else "")
        raise CliError(f"gmscreen: {first}{more}") from None
    except CampaignLocked as err:
        raise CliError(f"gmscreen: {err}") from None
    return status


if __name__ == "__main__":  # pragma: no cover - `python -m gmscreen.cli`
    raise SystemExit(main())
