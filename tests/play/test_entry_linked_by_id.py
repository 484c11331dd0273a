"""A fight entry written by hand without `character =`, whose id is a character's, is that
character's place in the fight once loaded (a line without a name is theirs on their turn), the
file is not rewritten for it, and an ad-hoc name added from the table never takes a character's
id (it would become that character on the next load)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from gmscreen.campaign import open_session, sample_path
from gmscreen.campaign.validate import validate_file
from gmscreen.play import RollLogged, Table
from gmscreen.play.encounter import current_character, end_fight
from gmscreen.play.joins import join


def unlinked_copy(folder: Path) -> Path:
    path = folder / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    text = path.read_text(encoding="utf-8")
    assert text.count('character = "garde"\n') == 1
    path.write_text(text.replace('character = "garde"\n', ""), encoding="utf-8")
    return path


def test_an_entry_whose_id_is_a_character_is_linked_on_load(tmp_path: Path) -> None:
    path = unlinked_copy(tmp_path)
    assert [p for p in validate_file(path) if not p.warning] == []
    session = open_session(path)
    try:
        entries = {e.id: e.character for e in session.campaign.encounter.entries}
        assert entries["garde"] == "garde"          # linked by its id
        assert entries["chien"] is None             # an ad-hoc name stays ad hoc
        assert current_character(session.campaign) == "garde"     # turn = 1: the guard's turn
        table = Table(session, rng=random.Random(3))
        heard: list = []
        table.subscribe(heard.append)
        table.select_current()
        table.submit("instinct secret sd2")         # no name: the current actor's skill
        logged = [e.record for e in heard if isinstance(e, RollLogged)]
        assert [r.who for r in logged] == ["Le garde de la porte"]
        session.save_now()
    finally:
        session.close()
    assert 'character = "garde"' not in path.read_text(encoding="utf-8")   # linked in memory only


def test_an_ad_hoc_name_never_takes_a_characters_id(tmp_path: Path) -> None:
    session = open_session(shutil.copyfile(sample_path("mir"), tmp_path / "mir.toml"))
    try:
        with session.edit("fin") as b:
            end_fight(b, session.campaign)
        result = join(Table(session), session, [("Garde", None, 4), ("Chien", None, 2)])
        assert result.added == ["garde-2", "chien"]
        session.save_now()
    finally:
        session.close()
    again = open_session(tmp_path / "mir.toml")
    try:
        assert [(e.id, e.character) for e in again.campaign.encounter.entries] == [("garde-2", None),
                                                                                   ("chien", None)]
    finally:
        again.close()


def test_validate_says_how_to_link_an_entry_named_as_a_character(tmp_path: Path) -> None:
    """An entry with another id but a character's name, the character not in the fight otherwise:
    `gmscreen validate` says where, and what to write (a warning: the file still opens)."""
    import io

    from gmscreen.campaign.commands import cmd_validate

    path = unlinked_copy(tmp_path)
    text = path.read_text(encoding="utf-8")
    head, entries, tail = text.partition("[[encounter.entries]]")       # the entry, not the character
    path.write_text(head + entries + tail.replace('id = "garde"\n', 'id = "g1"\n'), encoding="utf-8")
    problems = validate_file(path)
    assert [(p.path, p.warning) for p in problems] == [("encounter.entries[1]", True)]
    assert 'write character = "garde" in it' in problems[0].message or \
        'écrivez-y character = "garde"' in problems[0].message
    err = io.StringIO()
    assert cmd_validate(path, out=io.StringIO(), err=err) == 0
    said = err.getvalue().strip().splitlines()
    assert len(said) == 1 and "encounter.entries[1]" in said[0] and 'character = "garde"' in said[0]
    assert str(problems[0].line) in said[0]
