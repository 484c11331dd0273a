"""A game's `describe` that raises is said (which game, which error), not hidden behind plain
words: the rules remember it, the command line says it on stderr once."""

from __future__ import annotations

import dataclasses

import pytest

from gmscreen import cli
from gmscreen.rules import Plugin, get_system, register, registry, resolve
from gmscreen.rules.render import describe, describe_failures


def _broken(result):
    return {"dice": result["no_such_key"] + 1}          # None + 1: a TypeError


@pytest.fixture
def brokenwords():
    system = dataclasses.replace(get_system("mir"), id="brokenwords", describe=_broken)
    register(Plugin("brokenwords", system))
    describe_failures(clear=True)
    yield system
    registry.unregister("brokenwords")
    describe_failures(clear=True)


def test_the_failure_is_remembered_with_its_game(brokenwords) -> None:
    result = resolve({"system": "mir", "kind": "simple", "pool": 2, "difficulty": 1, "dice": [3, 9]})
    assert describe(brokenwords, result) is None
    assert describe_failures() == {"brokenwords": "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'"}
    assert describe_failures(clear=True) and describe_failures() == {}


def test_the_command_line_says_it(brokenwords, capsys) -> None:
    status = cli.main(["--lang", "en", "roll", "brokenwords", "--pool", "2", "--difficulty", "1", "--dice", "3,9"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err.splitlines()[-1] == ("gmscreen roll: brokenwords: its describe failed, plain words shown: "
                                    "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'")
    assert describe_failures() == {}
