"""Issue 24, awkward English: each sentence the issue names reads as a person would write it, in
English and in French (through the CLI and gmscreen.play)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import sample_path

from _cli_helpers import cli_english, cli_french, run  # noqa: F401 (fixtures)


def _with_unknown_sheet_key(tmp_path: Path, system: str) -> Path:
    target = tmp_path / f"{system}.toml"
    text = sample_path(system).read_text(encoding="utf-8")
    head, sep, rest = text.partition("[characters.sheet.")
    target.write_text(head + "[characters.sheet.skillz]\nx = 1\n\n" + sep + rest, encoding="utf-8")
    return target


@pytest.mark.parametrize(("system", "english", "french"), [
    ("eclats", "unknown key in an Éclats sheet", "clé inconnue dans une fiche d'Éclats"),
    ("mir", "unknown key in a MIR sheet", "clé inconnue dans une fiche de MIR"),
    ("arpeges", "unknown key in a Les Arpèges sheet", "clé inconnue dans une fiche des Arpèges"),
])
def test_an_unknown_sheet_key_names_the_game_with_its_article(capsys, monkeypatch, tmp_path, system: str,
                                                              english: str, french: str) -> None:
    path = _with_unknown_sheet_key(tmp_path, system)
    status, out, err = run(capsys, "validate", str(path))
    assert status == 2 and english in out + err and f"a {system} sheet" not in out + err
    status, out, err = run(capsys, "--lang", "fr", "validate", str(path))
    assert status == 2 and french in out + err


@pytest.mark.parametrize(("args", "english", "french"), [
    (("--pool", "2", "--difficulty", "1", "--dice", "7"),
     "expected exactly 2 dice (pool 2), got 1", "il faut exactement 2 dés, 1 donné (réserve 2)"),
    (("--pool", "2", "--modifier", "1", "--penalty", "4", "--difficulty", "1", "--dice", "7,8"),
     "expected exactly 1 die (pool 2, situation +1, penalty −4: at least 1 die), got 2",
     "il faut exactement 1 dé, 2 donnés (réserve 2, situation +1, pénalité −4 : au moins 1 dé)"),
    (("--kind", "group", "--skill", "2", "--pool", "3", "--helper-pools", "0,2", "--difficulty", "1",
      "--dice", "1,2,3", "--helper-dice", "1,2;3"),
     "expected exactly 1 die (helper 1's pool 0: at least 1 die), got 2",
     "il faut exactement 1 dé, 2 donnés (réserve 0 de l'aide 1 : au moins 1 dé)"),
    (("--kind", "extended", "--pool", "2", "--threshold", "5", "--test-modifiers", "0,1", "--rolls", "7,1;3"),
     "test 2: expected exactly 3 dice (pool 2, this test +1), got 1",
     "test 2 : il faut exactement 3 dés, 1 donné (réserve 2, ce test +1)"),
])
def test_mir_says_where_its_dice_count_comes_from_in_words(capsys, args, english: str, french: str) -> None:
    """Not "max(1, 2) = 2": the pool and what changed it, and "at least 1 die" when it is less."""
    status, out, err = run(capsys, "roll", "mir", *args)
    assert status == 2 and english in err and "max(" not in err, err
    status, out, err = run(capsys, "--lang", "fr", "roll", "mir", *args)
    assert status == 2 and french in err and "max(" not in err, err


def test_mir_group_help_words_have_no_formula(capsys) -> None:
    status, out, err = run(capsys, "roll", "mir", "--kind", "group", "--pool", "3", "--helper-pools", "1",
                           "--difficulty", "1")
    assert status == 2 and "required by a group test, whose help the skill caps (at least 1)" in err
    help_text = run(capsys, "roll", "mir", "--kind", "group", "--help")[1]
    assert "each rolls their pool, at least 1 die" in " ".join(help_text.split()) and "max(" not in help_text


@pytest.fixture
def tedeum_copy(tmp_path: Path) -> Path:
    target = tmp_path / "tedeum.toml"
    shutil.copyfile(sample_path("tedeum"), target)
    return target


def test_a_name_missing_after_vs_says_what_comes_there(capsys, tedeum_copy: Path) -> None:
    """Not "(the opponent first)": what the line expects at that place."""
    status, out, err = run(capsys, "line", str(tedeum_copy), "louvensac comédie vs qqq")
    assert status == 2 and "“qqq”: no character of that name; after “vs” comes the opponent's name" in err
    status, out, err = run(capsys, "--lang", "fr", "line", str(tedeum_copy), "louvensac comédie vs qqq")
    assert status == 2 and "« qqq » : aucun personnage de ce nom ; après « vs » vient le nom de l'opposant" in err


def test_a_line_without_its_roller_says_the_name_comes_first() -> None:
    from gmscreen import i18n
    from gmscreen.play.quickroll import QuickRollError

    try:
        i18n.choose("en")
        said = QuickRollError("name_first", 0, word="escrime", role="actor").message
        assert said == "“escrime”: no character of that name; a line starts with the name of who rolls"
        i18n.choose("fr")
        said = QuickRollError("name_first", 0, word="escrime", role="actor").message
        assert said == "« escrime » : aucun personnage de ce nom ; une ligne commence par le nom du personnage qui lance"
    finally:
        i18n.choose("fr")


def test_the_odds_say_what_they_assume_in_words(capsys) -> None:
    """Not "policy: no providence": what the odds take the players to do."""
    args = ("odds", "tedeum", "--kind", "opposed", "--actor-die", "12", "--actor-skill", "5",
            "--actor-negative-die", "6", "--actor-use-providence", "--actor-providence-die", "6",
            "--opponent-die", "10", "--opponent-skill", "4", "--opponent-negative-die", "6")
    out = run(capsys, *args)[1]
    assert "  assuming: Providence called on for the actor; Providence not called on for the opponent" in out
    assert "policy" not in out
    out = run(capsys, "--lang", "fr", *args)[1]
    assert "  en supposant : la Providence invoquée côté acteur ; la Providence non invoquée côté opposant" in out
    out = run(capsys, "odds", "magisphere", "--stat", "10", "--skill", "2", "--threshold", "15")[1]
    assert "  assuming: no reroll, no Impulsion point to spend" in out and "((" not in out


def test_a_refused_change_is_told_by_names_not_by_the_files_paths(tmp_path: Path) -> None:
    """The screen's notice of a change the campaign refuses: "Alexis · Ébloui par la lanterne ·
    rounds: …", not "/…/mir.toml: characters[0].conditions[0].rounds: …"."""
    from gmscreen import i18n
    from gmscreen.campaign import open_session
    from gmscreen.play import events as ev
    from gmscreen.play.writes import TableWrites

    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    i18n.choose("en")
    try:
        with open_session(path) as session:
            table = TableWrites(session)
            heard: list[ev.Event] = []
            table.subscribe(heard.append)
            first = session.campaign.characters[0]
            condition = first.conditions[0]
            assert not table.change("rounds", lambda b: b.set(("characters", 0, "conditions", 0, "rounds"), -5))
            [notice] = [e for e in heard if isinstance(e, ev.Notice)]
            assert notice.text.startswith(f"{first.name} · {condition.name} · rounds: "), notice.text
            assert str(path) not in notice.text and "characters[" not in notice.text
    finally:
        i18n.choose("fr")


