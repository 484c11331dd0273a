"""Every word the command line prints comes from the catalog: its help (argparse's own words
too: usage:, the headings, the -h line), its outputs and its errors, in the pseudo-language
(⟦ŀȯȯķ-ȧŀıķė⟧ letters, see `gmscreen.i18n.pseudo`). A word in plain letters must be the game's
own vocabulary (a system, its kinds, fields, choices and difficulty words), a placeholder of
the usage (SYSTEM, CAMPAIGN.toml), a flag, a command name or an identifier (a file, a number).
Anything else is a string that did not come from the catalog."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from gmscreen import cli, i18n
from gmscreen.campaign import sample_path
from gmscreen.rules import SYSTEMS

from _cli_helpers import cli_english, run  # noqa: F401 (fixture)

WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœ][A-Za-zÀ-ÖØ-öø-ÿŒœ'’-]*")
PSEUDO_LETTERS = set(i18n.pseudo("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")[1:-1])
# Words of the command line itself: its name, its commands, the values some flags take.
COMMAND_WORDS = {"gmscreen", "true", "false", "fr", "en", "next", "previous", "new", *cli.SUBCOMMANDS}


def game_words() -> set[str]:
    """The rules' own vocabulary, shown as the rules write it, and their identifiers."""
    texts: list[str] = []
    for sid in SYSTEMS:
        system = SYSTEMS[sid]
        texts += [system.id, system.game, system.difficulty_word]
        for difficulty in system.difficulties:
            texts += [difficulty.label, str(difficulty.note or "")]
        for kind in system.kinds.values():
            texts.append(kind.name)
            for spec in kind.fields:
                texts.append(spec.name)
                texts += [str(choice) for choice in spec.choices or ()]
    words = set()
    for text in texts:
        words |= {w.casefold() for w in WORD.findall(text.replace("_", " "))}
    return words | {w.casefold() for w in COMMAND_WORDS}


def typed_words(args: list[str]) -> set[str]:
    """What the person typed (values echoed in an error) and the campaign's own words (its
    name, notes and characters, as a roll or the export shows them)."""
    from gmscreen.campaign import load_campaign

    campaign = load_campaign(sample_path("mir"))
    texts = [*args, campaign.name, campaign.notes, *(c.name for c in campaign.characters),
             *(c.notes for c in campaign.characters)]
    return {w.casefold() for text in texts for w in WORD.findall(text)}


def foreign_words(text: str, allowed: set[str]) -> list[str]:
    found = []
    for token in text.split():
        bare = token.strip("⟦⟧[](),;:|\"'“”«»…")
        if bare.startswith(("-", "{")) or any(mark in bare for mark in "./_@=") or any(ch.isdigit() for ch in bare):
            continue                    # a flag, a list of choices, a file, an identifier, a number
        mixed = bool(PSEUDO_LETTERS & set(token))
        for word in WORD.findall(token):
            if PSEUDO_LETTERS & set(word) or word.casefold().strip("'’-") in allowed or (mixed and len(word) < 3):
                continue
            if word.isupper():          # a placeholder of the usage: SYSTEM, FILE, N
                continue
            found.append(word)
    return found


@pytest.fixture
def pseudo(monkeypatch, tmp_path: Path):
    """The command in the pseudo-language (it chooses its language itself: made to choose it),
    in a folder holding a copy of the MIR sample and two files with a typo."""
    monkeypatch.setattr(cli.i18n, "choose", lambda *args, **kwargs: i18n.set_language(i18n.PSEUDO))
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(sample_path("mir"), tmp_path / "mir.toml")
    (tmp_path / "typo.toml").write_text('name = "x"\nsystem = mir\n', encoding="utf-8")     # the parsers' words
    (tmp_path / "typo.json").write_text('{"system": ', encoding="utf-8")


HELPS = [["--help"], *[[command, "--help"] for command in cli.SUBCOMMANDS],
         *[["roll", sid, "--help"] for sid in SYSTEMS], ["odds", "tedeum", "--help"], ["game", "new", "--help"]]
OUTPUTS = [
    ["systems"],
    ["roll", "mir", "--pool", "3", "--difficulty", "2", "--seed", "1"],
    ["roll", "mir", "--pool", "3", "--difficulty", "2", "--seed", "1", "--hidden"],
    ["roll", "tedeum", "--die", "12", "--skill", "5", "--negative-die", "6", "--difficulty", "13", "--seed", "3"],
    ["odds", "tedeum", "--die", "12", "--skill", "5", "--negative-die", "6", "--difficulty", "13"],
    ["odds", "tedeum", "--kind", "opposed", "--actor-die", "8", "--actor-skill", "2", "--actor-negative-die", "6",
     "--opponent-die", "8", "--opponent-skill", "1", "--opponent-negative-die", "6"],
    ["odds", "magisphere", "--stat", "3", "--skill", "2", "--threshold", "12", "--impulsions", "2"],
    ["odds", "magisphere", "--stat", "3", "--skill", "2", "--threshold", "12"],
    ["validate", "mir.toml"],
    ["line", "mir.toml", "loriane eloquence sd3", "--seed", "4"],
    ["turn", "mir.toml", "next"], ["export", "mir.toml"], ["recap", "mir.toml"],
    ["new", "x.toml", "--system", "eclats"],
]
ERRORS = [
    ["validate"], ["systems", "--bogus"], ["roll", "mir", "--pool", "x"], ["roll", "mir", "--pool"],
    ["export", "mir.toml", "--session", "x"], ["turn", "mir.toml", "sideways"], ["game", "zz"],
    ["roll", "mir", "--kind", "zz"], ["validate", "none.toml"], ["open", "mir.toml"], ["--lang", "de", "systems"],
    ["validate", "typo.toml"], ["resolve", "typo.toml"], ["resolve", "typo.json"], ["odds", "typo.json"],
]


@pytest.mark.parametrize("args", HELPS + OUTPUTS + ERRORS, ids=lambda args: " ".join(args))
def test_the_command_line_speaks_only_the_catalog(pseudo, capsys, args: list[str]) -> None:
    status, out, err = run(capsys, *args)
    assert status == (2 if args in ERRORS else 0), (out, err)
    text = out + err
    assert text.strip() and PSEUDO_LETTERS & set(text)         # it said something, from the catalog
    assert foreign_words(text, game_words() | typed_words(args)) == [], text
