"""A typo on the quick-roll line gets an answer (issue 24): the close skill or name, offered
through the table's `DraftChanged` error in the language spoken, accents and case aside."""

from __future__ import annotations

import shutil

import pytest

from gmscreen.campaign import open_session, sample_path
from gmscreen.play import events as ev
from gmscreen.play.table import Table


@pytest.fixture
def table(tmp_path):
    """Te Deum's sample with its gentilhomme renamed Marguerite Duval (Escrime 3)."""
    path = tmp_path / "tedeum.toml"
    shutil.copyfile(sample_path("tedeum"), path)
    path.write_text(path.read_text(encoding="utf-8").replace("le gentilhomme huguenot", "Marguerite Duval"),
                    encoding="utf-8")
    session = open_session(path)
    heard: list = []
    t = Table(session)
    t.subscribe(heard.append)
    yield t, heard
    session.close()


def _error(heard: list, lang: str) -> str:
    changed = [e for e in heard if isinstance(e, ev.DraftChanged)]
    assert changed and changed[-1].draft is None and changed[-1].error is not None
    return changed[-1].error.text(lang)


def test_a_misspelt_skill_is_offered_its_close_name(table, english) -> None:
    t, heard = table
    t.type_line("marg escrme 7")
    assert _error(heard, "en") == "“escrme”: not a skill of Marguerite Duval: did you mean Escrime?"
    assert _error(heard, "fr") == "« escrme » : pas une compétence de Marguerite Duval : vouliez-vous dire Escrime ?"
    t.type_line("MARG ESCRIME 7")           # the right word, any case: a draft, no error
    assert heard[-1].draft is not None and heard[-1].error is None


def test_accents_and_case_do_not_count_against_a_skill(table) -> None:
    t, heard = table
    t.type_line("louvensac ETIQETTE 7")
    assert _error(heard, "fr").endswith("vouliez-vous dire Étiquette ?")


def test_a_misspelt_name_is_offered_the_character(table) -> None:
    t, heard = table
    t.type_line("margo escrime 7")
    assert _error(heard, "en") == "no character “margo” (Marguerite Duval?)"
    assert _error(heard, "fr") == "aucun personnage « margo » (Marguerite Duval ?)"
    t.select("louvensac")                   # the selected character has no skill 'margo': still a name
    assert _error(heard, "en") == "no character “margo” (Marguerite Duval?)"
    t.type_line("louvensac aide margo charme 9")
    assert _error(heard, "en") == "no character “margo” (Marguerite Duval?)"


def test_a_word_near_nothing_keeps_the_plain_error(table) -> None:
    t, heard = table
    t.type_line("louvensac xyzzy 7")
    assert _error(heard, "en") == "“xyzzy”: neither a skill of Mlle de Louvensac nor a known word"
    t.type_line("zorglub charme 7")
    assert "no character of that name" in _error(heard, "en")
