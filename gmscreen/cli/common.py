"""What every subcommand of `gmscreen` shares: the one-line error, the parser that raises it,
a campaign command's errors, one JSON line, a roll in the game's words. Public inside the
package (`gmscreen.cli.*` import them from here); it imports no command module."""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from functools import cache
from typing import Any, Callable, Mapping

from gmscreen.i18n import _, os_reason
from gmscreen.rules import SYSTEMS
from gmscreen.rules._base import Kind, System

from .argwords import Worded, reworded

EXIT_USAGE = 2


class CliError(Exception):
    """A usage or input error: its text is the single line printed on stderr."""


class Parser(Worded):
    """argparse in the language spoken (`argwords`), that reports a usage error as one line
    (no usage dump) and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {reworded(message)}")


class LateHelp(Parser):
    """A parser whose help is worded only when shown: naming every system reads the installed
    packages' entry points (tens of ms), which opening the screen should not pay for."""

    def __init__(self, *args: Any, word: Callable[[argparse.ArgumentParser], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._word = word

    def format_help(self) -> str:
        self._word(self)
        return super().format_help()


def error_line(text: str) -> None:
    """Errors are exactly one line, whatever the message carried; controls shown escaped."""
    from gmscreen.campaign.textsafe import escape_controls

    print(escape_controls(" ".join(text.split("\n"))), file=sys.stderr)


@cache
def json_unsafe() -> re.Pattern[str]:
    return re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def dump(data: Any) -> str:
    """One JSON line. json escapes C0 controls itself; DEL, C1 and bidi controls are escaped
    here the JSON way (\\u009b), so the output stays valid JSON and harmless to a terminal."""
    import json

    text = json.dumps(data, ensure_ascii=False)
    return json_unsafe().sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def campaign_call(prog: str, call: Callable[[], int]) -> int:
    """Run a campaign command; its own errors are already one line each, the rest become one."""
    from gmscreen.campaign.errors import CampaignError, CampaignLocked

    try:
        return call()
    except CampaignError as err:
        for line in [str(problem) for problem in err.problems] or [str(err)]:
            error_line(f"{prog}: {line}")
        return EXIT_USAGE
    except CampaignLocked as err:
        raise CliError(f"{prog}: {err}") from None
    except BrokenPipeError:
        raise                               # the reader of the output left: not a file's problem
    except OSError as err:
        raise CliError(f"{prog}: {getattr(err, 'filename', None) or ''}: {os_reason(err)}") from None


def roll_lines(system: System, kind: Kind, request: Mapping[str, Any], result: Mapping[str, Any]) -> list[str]:
    """The roll in the game's words (the renderer's CLI variant), under a "game · kind" header."""
    header = f"{system.game} · {_(kind.label)}"   # (English msgid: the game's catalog words it)
    if result.get("hidden"):
        header += " · " + _("hidden difficulty")
    from gmscreen.play.render import CliRenderer, describe

    described = describe(system, result)    # a logged result (no null field) reads as the fresh one
    if described is None:
        return [header, "  " + dump(result)]
    return [header, *CliRenderer(system, request).lines(described)]


def _plain(text: str) -> str:
    """Without case or accents: "Éclats", "ÉCLATS" and "Eclats" read alike."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


def system_id(text: str) -> str:
    """The id of the system `text` names, by its id or its game's name in any case, with or
    without accents (a game named "Éclats" is also "Eclats"); `text` itself when it names none (refused later)."""
    wanted = _plain(text.strip())
    for sid in SYSTEMS:
        if wanted in (_plain(sid), _plain(SYSTEMS[sid].game)):
            return sid
    return text


__all__ = ["EXIT_USAGE", "CliError", "LateHelp", "Parser", "campaign_call", "dump", "error_line", "roll_lines", "system_id"]
