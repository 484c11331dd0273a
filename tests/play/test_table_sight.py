"""What the players may see of the line typed is the table's to say (`Table.sight`), once, and
every surface reads it: the events' `visibility` and the tray's masks agree. Completion too is
the table's, in its game's words. Real sample campaigns on disk."""

from __future__ import annotations

import pytest

from gmscreen.i18n import _
from gmscreen.play import events as ev
from gmscreen.play.public import ACTOR, Visibility
from gmscreen.play.table import Table


def _hide(table: Table, char_id: str) -> None:
    index = next(n for n, ch in enumerate(table.session.campaign.characters) if ch.id == char_id)
    table.change("caché", lambda b: b.set(("characters", index, "hidden"), True))


def test_a_line_that_does_not_read_names_a_hidden_character_to_nobody(sessions) -> None:
    table = Table(sessions.open("mir"))
    _hide(table, "garde")
    table.type_line("garde zzz")                       # does not read: no skill "zzz"
    assert table.error is not None and table.draft is None
    sight = table.sight()
    assert ACTOR in sight.hidden_sides and not sight.whole
    table.type_line("alexis zzz")                      # the same error, naming nobody hidden
    assert table.sight().whole


@pytest.mark.parametrize("line", ["alexis mj, zzz", "alexis (mj) zzz", "alexis MJ zzz"])
def test_a_secret_word_is_read_with_its_punctuation(sessions, line: str) -> None:
    """`mj,` is `mj`: an error quoting a GM-only line says nothing of it to the players, and
    the event the table tells says so too."""
    table = Table(sessions.open("mir"))
    heard: list[ev.Event] = []
    table.subscribe(heard.append)
    table.type_line(line)
    assert table.error is not None
    assert table.sight().secret
    drafts = [e for e in heard if isinstance(e, ev.DraftChanged)]
    assert drafts[-1].visibility is Visibility.SECRET


def test_a_drafted_roll_against_a_hidden_side_says_which(sessions) -> None:
    table = Table(sessions.open("mir"))
    _hide(table, "alexis")
    table.type_line("alexis éloquence sd3")
    assert table.draft is not None and table.error is None
    sight = table.sight()
    assert sight.visibility is Visibility.PUBLIC and ACTOR in sight.hidden_sides
    table.type_line("loriane éloquence sd3 caché")
    assert table.sight().visibility is Visibility.DIFFICULTY_HIDDEN and not table.sight().hidden_sides


def test_completion_is_the_tables_in_its_games_words(sessions) -> None:
    table = Table(sessions.open("mir"))
    done = table.complete("lori", 4)
    assert done is not None and done.candidates == ("loriane",)
    table.select("loriane")
    done = table.complete("élo", 3)                   # the selected character's skill
    assert done is not None and done.candidates == ("éloquence",)
    assert table.complete("", 0) is not None


def test_a_question_asked_while_players_watch_names_no_hidden_character(sessions) -> None:
    """Who joins the fight, and when a late joiner acts: the options stay told apart, a
    hidden character called "a hidden character"; the GM alone sees the names."""
    table = Table(sessions.open("mir"))
    _hide(table, "geolier")
    question = "NPCs: Le garde de la porte, Frère Anselme, geôlier"
    assert table.as_seen(question) == question
    table.watch(True)
    shown = table.as_seen(question)
    assert "Anselme" not in shown and "garde de la porte" in shown and _("a hidden character") in shown


def test_a_track_notice_while_players_watch_names_no_hidden_character(sessions) -> None:
    table = Table(sessions.open("mir"))
    heard: list[ev.Event] = []
    table.subscribe(heard.append)
    _hide(table, "garde")
    table.add_track("garde", "Coups", 1)
    table.watch(True)
    move = table.move_track("garde", 1)
    assert move is not None and move.notices                    # defeated: said
    said = [e.text for e in heard if isinstance(e, ev.Notice)]
    assert said and not any("garde" in text.casefold() for text in said[-len(move.notices):])
    table.watch(False)
    move = table.move_track("garde", -1)
    assert move is not None
