"""argparse's own words (usage:, its headings, its -h line, its errors) in the language spoken.

argparse asks the `gettext` of its own module for them, by their English text, and gets that
English back (it has no catalog). Pointing that module at ours would change every parser of
the process (pytest's, textual-serve's); instead gmscreen's parsers (`Worded`) word their
headings and help lines themselves, and an error argparse wrote is read back into its message
id and values (`reworded`) and said again from our catalog. The message ids are argparse's own
(Python 3.11's `argparse.py`), so its text and ours are the same in English.
"""

from __future__ import annotations

import argparse
from typing import Any, Iterable

from gmscreen import i18n
from gmscreen.i18n import N_, _, ngettext
from gmscreen.i18n.reread import fill, read

USAGE = N_("usage: ")
POSITIONALS = N_("positional arguments")
OPTIONS = N_("options")
SUBCOMMANDS = N_("subcommands")
HELP = N_("show this help message and exit")
VERSION = N_("show program's version number and exit")
HEADING = N_("{heading}:")          # a heading of the help, its colon as the language writes it
LANG_HELP = N_("language of the screen and messages (else config.toml, then LANG, then fr)")

# Every message argparse may hand to `error`, or put in an ArgumentError, for a parser used
# as gmscreen uses them (no FileType, no conflicting definitions: those are the code's bugs).
MESSAGES = (
    N_("unrecognized arguments: %s"), N_("the following arguments are required: %s"),
    N_("argument %(argument_name)s: %(message)s"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("expected one argument"), N_("expected at most one argument"), N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"), N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"), N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("unexpected option string: %s"),
)
# "invalid int value: 'x'" (type=int) as gmscreen's own flags say it.
INVALID_VALUE = "invalid %(type)s value: %(value)r"
INTEGER_EXPECTED = N_("expected an integer, got %(value)r")
# argparse's one plural: "expected 2 arguments" (nargs=N).
PLURAL = ("expected %s argument", "expected %s arguments")


def reworded(message: str) -> str:
    """An error as argparse wrote it (English), in the language spoken; a message that is
    not argparse's (one of ours, already translated) comes back as it is."""
    for template in MESSAGES:
        values = read(template, message)
        if values is not None:
            if "message" in values:
                values["message"] = reworded(values["message"])
            if template == INVALID_VALUE and values["type"] == "int":
                template = INTEGER_EXPECTED
            return fill(_(template), values)
    for template in PLURAL:
        values = read(template, message)
        if values is not None and values["0"].isdigit():
            n = int(values["0"])
            return ngettext("expected %s argument", "expected %s arguments", n) % n
    return message


class _WordedHelp(argparse.HelpFormatter):
    """The formatter's own words from the catalog: "usage: " and the colon after a heading."""

    def _format_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                      groups: Iterable[argparse._MutuallyExclusiveGroup], prefix: str | None) -> str:
        return super()._format_usage(usage, actions, groups, _(USAGE) if prefix is None else prefix)

    def start_section(self, heading: str | None) -> None:
        if heading:                 # argparse writes "heading:"; French wants "heading :"
            worded = _(HEADING).format(heading=heading)
            heading = worded[:-1] if worded.endswith(":") else worded
        super().start_section(heading)


_FORMATTERS: dict[type[argparse.HelpFormatter], type[argparse.HelpFormatter]] = {}


def _worded_formatter(base: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    """`base` (HelpFormatter, RawDescriptionHelpFormatter…) with our words before its own."""
    if issubclass(base, _WordedHelp):
        return base
    made = _FORMATTERS.get(base)
    if made is None:
        made = _FORMATTERS[base] = type(f"Worded{base.__name__}", (_WordedHelp, base), {})
    return made


class Worded(argparse.ArgumentParser):
    """An ArgumentParser whose every word a person reads comes from gmscreen's catalog, in the
    language spoken when it is made, with `--lang` (read and taken out by `gmscreen.cli.main`,
    wherever it is on the command line; listed here so that each command's help shows it)."""

    def __init__(self, *args: Any, lang_option: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._positionals.title = _(POSITIONALS)
        self._optionals.title = _(OPTIONS)
        for action in self._actions:
            if isinstance(action, argparse._HelpAction) and action.help == HELP:
                action.help = _(HELP)
        if lang_option and self.add_help:
            self.add_argument("--lang", choices=i18n.LANGUAGES, help=_(LANG_HELP))

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        if kwargs.get("action") == "version":
            kwargs.setdefault("help", _(VERSION))
        return super().add_argument(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:
        if "title" in kwargs or "description" in kwargs:
            kwargs.setdefault("title", _(SUBCOMMANDS))
        return super().add_subparsers(**kwargs)

    def _get_formatter(self) -> argparse.HelpFormatter:
        base = self.formatter_class
        if isinstance(base, type) and issubclass(base, argparse.HelpFormatter):
            return _worded_formatter(base)(prog=self.prog)
        return super()._get_formatter()
