"""`gmscreen players` and `gmscreen serve`: the players' second screen, and either screen in a
browser.

`players` opens the read-only player view (`gmscreen.ui.players`) on a terminal. `serve`
runs textual-serve (the optional extra `gmscreen[web]`, imported here only) with the GM's
screen or, with `--players`, the player view: one process a browser tab, ended when its tab
closes; SIGTERM or ctrl+c stop the server. It listens on 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from pathlib import Path

from gmscreen import i18n
from gmscreen.cli import CliError, _Parser
from gmscreen.i18n import _

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _existing_campaign(prog: str, name: str) -> Path:
    path = Path(name)
    if not path.exists():
        raise CliError(_("{prog}: {file}: no such file: expected a campaign").format(prog=prog, file=name))
    if not path.is_file():
        raise CliError(_("{prog}: {file}: not a regular file: expected a campaign").format(prog=prog, file=name))
    return path


def cmd_players(argv: list[str]) -> int:
    parser = _Parser(prog="gmscreen players",
                     description=_("The players' view of a campaign being played: the round, the turn order, "
                                   "the public rolls, live and read-only (for a second screen)."))
    parser.add_argument("campaign", metavar="CAMPAIGN.toml")
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    parser.add_argument("--theme", metavar="NAME", help=_("theme to use"))
    parser.add_argument("--lang", choices=i18n.LANGUAGES,
                        help=_("language of the screen and messages (else config.toml, then LANG, then fr)"))
    ns = parser.parse_args(argv)
    path = _existing_campaign(parser.prog, ns.campaign)
    from gmscreen.campaign.errors import CampaignError
    from gmscreen.ui import players

    try:
        return players.run(path, ascii=ns.ascii, theme=ns.theme, language=ns.lang)
    except CampaignError as err:
        first = str(err.problems[0]) if err.problems else str(err)
        raise CliError(f"{parser.prog}: {first}") from None


def served_command(campaign: str | None, *, players: bool, lang: str | None = None, ascii: bool = False) -> str:
    """The command textual-serve starts for each tab: this Python, this gmscreen."""
    words = [sys.executable, "-m", "gmscreen"]
    if lang:
        words += ["--lang", lang]
    if players:
        words.append("players")
    if campaign is not None:
        words.append(str(Path(campaign).absolute()))
    if ascii:
        words.append("--ascii")
    return shlex.join(words)


def cmd_serve(argv: list[str]) -> int:
    parser = _Parser(prog="gmscreen serve",
                     description=_("The GM's screen, or with --players the player view, in a browser "
                                   "(needs textual-serve: pip install 'gmscreen[web]')."))
    parser.add_argument("campaign", nargs="?", metavar="CAMPAIGN.toml")
    parser.add_argument("--players", action="store_true", help=_("serve the read-only player view"))
    parser.add_argument("--host", default="127.0.0.1",
                        help=_("address to listen on (default 127.0.0.1: this machine only)"))
    parser.add_argument("--port", type=int, default=8000, help=_("port to listen on (default 8000)"))
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    ns = parser.parse_args(argv)
    if not 0 < ns.port < 65536:
        raise CliError(_("{prog}: --port: expected a port from 1 to 65535, got {port}").format(
            prog=parser.prog, port=ns.port))
    if ns.players and ns.campaign is None:
        raise CliError(_("{prog}: --players: a CAMPAIGN.toml to show is required").format(prog=parser.prog))
    if ns.campaign is not None:
        _existing_campaign(parser.prog, ns.campaign)
        if ns.players:
            _check_readable(parser.prog, ns.campaign)
    try:
        from textual_serve.server import Server
    except ImportError:
        raise CliError(_("{prog}: textual-serve is not installed: pip install 'gmscreen[web]'").format(
            prog=parser.prog)) from None
    lang = i18n.language()
    command = served_command(ns.campaign, players=ns.players, lang=lang, ascii=ns.ascii)
    if ns.host not in LOOPBACK:
        warning = (_("{prog}: warning: listening on {host}: anyone who can reach port {port} can watch this "
                     "player view") if ns.players else
                   _("{prog}: warning: listening on {host}: anyone who can reach port {port} can use this GM "
                     "screen and change the campaign"))
        print(warning.format(prog=parser.prog, host=ns.host, port=ns.port), file=sys.stderr, flush=True)
    ready = _("{prog}: open http://{host}:{port} in a browser (ctrl+c stops)").format(
        prog=parser.prog, host="localhost" if ns.host in LOOPBACK else ns.host, port=ns.port)
    server = _server_class(Server, ready)(command, host=ns.host, port=ns.port,
                                          title=_("gmscreen · players") if ns.players else "gmscreen")
    try:
        server.serve()
    except OSError as err:
        raise CliError(f"{parser.prog}: {ns.host}:{ns.port}: {err.strerror or err}") from None
    return 0


def _check_readable(prog: str, campaign: str) -> None:
    """The player view of a campaign that cannot be read would fail in every tab: said once, here."""
    from gmscreen.campaign.errors import CampaignError
    from gmscreen.play.player_view import CampaignWatch

    watch = CampaignWatch(campaign)
    try:
        watch.open()
    except CampaignError as err:
        first = str(err.problems[0]) if err.problems else str(err)
        raise CliError(f"{prog}: {first}") from None
    finally:
        watch.close()


def _server_class(base: type, ready: str) -> type:
    """textual-serve's Server, saying `ready` once it listens (instead of its logo), its page's
    addresses taken from the address the browser used (it would otherwise write `--host` in
    them: 0.0.0.0 is no address a browser can reach)."""

    class Server(base):  # type: ignore[misc, valid-type]
        sessions: set[asyncio.Task] = set()

        async def handle_websocket(self, request):  # type: ignore[no-untyped-def]
            task = asyncio.current_task()
            assert task is not None
            self.sessions.add(task)
            try:
                return await super().handle_websocket(request)
            finally:
                self.sessions.discard(task)

        async def on_shutdown(self, app) -> None:  # type: ignore[no-untyped-def]
            """SIGTERM or ctrl+c: each tab's session is told to quit, as when its tab closes (the
            GM's screen saves), instead of the server waiting a minute for the tabs to go."""
            for task in list(self.sessions):
                task.cancel()

        def initialize_logging(self) -> None:
            import logging

            logging.basicConfig(level=logging.WARNING)

        async def on_startup(self, app) -> None:  # type: ignore[no-untyped-def]
            print(ready, file=sys.stderr, flush=True)

        async def handle_index(self, request):  # type: ignore[no-untyped-def]
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

    return Server


__all__ = ["cmd_players", "cmd_serve", "served_command"]
