"""English, all of it (issue 24): what the rules declare for people to read (systems, kinds,
flags) and what the panes say around the game's vocabulary reads as English in English and
as French in French; the game's own words (skills, SD names, Voies) stay as the rules write them."""

from __future__ import annotations

import re

import pytest

from gmscreen import i18n
from gmscreen.rules import registry

from _cli_helpers import cli_english, run  # noqa: F401 (fixture)

# Words only a French sentence has (the game's vocabulary aside: Compétence, Voie, seuil 13 (Périlleux)…).
FRENCH = re.compile(r"\b(dé|dés|de l'|du|des|la|le|les|une?|par|chaque|jet|relances?|réussites?|opposant|"
                    r"acteur|défenseur|aide|somme|imposée?s?|premier|manche|test opposé|test étendu)\b| : ")


def _kinds():
    for sid in registry.SHIPPED:
        system = registry.system(sid)
        for kind in system.kinds:
            yield sid, kind


def _flag_helps(out: str) -> str:
    """The request fields' part of a `roll --help` (argparse's wrapping joined back): after --who's."""
    return " ".join(out.partition("--who NAME")[2].partition("--who NAME")[2].split())


@pytest.mark.parametrize(("sid", "kind"), list(_kinds()))
def test_every_flag_and_kind_reads_in_the_language_chosen(capsys, sid: str, kind: str) -> None:
    status, out, _err = run(capsys, "--lang", "en", "roll", sid, "--kind", kind, "--help")
    assert status == 0
    helps = _flag_helps(out)
    label = out.split(" · ", 1)[1].split(" (", 1)[0]
    assert not FRENCH.search(helps.replace("Niveau de Compétence", "NdC")), helps
    assert not FRENCH.search(label), label
    french = run(capsys, "--lang", "fr", "roll", sid, "--kind", kind, "--help")[1]
    system = registry.system(sid)
    fr = i18n.catalog_for("fr")
    assert fr.gettext(system.kinds[kind].label) in french
    for spec in system.kinds[kind].fields:                    # every field's help is in the French catalog
        assert spec.help == "" or getattr(fr, "_catalog").get(spec.help) is not None, spec.help


def test_the_systems_are_described_in_the_language_chosen(capsys) -> None:
    english = run(capsys, "--lang", "en", "systems")[1]
    assert "pool of d12s (skill + Voie): 7–11 = 1 success, 12 = 2 successes; SD 1–7" in english
    assert "±d10: luck die − bad-luck die, + final difficulty = margin" in english
    assert not FRENCH.search(english.replace("Te Deum pour un massacre", "").replace("Les Arpèges", ""))
    french = run(capsys, "--lang", "fr", "systems")[1]
    assert "pool de d12 (compétence + Voie) : 7–11 = 1 succès, 12 = 2 succès ; SD 1–7" in french
    assert "dé de caractéristique ouvert D4–D20 + compétence ≥ seuil" in french


def test_mir_and_te_deum_flags_speak_french_in_french(capsys) -> None:
    mir = _flag_helps(run(capsys, "--lang", "fr", "roll", "mir", "--kind", "opposed", "--help")[1])
    assert "réserve de base : compétence + Voie" in mir and "qui a lancé le test : gagne les égalités" in mir
    assert "base pool" not in mir
    tedeum = _flag_helps(run(capsys, "--lang", "fr", "roll", "tedeum", "--kind", "attack", "--help")[1])
    assert "attaquant : score de compétence ajouté au dé" in tedeum
    assert "défenseur (s'il réagit) : dé de Providence actuel (0 = Brebis égarée)" in tedeum
    assert "skill score" not in tedeum
    english = _flag_helps(run(capsys, "--lang", "en", "roll", "tedeum", "--kind", "attack", "--help")[1])
    assert "defender (when reacting): current Providence die (0 = Brebis égarée)" in english


def test_the_help_types_the_open_campaigns_people(english) -> None:
    from gmscreen.play.quickroll import grammar_help

    sample = grammar_help("tedeum", 100)
    assert "louvensac comédie vs gentilhomme perspicacité" in sample          # the sample's own, as shipped
    own = grammar_help("tedeum", 100, ["Ada Quill", "Bram"])
    assert "ada comédie vs bram perspicacité" in own and "bram escrime attaque vs ada escrime" in own
    assert "louvensac" not in own and "gentil" not in own
    assert "names and skills by a unique beginning: “ada cha”" in own.replace("\u00a0", " ")
    mir = grammar_help("mir", 100, ["Ada Quill", "Bram", "Cole"])
    assert "ada force sd4 +1d aide bram" in mir and "loriane" not in mir and "lor élo" not in mir


@pytest.mark.parametrize(("sid", "words"), [("mir", "“difficile”, “très f”"), ("tedeum", "“malaisé”, “par d”"),
                                             ("magisphere", "“standard”, “très f”")])
def test_the_help_names_difficulties_from_the_games_own_table(english, sid: str, words: str) -> None:
    from gmscreen.play.quickroll import grammar_help

    text = " ".join(grammar_help(sid, 200).replace("\u00a0", " ").split())
    assert f"beginning of its name in the table: {words}" in text
    assert "automatic success" in grammar_help("mir", 200)
    i18n.set_language("fr")
    french = " ".join(grammar_help(sid, 200).replace("\u00a0", " ").split())
    assert "dans la table : « " + words.split("”")[0].lstrip("“") + " »" in french
    assert "Réussite automatique" in grammar_help("mir", 200)