def test_a_key_path_is_said_by_the_names_it_leads_to() -> None:
    from gmscreen.campaign import load_campaign
    from gmscreen.campaign.errors import Problem
    from gmscreen.play.problem_words import problem_words, where_words

    campaign = load_campaign(sample_path("mir"))
    first, guard = campaign.characters[0], campaign.encounter.entries[1]
    assert where_words("characters[0].conditions[0].rounds", campaign) == \
        f"{first.name} · {first.conditions[0].name} · rounds"
    assert where_words('characters[0].sheet.skills."Mains nues"', campaign) == f"{first.name} · sheet.skills.Mains nues"
    assert where_words("encounter.entries[1].initiative", campaign) == f"{guard.name} · initiative"
    assert where_words(("characters", 0, "conditions", 0), campaign) == f"{first.name} · {first.conditions[0].name}"
    assert where_words("characters[99].name", campaign) == "characters[99].name"        # nothing of that name
    said = problem_words(Problem("/somewhere/mir.toml", "characters[1]", "something wrong", 12), campaign)
    assert said.endswith(": something wrong") and campaign.characters[1].name in said and "/somewhere" not in said


def test_one_success_is_singular(capsys) -> None:
    out = run(capsys, "roll", "mir", "--pool", "2", "--difficulty", "1", "--dice", "7,3")[1]
    assert "= 1 success\n" in out and "1 success for SD 1" in out and "1 successes" not in out
    out = run(capsys, "--lang", "fr", "roll", "mir", "--pool", "2", "--difficulty", "1", "--dice", "7,3")[1]
    assert "= 1 succès" in out
