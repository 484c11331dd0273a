"""A game's own words in both languages: its gettext catalog (own domain, own folder),
registered with its `Plugin`, looked up first for its words and as a fallback everywhere."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from gmscreen import i18n
from gmscreen.i18n import _, pgettext
from gmscreen.i18n.games import words_for
from gmscreen.i18n.msgfmt import compile_po
from gmscreen.play.render import CliRenderer
from gmscreen.rules import Plugin, get_system, register, registry, resolve

PO = {"fr": ('msgctxt "die"\nmsgid "six"\nmsgstr "six !"\n\n'
             'msgctxt "total unit"\nmsgid "hits"\nmsgstr "touches"\n\n'
             'msgctxt "total unit"\nmsgid "success"\nmsgstr "réussite du jeu"\n\n'
             'msgid "pushed roll"\nmsgstr "jet poussé"\n'),
      "en": 'msgid "pushed roll"\nmsgstr "pushed roll"\n'}


@pytest.fixture
def catalogs(tmp_path: Path) -> Path:
    folder = tmp_path / "locale"
    for lang, text in PO.items():
        po = tmp_path / f"{lang}.po"
        po.write_text(text, encoding="utf-8")
        compile_po(po, folder / lang / "LC_MESSAGES" / "wordgame.mo", lang)
    return folder


@pytest.fixture
def wordgame(catalogs: Path):
    mir = get_system("mir")
    system = dataclasses.replace(mir, id="wordgame", die_words={"counted": "six"}, total_unit=" hits",
                                 total_unit_one=" success")
    register(Plugin("wordgame", system, catalogs=("wordgame", catalogs)))
    yield system
    registry.unregister("wordgame")


def test_the_game_words_come_from_its_catalog_first(wordgame, french) -> None:
    words = words_for("wordgame")
    assert words.pgettext("die", "six") == "six !"
    assert words.pgettext("total unit", "success") == "réussite du jeu"      # the game's, before gmscreen's
    assert pgettext("total unit", "success") == "succès"                    # gmscreen's own stays
    assert words.gettext("Undo: {what}") == _("Undo: {what}")               # the rest: gmscreen's


def test_a_word_gmscreen_lacks_is_found_in_the_games_catalogs_in_the_language_spoken(wordgame) -> None:
    i18n.set_language("fr")
    assert _("pushed roll") == "jet poussé"
    i18n.set_language("en")
    assert _("pushed roll") == "pushed roll"
    i18n.set_language("fr")
    registry.unregister("wordgame")
    assert _("pushed roll") == "pushed roll"          # forgotten with its game


def test_the_result_renders_in_the_games_words(wordgame, french) -> None:
    request = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2, "dice": [1, 5, 9]}
    line = CliRenderer(wordgame, request).lines(get_system("mir").describe(resolve(request)))[0]
    assert "[9 six !]" in line and line.endswith("= 1 réussite du jeu")
    request["dice"] = [8, 9, 1]
    line = CliRenderer(wordgame, request).lines(get_system("mir").describe(resolve(request)))[0]
    assert line.endswith("= 2 touches")
