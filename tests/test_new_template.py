"""`gmscreen new` writes a commented template a GM can fill by hand (issue 24): one example
character with the game's sheet, resource and a condition, the fight as arrays of tables, so a
`[[characters]]` appended by hand loads; in every game and both languages."""

from __future__ import annotations

import pytest

from gmscreen import i18n
from gmscreen.campaign.store import load_campaign
from gmscreen.play.games import table_for
from gmscreen.play.template import example_sheet
from gmscreen.rules import get_system, registry

from _cli_helpers import cli_english, run  # noqa: F401  (the fixture is autouse)

SHIPPED = ("mir", "eclats", "tedeum", "arpeges", "magisphere")
# A comment line each language's template carries, in its own words.
HEADER = {"en": "# The characters. One [[characters]] block each", "fr": "# Les personnages. Un bloc [[characters]] chacun"}



def copied_example(text: str) -> str:
    """What the template tells a GM to do: copy the example's block to the end, new id and name."""
    block = text[text.index("\n[[characters]]\n"):text.index("\n[encounter]\n")]
    block = block[:block.rindex("# ---")]           # the fight's own comments stay where they are
    return "\n" + block.replace('id = "example"', 'id = "bertrand"').replace('side = "party"', 'side = "npc"')


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("system", SHIPPED)
def test_new_writes_a_commented_template_that_validates_and_takes_a_hand_appended_character(
        capsys, tmp_path, system, lang):
    path = tmp_path / "camp.toml"
    status, out, err = run(capsys, "--lang", lang, "new", str(path), "--system", system)
    assert status == 0, err
    text = path.read_text(encoding="utf-8")
    assert HEADER[lang] in text
    other = next(language for language in i18n.LANGUAGES if language != lang)
    assert HEADER[other] not in text
    assert "characters = []" not in text and "entries = []" not in text
    status, out, err = run(capsys, "validate", str(path))
    assert status == 0, out + err

    campaign = load_campaign(path)
    (example,) = campaign.characters
    rules = get_system(system)
    for group in rules.sheet:           # every required group of the game's sheet is written
        if group.required:
            assert group.key in example.sheet, group.key
    resource = table_for(system).sheet.resource(rules)
    if resource is not None:
        assert resource.key in example.sheet[resource.group]
    assert example.conditions and example.conditions[0].name == table_for(system).effects.presets[0].name
    assert campaign.rules == {option: values[0] for option, values in rules.rule_options.items()}
    assert campaign.initiative == rules.initiative

    path.write_text(text + copied_example(text), encoding="utf-8")
    assert [c.id for c in load_campaign(path).characters] == ["example", "bertrand"]
    status, out, err = run(capsys, "validate", str(path))
    assert status == 0, out + err


def test_the_template_speaks_of_each_game_in_its_own_stats(capsys, tmp_path):
    """The sheet part comes from the game: one game's stat labels never show in another's file."""
    texts = {}
    for system in SHIPPED:
        path = tmp_path / f"{system}.toml"
        assert run(capsys, "new", str(path), "--system", system)[0] == 0
        texts[system] = path.read_text(encoding="utf-8")
    assert "Héritage" in texts["mir"] and "Héritage" not in texts["eclats"]
    assert "Dés négatifs" in texts["tedeum"] and "Dés négatifs" not in texts["arpeges"]
    assert "impulsion_max" in texts["magisphere"] and "impulsion" not in texts["mir"]


def test_the_screens_new_flag_writes_the_template_too(tmp_path, monkeypatch):
    from gmscreen import ui

    started = []
    monkeypatch.setattr("gmscreen.ui.app.GMScreenApp.run", lambda self, **kw: started.append(self) or 0)
    path = tmp_path / "c.toml"
    ui.run(path, new_system=registry.FIRST_RUN, language="en")
    assert HEADER["en"] in path.read_text(encoding="utf-8")
    assert started


@pytest.mark.parametrize("system", SHIPPED)
def test_a_game_without_a_sample_still_gets_a_template_that_validates(capsys, tmp_path, monkeypatch, system):
    """A game shipped without a sample (a third-party package may): the sheet is the game's
    required stats at their defaults, and the file still loads."""
    from gmscreen.play import template

    def missing(system_id):
        raise FileNotFoundError(system_id)

    monkeypatch.setattr(template, "sample_path", missing)
    path = tmp_path / "camp.toml"
    status, out, err = run(capsys, "new", str(path), "--system", system)
    assert status == 0, err
    (example,) = load_campaign(path).characters
    assert all(group.key in example.sheet for group in get_system(system).sheet if group.required)


def test_the_template_keeps_its_comments_through_a_change_saved_from_the_screen(capsys, tmp_path):
    """The screen's saves edit the file in place: the template's comments (the GM's guide to
    it) stay, and a character added lands as a [[characters]] block that loads."""
    from gmscreen.campaign import open_session
    from gmscreen.campaign.model import Character

    path = tmp_path / "camp.toml"
    assert run(capsys, "--lang", "en", "new", str(path), "--system", "mir")[0] == 0
    session = open_session(path)
    try:
        with session.edit("add") as builder:
            builder.insert(("characters",), None, Character(id="zed", name="Zed", side="npc",
                                                            sheet=example_sheet(table_for("mir"))))
        assert session.save_now() is None
    finally:
        session.close()
    text = path.read_text(encoding="utf-8")
    assert HEADER["en"] in text and "# " in text.split("[encounter]")[0]
    assert [c.id for c in load_campaign(path).characters] == ["example", "zed"]
