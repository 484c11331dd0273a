"""The quick-roll line in either language: draft labels, missing-difficulty prompts, the choices
asked inside a roll and the `?` help come from the catalog (French as the table speaks it,
English chrome), while the line's keywords and the game's vocabulary stay as they are."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

import gmscreen.rules
from gmscreen import i18n
from gmscreen.campaign import load_campaign, sample_path
from gmscreen.i18n import msgfmt
from gmscreen.play.games import table_for
from gmscreen.play.quickroll import RollFlow, grammar_help, parse
from gmscreen.play.table_roll import ChoiceError, TableRoll

SYSTEMS = tuple(gmscreen.rules.SYSTEMS)
GAMES = Path(__file__).resolve().parents[2] / "gmscreen" / "play" / "games"
NNBSP = "\u202f"


@pytest.fixture(scope="module")
def camp():
    cache = {s: load_campaign(sample_path(s)) for s in SYSTEMS}
    return cache.__getitem__


def _prompted(draft, seeds: int = 200) -> RollFlow:
    for seed in range(seeds):
        flow = RollFlow(draft, random.Random(seed)).start()
        if flow.prompt is not None:
            return flow
    raise AssertionError(f"no prompt for {draft.line!r}")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_game_help_text_has_both_languages(lang: str) -> None:
    """help.toml holds English message ids: each has a text in the catalog of each language."""
    catalog = msgfmt.catalog(lang)
    missing = []
    for path in sorted(GAMES.glob("*/help.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        texts = [data["title"], *data.get("notes", ()), *(e["meaning"] for e in data.get("examples", ()))]
        missing += [f"{path.parent.name}: {t!r}" for t in texts if (None, t) not in catalog]
    assert missing == []


def test_the_grammar_help_in_english_keeps_what_the_gm_types(english) -> None:
    text = grammar_help("mir")
    assert "One line = one test:" in text and "Difficulties (SD): " in text and "Une ligne" not in text
    assert "loriane éloquence sd3" in text                # what to type stays as typed
    assert "Moyenne 3" in text                            # the game's difficulty labels too
    assert "simple test, SD 3" in text
    i18n.set_language("fr")
    french = grammar_help("mir")
    assert "Une ligne = un test :" in french and "test simple, SD 3" in french and "One line" not in french


def test_draft_labels_and_missing_difficulty_in_both_languages(camp) -> None:
    c = camp("mir")
    assert parse("loriane éloquence", c).missing.startswith("SD manquant : tapez sd3")
    opposed = parse("callia infiltration vs garde instinct", c).label
    assert " contre " in opposed
    assert parse("ysaure emp calmer", camp("eclats")).label.endswith("· seuil ?")
    assert parse("ysaure emp calmer", camp("eclats")).missing.startswith("seuil manquant")
    assert "difficulté −3" in parse("marchand baratin -3", camp("arpeges")).label
    i18n.set_language("en")
    draft = parse("loriane éloquence", c)
    assert draft.missing.startswith("SD missing: type sd3") and "SD ?" in draft.label
    assert " against " in parse("callia infiltration vs garde instinct", c).label
    assert parse("ysaure emp calmer 9", camp("eclats")).label.endswith("· threshold 9")
    assert "difficulty −3" in parse("marchand baratin -3", camp("arpeges")).label
    assert parse("alexis force sd4 +1d aide loriane", c).modifier_text == "+1d, help Loriane"
    # The French keywords keep working in English.
    assert parse("shady négociation seuil 25", camp("magisphere")).request["threshold"] == 25


def test_the_providence_prompt_names_the_level_and_honest_odds() -> None:
    """Te Deum: "elle tombe à aucune" is gone; the die after use is named as the rules name it,
    and the odds are written with a narrow no-break space (French) or none (English)."""
    c = load_campaign(sample_path("tedeum"))
    louvensac = next(ch for ch in c.characters if ch.name == "Mlle de Louvensac")
    louvensac.sheet["resources"]["providence"] = 4
    draft = parse("louvensac charme 13", c)
    question = RollFlow(draft, random.Random(1)).start().prompt.question
    assert question.startswith("Mlle de Louvensac appelle la Providence ? D4 (")
    assert question.endswith("puis elle passe à Brebis égarée") and "aucune" not in question
    assert question.count(NNBSP + "%") == 2
    i18n.set_language("en")
    flow = RollFlow(draft, random.Random(1)).start()
    assert flow.prompt.question.startswith("Mlle de Louvensac calls on Providence? D4 (")
    assert flow.prompt.question.endswith("then it drops to Brebis égarée") and NNBSP not in flow.prompt.question
    assert [o.label for o in flow.prompt.options] == ["Providence", "without"]


def test_reroll_prompts_in_english(camp, english) -> None:
    flow = _prompted(parse("ysaure emp calmer 9", camp("eclats")))
    assert "Ysaure: die " in flow.prompt.question and "— reroll?" in flow.prompt.question
    assert "more roll" in flow.prompt.question and [o.label for o in flow.prompt.options] == ["reroll", "keep"]
    flow = _prompted(parse("shady discr 35", camp("magisphere")))
    assert "spend 1 Impulsion to reroll?" in flow.prompt.question
    assert [o.label for o in flow.prompt.options] == ["reroll (1 Impulsion)", "keep"]
    flow = _prompted(parse("thibault baratin +5 vs marchand baratin", camp("arpeges")))
    assert flow.prompt.question.startswith("The action succeeds (margin ")
    assert [o.label for o in flow.prompt.options] == ["parry", "let it through"]


def test_a_choice_the_prompt_does_not_offer_is_said_in_the_language(tmp_path, english) -> None:
    from gmscreen.campaign import open_session
    import shutil

    path = tmp_path / "eclats.toml"
    shutil.copyfile(sample_path("eclats"), path)
    session = open_session(path)
    try:
        draft = parse("ysaure emp calmer 9", session.campaign)
        seed = next(s for s in range(200) if RollFlow(draft, random.Random(s)).start().prompt is not None)
        roll = TableRoll(session, draft, rng=random.Random(seed)).start()
        with pytest.raises(ChoiceError, match=r"^no choice 'x' at “Ysaure: die .*”: expected r \(reroll\)"):
            roll.play(["x"])
    finally:
        session.close()


def test_the_help_says_the_difficulties_in_the_games_own_words(french) -> None:
    """The `?` help's difficulty line: the game's word for it and each row's note (it listed
    bare names), from `LineRules.difficulty_help`, which a game may say otherwise."""
    from gmscreen.play.quickroll import grammar_help

    text = " ".join(grammar_help("mir").split())
    assert "Difficultés (SD) : Triviale 0 (Réussite automatique), Très facile 1," in text
    assert "Difficultés (seuil) :" in " ".join(grammar_help("eclats").split())
