"""The rules of the web door, as plain functions: who may open the GM's screen (its token),
which Host and Origin headers are this server's own, and how many sessions and cells a
browser may ask for. The server (`server.py`) applies them to every request; the app's web
driver (`ui/terminal/web_driver.py`) applies the size caps again to what reaches the app.

Why each: a page on any other site opened in the GM's browser can reach a server on
127.0.0.1; only a secret it cannot read (the token), its Origin (refused on the websocket)
and its Host (DNS rebinding gives a foreign name the server's address) tell it apart.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
from dataclasses import dataclass, field
from urllib.parse import urlsplit

MAX_WIDTH = 500              # cells: no browser window is wider at a readable font size
MAX_HEIGHT = 200
DEFAULT_SIZE = (80, 24)      # what a browser that says no size gets
MAX_SESSIONS = 16            # tabs open at once on one server (each is a process)
SESSIONS_RANGE = (1, 256)
TOKEN = re.compile(r"[A-Za-z0-9_.~-]{16,256}")    # URL-safe as it is: the printed URL works
LOCAL_NAMES = frozenset({"localhost"})
WILDCARDS = frozenset({"", "0.0.0.0", "::", "*"})


def new_token() -> str:
    """A fresh secret for one start of the server (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def valid_token(token: str) -> bool:
    """A token the printed URL, a cookie and `--token` all carry unchanged."""
    return TOKEN.fullmatch(token) is not None


def same_token(given: str | None, token: str) -> bool:
    """`given` is the token, compared in constant time (any text, any length, None)."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8"))


def cookie_name(port: int) -> str:
    """The token's cookie: one per port, for a browser sends a cookie of localhost to every port
    (the GM's screen on 8000 and the player view on 8001 keep theirs apart)."""
    return f"gmscreen-token-{port}"


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    """`host` (as given to --host) reaches this machine only."""
    name = host.strip().lower().rstrip(".")
    if name in LOCAL_NAMES:
        return True
    address = _address(name)
    return address is not None and address.is_loopback


def host_name(header: str) -> str | None:
    """The name in a Host header (`name`, `name:port`, `[v6]:port`), lowercased; None when it
    is not one."""
    header = header.strip().lower()
    if not header or any(c in header for c in "/@?# \t\\"):
        return None
    if header.startswith("["):
        end = header.find("]")
        if end < 0 or not re.fullmatch(r"(:\d{1,5})?", header[end + 1:]):
            return None
        return header[1:end] or None
    name, _, port = header.partition(":")
    if port and not re.fullmatch(r"\d{1,5}", port):
        return None
    return name.rstrip(".") or None


@dataclass(frozen=True)
class Hosts:
    """The names this server answers to: localhost and the loopback addresses, the address it
    listens on, the names given with --allow-host; listening on every address (0.0.0.0), any
    address too (an address typed in a browser cannot be a rebound name)."""

    bound: str = "127.0.0.1"
    allowed: frozenset[str] = field(default_factory=frozenset)

    def allows(self, header: str | None) -> bool:
        name = host_name(header) if header is not None else None
        if name is None:
            return False
        if name in LOCAL_NAMES or name in self.allowed:
            return True
        address = _address(name)
        if address is not None and address.is_loopback:
            return True
        bound = self.bound.strip().lower().rstrip(".").strip("[]")
        if bound in WILDCARDS:
            return address is not None
        if address is not None and _address(bound) is not None:
            return address == _address(bound)
        return name == bound


def same_origin(origin: str | None, host_header: str) -> bool:
    """A websocket's Origin is the page's own: the scheme http(s), the host and port those of the
    request. No Origin at all is not a browser (a browser always sends one on a websocket)."""
    if origin is None:
        return True
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or parts.path not in ("", "/") or parts.query or parts.username:
        return False
    return parts.netloc.lower() == host_header.strip().lower()


def cells(value: object, cap: int) -> int | None:
    """A width or height a browser sent (an int, or digits in a query), capped at `cap`; None
    when it is no size at all."""
    if isinstance(value, str):
        value = int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return min(value, cap)


def size(width: object, height: object) -> tuple[int, int] | None:
    """A terminal size within 500×200 cells, or None."""
    w, h = cells(width, MAX_WIDTH), cells(height, MAX_HEIGHT)
    return None if w is None or h is None else (w, h)
