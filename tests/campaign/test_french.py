"""A campaign's problems in French: every message `gmscreen validate` and the load-error screen
show comes from the catalog, with its values filled in; the English words are the other
tests' (they run in English)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gmscreen import i18n
from gmscreen.campaign.errors import CampaignLocked, Problem
from gmscreen.campaign.validate import validate_file

BAD = Path(__file__).resolve().parent.parent / "data" / "bad_campaigns"
# Problems worded by the rules themselves (a refused timer test, a derived key of the sheet):
# their words are the rules' catalog's, not the campaign's.
RULES_WORDS = {"timer_bad_dice.toml", "timer_bad_request.toml", "mir_mensonge_marker.toml", "mir_trauma_key.toml"}


def _problems(path: Path, lang: str) -> list[Problem]:
    i18n.set_language(lang)
    return validate_file(path)


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.glob("*.toml") if p.name != "EXPECTED.toml"))
def test_every_problem_of_a_bad_file_is_said_in_french(name: str) -> None:
    english = _problems(BAD / name, "en")
    french = _problems(BAD / name, "fr")
    assert [(p.file, p.path, p.line, p.warning) for p in french] == \
        [(p.file, p.path, p.line, p.warning) for p in english]
    if name not in RULES_WORDS:
        same = [p.message for p, q in zip(french, english) if p.message == q.message]
        assert same == []
    assert all("{" not in p.message or "{" in q.message for p, q in zip(french, english))   # all filled in


def test_french_problems_read_as_french(tmp_path: Path) -> None:
    i18n.set_language("fr")
    [missing] = validate_file(BAD / "missing_name.toml")
    assert missing.message == 'manquant : le nom de la campagne (name = "...")'
    [wrong] = validate_file(BAD / "bool_as_int.toml")
    assert wrong.message == "attendu pour Héritage : un entier de 1 à 6, reçu un booléen true"
    [typo] = validate_file(BAD / "unknown_top_key.toml")
    assert typo.message.startswith("clé inconnue dans la campagne (vouliez-vous dire 'characters' ?) ; attendu parmi")
    path = tmp_path / "c.toml"
    path.write_text('format = 1\nname = "A\\u0007"\nsystem = "mir"\n', encoding="utf-8")
    [warning] = validate_file(path)
    assert str(warning) == (f"{path}:2: avertissement : name: caractère de contrôle U+0007 dans le texte "
                            "(gardé tel quel ; l'écran l'affiche neutralisé)")


def test_a_locked_campaign_and_a_missing_file_in_both_languages(tmp_path: Path) -> None:
    i18n.set_language("fr")
    assert str(CampaignLocked("c.toml", "12@hote")) == "c.toml est ouvert dans un autre gmscreen (12@hote)"
    [missing] = validate_file(tmp_path / "none.toml")
    assert missing.message.startswith("lecture du fichier impossible : ")
    i18n.set_language("en")
    assert str(CampaignLocked("c.toml", "12@host")) == "c.toml is open in another gmscreen (12@host)"
