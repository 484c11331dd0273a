"""`gmscreen players` and `gmscreen serve`: the players' second screen, and either screen in a
browser.

`players` opens the read-only player view (`gmscreen.ui.players`) on a terminal. `serve`
reads its options here and runs the web door (`gmscreen.ui.web`, the optional extra
`gmscreen[web]`) with the GM's screen or, with `--players`, the player view: one process a
browser tab, ended when its tab closes; SIGTERM or ctrl+c stop the server. It listens on
127.0.0.1 unless told otherwise, and the GM's screen only there unless --i-know-gm-exposed.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

from gmscreen import i18n
from gmscreen.i18n import _, os_reason
from gmscreen.ui.web import guard

from .common import CliError, Parser


def _existing_campaign(prog: str, name: str) -> Path:
    path = Path(name)
    if not path.exists():
        raise CliError(_("{prog}: {file}: no such file: expected a campaign").format(prog=prog, file=name))
    if not path.is_file():
        raise CliError(_("{prog}: {file}: not a regular file: expected a campaign").format(prog=prog, file=name))
    return path


def cmd_players(argv: list[str], lang: str | None = None) -> int:
    """`lang`: --lang as given anywhere on the command line (`gmscreen.cli.main` takes it out);
    with none, nor one in config.toml or the environment, the view asks which."""
    parser = Parser(prog="gmscreen players",
                     description=_("The players' view of a campaign being played: the round, the turn order, "
                                   "the public rolls, live and read-only (for a second screen)."))
    parser.add_argument("campaign", metavar="CAMPAIGN.toml")
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    parser.add_argument("--theme", metavar="NAME", help=_("theme to use"))
    ns = parser.parse_args(argv)
    path = _existing_campaign(parser.prog, ns.campaign)
    from gmscreen.campaign.errors import CampaignError
    from gmscreen.ui import players

    try:
        return players.run(path, ascii=ns.ascii, theme=ns.theme, language=lang or ns.lang)
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
    parser = Parser(prog="gmscreen serve",
                     description=_("The GM's screen, or with --players the player view, in a browser "
                                   "(needs textual-serve: pip install 'gmscreen[web]')."))
    parser.add_argument("campaign", nargs="?", metavar="CAMPAIGN.toml")
    parser.add_argument("--players", action="store_true", help=_("serve the read-only player view"))
    parser.add_argument("--host", default="127.0.0.1",
                        help=_("address to listen on (default 127.0.0.1: this machine only)"))
    parser.add_argument("--port", type=int, default=8000, help=_("port to listen on (default 8000)"))
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    parser.add_argument("--token", nargs="?", const="", metavar="TOKEN",
                        help=_("ask for a token (the GM's screen always does): TOKEN, else for the GM's screen "
                               "[serve] token in config.toml, else a new one at each start"))
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help=_("answer to this name too (the name the table's browsers give this computer); "
                               "may be repeated"))
    parser.add_argument("--max-sessions", type=int, default=guard.MAX_SESSIONS, metavar="N",
                        help=_("browser tabs open at once, each a process (default {n})").format(n=guard.MAX_SESSIONS))
    parser.add_argument("--i-know-gm-exposed", action="store_true",
                        help=_("serve the GM's screen on an address beyond this machine (whoever reaches it "
                               "with the token can change the campaign)"))
    ns = parser.parse_args(argv)
    if ns.campaign is None and ns.token and Path(ns.token).is_file():
        ns.campaign, ns.token = ns.token, ""        # `--token CAMPAIGN.toml`: a token asked for, not given
    if not 0 < ns.port < 65536:
        raise CliError(_("{prog}: --port: expected a port from 1 to 65535, got {port}").format(
            prog=parser.prog, port=ns.port))
    lo, hi = guard.SESSIONS_RANGE
    if not lo <= ns.max_sessions <= hi:
        raise CliError(_("{prog}: --max-sessions: expected a number from {lo} to {hi}, got {n}").format(
            prog=parser.prog, lo=lo, hi=hi, n=ns.max_sessions))
    names = []
    for name in ns.allow_host:
        checked = guard.host_name(name)
        if checked is None:
            raise CliError(_("{prog}: --allow-host: expected a host name or an address, got {name!r}").format(
                prog=parser.prog, name=name))
        names.append(checked)
    if ns.players and ns.campaign is None:
        raise CliError(_("{prog}: --players: a CAMPAIGN.toml to show is required").format(prog=parser.prog))
    exposed = not guard.is_loopback(ns.host)
    if exposed and not ns.players and not ns.i_know_gm_exposed:
        raise CliError(_("{prog}: --host {host}: the GM's screen would be open to the network (whoever has its "
                         "token could change the campaign): serve the player view there (--players), or add "
                         "--i-know-gm-exposed").format(prog=parser.prog, host=ns.host))
    if ns.campaign is not None:
        _existing_campaign(parser.prog, ns.campaign)
        if ns.players:
            _check_readable(parser.prog, ns.campaign)
    token = _serve_token(parser.prog, ns)
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        raise CliError(_("{prog}: textual-serve is not installed: pip install 'gmscreen[web]'").format(
            prog=parser.prog)) from None
    from gmscreen.ui.web.server import Door, WebServer

    command = served_command(ns.campaign, players=ns.players, lang=i18n.language(), ascii=ns.ascii)
    if exposed:
        warning = (_("{prog}: warning: listening on {host}: anyone who can reach port {port} can watch this "
                     "player view") if ns.players else
                   _("{prog}: warning: listening on {host}: anyone who can reach port {port} with the token can "
                     "use this GM screen and change the campaign"))
        print(warning.format(prog=parser.prog, host=ns.host, port=ns.port), file=sys.stderr, flush=True)
    ready = _("{prog}: open {url} in a browser (ctrl+c stops)").format(prog=parser.prog,
                                                                       url=_page_url(ns.host, ns.port, token))
    door = Door(hosts=guard.Hosts(bound=ns.host, allowed=frozenset(names)), token=token,
                max_sessions=ns.max_sessions)
    server = WebServer(command, door, host=ns.host, port=ns.port, ready=ready, prog=parser.prog,
                       title=_("gmscreen · players") if ns.players else "gmscreen")
    try:
        server.serve()
    except OSError as err:
        raise CliError(f"{parser.prog}: {ns.host}:{ns.port}: {os_reason(err)}") from None
    return 0


def _serve_token(prog: str, ns: Any) -> str | None:
    """The token the page and its websocket ask for: `--token TOKEN`; for the GM's screen
    `[serve] token` in config.toml, else a new one; none for the player view unless --token."""
    if ns.token:
        if not guard.valid_token(ns.token):
            raise CliError(_("{prog}: --token: expected at least 16 letters, digits, '-', '_', '.' or '~'").format(
                prog=prog))
        return ns.token
    if ns.players:
        return None if ns.token is None else guard.new_token()
    from gmscreen.ui.config import Config

    config = Config.load()
    section = config.extra.get("serve")
    configured = section.get("token") if isinstance(section, dict) else None
    if configured is None:
        return guard.new_token()
    if not isinstance(configured, str) or not guard.valid_token(configured):
        raise CliError(_("{prog}: {file}: serve.token: expected at least 16 letters, digits, '-', '_', '.' or "
                         "'~'").format(prog=prog, file=config.path))
    return configured


def _page_url(host: str, port: int, token: str | None) -> str:
    """The address to open: localhost for this machine (and for every address: 0.0.0.0 is none a
    browser can reach), the token in it."""
    name = "localhost" if guard.is_loopback(host) or host.strip("[]") in guard.WILDCARDS else host
    if ":" in name:
        name = f"[{name.strip('[]')}]"
    return f"http://{name}:{port}/" + (f"?token={token}" if token else "")


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


__all__ = ["cmd_players", "cmd_serve", "served_command"]
