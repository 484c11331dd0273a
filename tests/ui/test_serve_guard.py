"""The rules of the web door as plain functions (`gmscreen.ui.web.guard`), and the app's own
size caps (`ui/terminal/web_driver.py`): what a hostile page or client may send, and what it gets."""

from __future__ import annotations

import os
import sys

import pytest
from textual import events

from gmscreen.ui.web import guard


def test_a_new_token_is_long_url_safe_and_new_each_time() -> None:
    tokens = {guard.new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(guard.valid_token(token) and len(token) >= 40 for token in tokens)


@pytest.mark.parametrize("given, same", [
    (None, False), ("", False), ("x", False), ("a-token-for-tests-0123", True), ("a-token-for-tests-0123 ", False),
    ("A-TOKEN-FOR-TESTS-0123", False), ("a-token-for-tests-012é", False), ("\ud800", False),
])
def test_a_token_is_the_same_only_byte_for_byte(given: str | None, same: bool) -> None:
    assert guard.same_token(given, "a-token-for-tests-0123") is same


def test_a_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []
    real = guard.hmac.compare_digest
    monkeypatch.setattr(guard.hmac, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    assert not guard.same_token("wrong", "a-token-for-tests-0123")
    assert compared == [(b"wrong", b"a-token-for-tests-0123")]


@pytest.mark.parametrize("token, valid", [
    ("a" * 16, True), ("a" * 15, False), ("Zm9vYmFy-cXV4_LWJh", True), ("with space in it 0123", False),
    ("percent%20encoded-0123", False), ("ok.ok~ok_ok-ok0123", True), ("é" * 20, False), ("a" * 257, False),
])
def test_a_token_must_travel_unchanged_in_an_address(token: str, valid: bool) -> None:
    assert guard.valid_token(token) is valid


def test_each_port_has_its_own_cookie() -> None:
    assert guard.cookie_name(8000) != guard.cookie_name(8001)


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("127.1.2.3", True), ("localhost", True), ("LOCALHOST.", True), ("::1", True),
    ("[::1]", True), ("0.0.0.0", False), ("::", False), ("192.168.1.10", False), ("gm.example", False),
])
def test_only_loopback_addresses_keep_the_gm_screen_on_this_machine(host: str, loopback: bool) -> None:
    assert guard.is_loopback(host) is loopback


@pytest.mark.parametrize("bound, header, allowed", [
    ("127.0.0.1", "localhost:8000", True),
    ("127.0.0.1", "127.0.0.1:8000", True),
    ("127.0.0.1", "127.0.0.1", True),
    ("127.0.0.1", "[::1]:8000", True),
    ("127.0.0.1", "evil.example:8000", False),          # DNS rebinding: a foreign name, our address
    ("127.0.0.1", "localhost.evil.example:8000", False),
    ("127.0.0.1", "192.168.1.10:8000", False),
    ("127.0.0.1", "", False),
    ("127.0.0.1", "localhost:80:80", False),
    ("127.0.0.1", "localhost/x", False),
    ("127.0.0.1", "user@localhost", False),
    ("127.0.0.1", "[::1", False),
    ("127.0.0.1", "table.lan:8000", True),               # --allow-host
    ("192.168.1.10", "192.168.1.10:8000", True),         # the address it listens on
    ("192.168.1.10", "192.168.1.11:8000", False),
    ("gm.lan", "GM.lan:8000", True),
    ("0.0.0.0", "192.168.1.10:8000", True),              # every address: any address typed in a browser
    ("0.0.0.0", "[fe80::1]:8000", True),
    ("0.0.0.0", "evil.example:8000", False),             # but no foreign name
    ("::", "10.0.0.2", True),
])
def test_the_host_header_must_name_this_server(bound: str, header: str, allowed: bool) -> None:
    assert guard.Hosts(bound, frozenset({"table.lan"})).allows(header) is allowed
    assert not guard.Hosts(bound).allows(None)


@pytest.mark.parametrize("origin, same", [
    (None, True),                                       # not a browser: the token is what counts
    ("http://localhost:8000", True),
    ("HTTP://LOCALHOST:8000", True),
    ("https://localhost:8000", True),
    ("http://localhost:8001", False),                   # another local page: same site, other origin
    ("http://localhost", False),
    ("http://evil.example", False),
    ("http://localhost:8000.evil.example", False),
    ("null", False),
    ("file://", False),
    ("http://localhost:8000/path", False),
    ("http://user@localhost:8000", False),
    ("", False),
])
def test_a_websocket_s_origin_must_be_the_page_s_own(origin: str | None, same: bool) -> None:
    assert guard.same_origin(origin, "localhost:8000") is same


@pytest.mark.parametrize("width, height, size", [
    (80, 24, (80, 24)), ("80", "24", (80, 24)), (10000, 10000, (500, 200)), ("10000", "10000", (500, 200)),
    (501, 201, (500, 200)), (0, 24, None), (-1, 24, None), (True, 24, None), (80.5, 24, None), ("8e3", "24", None),
    ("", "", None), ("9" * 40, "24", None), ("٣", "24", None), (None, None, None), ([80], 24, None),
])
def test_sizes_are_capped_at_500_by_200_cells(width: object, height: object, size: tuple[int, int] | None) -> None:
    assert guard.size(width, height) == size


# ---------------------------------------------------------------- in the app (ui/terminal/web_driver.py)


@pytest.mark.parametrize("environment, size", [
    ({"COLUMNS": "10000", "ROWS": "10000"}, (500, 200)), ({"COLUMNS": "120", "ROWS": "40"}, (120, 40)),
    ({"COLUMNS": "x"}, (80, 24)), ({}, (80, 24)),
])
def test_the_app_caps_the_size_it_starts_with(monkeypatch: pytest.MonkeyPatch, environment: dict[str, str],
                                              size: tuple[int, int]) -> None:
    from gmscreen.ui.terminal import web_driver

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("ROWS", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert web_driver._first_size() == size


async def test_the_app_caps_the_sizes_it_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    from gmscreen.ui.terminal.web_driver import ClientAwareWebDriver

    read, write = os.pipe()                             # its input as textual-serve gives it: a pipe
    with os.fdopen(read, "rb") as stdin, os.fdopen(write, "wb"):
        monkeypatch.setattr(sys, "__stdin__", stdin)
        driver = ClientAwareWebDriver(object(), size=(80, 24))  # type: ignore[arg-type]
        sent: list[object] = []
        driver.send_message = sent.append  # type: ignore[method-assign]
        for width, height in ((10000, 10000), (-1, 5), (True, 5), ("x", 5), (120, 40)):
            driver.on_meta("resize", {"width": width, "height": height})
    assert [(e.size.width, e.size.height) for e in sent if isinstance(e, events.Resize)] == [(500, 200), (120, 40)]
