"""Condition effects typed in English: each game reads them exactly as their French words (the
same dice, difficulty, threshold or die step on the same roll), whatever the UI language; the
condition dialog's hint says what the game makes of an effect in the UI language, and the
warnings and examples speak it too. Every roll reads a real sample campaign copied into tmp_path."""

from __future__ import annotations

import shutil

import pytest

from gmscreen import i18n
from gmscreen.campaign import sample_path
from gmscreen.campaign.store import load_campaign
from gmscreen.play.effects import APPLIED, REMINDER, campaign_problems, effect_hint
from gmscreen.play.quickroll import parse
from gmscreen.play.tables import table_for


def _campaign(tmp_path, system: str, old: str, new: str):
    """The sample of `system` with every effect `old` written `new` instead."""
    path = tmp_path / f"{system}-{abs(hash(new))}.toml"
    shutil.copyfile(sample_path(system), path)
    text = path.read_text(encoding="utf-8")
    assert f'effect = "{old}"' in text
    path.write_text(text.replace(f'effect = "{old}"', f'effect = "{new}"'), encoding="utf-8")
    return load_campaign(path)


# ---------------------------------------------------------------- read as the French words

@pytest.mark.parametrize("system,english,french", [
    ("mir", "-1 die", "−1 dé"),
    ("mir", "−2 dice", "-2 dés"),
    ("mir", "+1 die", "+1 dé"),
    ("mir", "situation -1 die", "situation −1 dé"),
    ("mir", "wound −1 die", "blessure −1 dé"),
    ("mir", "prejudices -2 dice", "préjugés −2 dés"),
    ("mir", "negative antecedent -1 die", "antécédent négatif −1 dé"),
    ("mir", "penalty 2", "malus 2"),
    ("mir", "can't act", "ne peut pas agir"),
    ("tedeum", "penalty", "Malus"),
    ("tedeum", "Penalty 2 (two steps)", "Malus 2"),
    ("tedeum", "cannot act", "ne peut pas agir"),
    ("magisphere", "penalty 3", "Malus 3"),
    ("magisphere", "penalty", "Malus"),
    ("magisphere", "bonus 2", "Bonus 2"),
    ("arpeges", "-2 to difficulty", "−2 à la difficulté de ses actions"),
    ("arpeges", "−2 to the difficulty of their actions", "-2 à la difficulté"),
    ("arpeges", "+1 difficulty", "+1 a la difficulte"),
    ("eclats", "strength −1 (one roll fewer)", "FOR −1 (un lancer de moins)"),
    ("eclats", "END -1", "Endurance −1"),
    ("eclats", "-1 roll", "−1 lancer"),
    ("eclats", "-2 rolls", "−2 lancers"),
    ("eclats", "Can’t act", "ne peut pas agir"),
    ("eclats", "unconscious", "inconscient"),
])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_english_effect_reads_as_its_french_words_in_either_language(system, english, french, lang):
    i18n.set_language(lang)
    rules = table_for(system).effects
    read, expected = rules.read(english), rules.read(french)
    assert read is not None and expected is not None
    assert (read.amount, read.target, read.reminder) == (expected.amount, expected.target, expected.reminder)


@pytest.mark.parametrize("system,line,skip,old,english,field", [
    ("mir", "alexis tir sd2", "ébloui", "−1 dé", "-1 die", "modifier"),            # R3: situation dice
    ("mir", "alexis tir sd2", "ébloui", "−1 dé", "+1 die", "modifier"),
    ("mir", "alexis tir sd2", "ébloui", "−1 dé", "wound −1 die", "penalty"),      # R4: the sample's fight runs
    ("tedeum", "louvensac charme 13", "essoufflée", "Malus (un dé plus faible)", "penalty (a weaker die)",
     "die_shift"),
    ("magisphere", "shady négociation 25", "ivre", "Malus 3", "penalty 3", "malus"),
    ("arpeges", "sibylle épée -3", "étourdie", "−2 à la difficulté de ses actions", "-2 to difficulty",
     "difficulty"),
    ("eclats", "berthe for intimider 9", "transie", "FOR −1 (un lancer de moins)", "strength -1",
     "characteristic"),
])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_english_effect_changes_the_roll_exactly_as_the_french(tmp_path, system, line, skip, old, english,
                                                                  field, lang):
    """The same line on the sample with the French effect and with its English words: the same
    request, so the same dice, difficulty and odds; `sans` leaves it out the same way."""
    i18n.set_language(lang)
    french_words = {"-1 die": "−1 dé", "+1 die": "+1 dé", "wound −1 die": "blessure −1 dé"}.get(english, old)
    in_french = parse(line, _campaign(tmp_path, system, old, french_words))
    in_english = parse(line, _campaign(tmp_path, system, old, english))
    plain = parse(f"{line} sans {skip}", _campaign(tmp_path, system, old, english))
    assert [e.state for e in in_english.conditions] == [APPLIED]
    assert in_english.request == in_french.request and in_english.odds_request == in_french.odds_request
    assert in_english.request.get(field) != plain.request.get(field)
    assert plain.odds_request == in_english.unconditioned


# ---------------------------------------------------------------- what the dialog says

@pytest.mark.parametrize("system,typed,en,fr", [
    ("mir", "-1 die", "applies: −1 die", "s'applique : −1 dé"),
    ("mir", "−2 dés", "applies: −2 dice", "s'applique : −2 dés"),
    ("mir", "wound -1 die", "applies: wound −1 die (negative antecedent, R4: in a fight or an Intrigue)",
     "s'applique : blessure −1 dé (antécédent négatif, R4 : en combat ou en Intrigue)"),
    ("mir", "penalty 2", "applies: penalty 2 (negative antecedent, R4: in a fight or an Intrigue)",
     "s'applique : malus 2 (antécédent négatif, R4 : en combat ou en Intrigue)"),
    ("tedeum", "penalty 2", "applies: Malus 2 (the die 2 steps smaller)",
     "s'applique : Malus 2 (2 crans de dé en moins)"),
    ("tedeum", "Bonus", "applies: Bonus (the die 1 step larger)", "s'applique : Bonus (1 cran de dé en plus)"),
    ("magisphere", "Malus 3", "applies: penalty 3", "s'applique : Malus 3"),
    ("arpeges", "-2 to difficulty", "applies: −2 to the difficulty of their actions",
     "s'applique : −2 à la difficulté de ses actions"),
    ("eclats", "strength -1", "applies: FOR −1 (1 roll fewer)", "s'applique : FOR −1 (1 lancer de moins)"),
    ("eclats", "-2 rolls", "applies: −2 rolls", "s'applique : −2 lancers"),
    ("eclats", "can't act", "a reminder only", "un simple rappel"),
    ("mir", "ne peut pas agir", "a reminder only", "un simple rappel"),
    ("mir", "", "", ""),
])
def test_the_dialog_hint_is_the_games_reading_in_the_ui_language(system, typed, en, fr):
    i18n.set_language("en")
    assert effect_hint(table_for(system), typed) == en
    i18n.set_language("fr")
    assert effect_hint(table_for(system), typed) == fr


def test_an_effect_no_game_word_reads_is_a_reminder_with_what_the_game_reads():
    i18n.set_language("en")
    assert effect_hint(table_for("mir"), "blinded") == "a reminder only (MIR reads e.g. −1 die, wound −1 die…)"
    i18n.set_language("fr")
    assert effect_hint(table_for("mir"), "blinded") == "un simple rappel (MIR lit par exemple −1 dé, blessure −1 dé…)"


@pytest.mark.parametrize("system,en,fr", [
    ("mir", "−1 die, wound −1 die…", "−1 dé, blessure −1 dé…"),
    ("tedeum", "Malus, Bonus…", "Malus, Bonus…"),                 # the game's own words in both
    ("magisphere", "penalty 3, penalty 1…", "Malus 3, Malus 1…"),
    ("arpeges", "−2 to the difficulty of their actions…", "−2 à la difficulté de ses actions…"),
    ("eclats", "FOR −1, END −1…", "FOR −1, END −1…"),
])
def test_the_dialogs_examples_speak_the_ui_language_and_read_back(system, en, fr):
    rules = table_for(system).effects
    for lang, examples in (("en", en), ("fr", fr)):
        i18n.set_language(lang)
        assert rules.examples() == examples
        assert all(rules.read(e.strip("…")) is not None for e in examples.split(", "))


# ---------------------------------------------------------------- the warnings

@pytest.mark.parametrize("system,old,en,fr", [
    ("mir", "−1 dé", "“−1 die”, “+1 die” (situation dice, R3), “wound −1 die”",
     "« −1 dé », « +1 dé » (dés de situation, R3), « blessure −1 dé »"),
    ("magisphere", "Malus 3", "“penalty 3”, “penalty” (1), “bonus 2”", "« Malus 3 », « Malus » (1), « Bonus 2 »"),
    ("arpeges", "−2 à la difficulté de ses actions", "“−2 to the difficulty of their actions”",
     "« −2 à la difficulté de ses actions »"),
    ("eclats", "FOR −1 (un lancer de moins)", "“−1 roll”, “can't act” (reminder)",
     "« −1 lancer », « ne peut pas agir » (rappel)"),
])
def test_the_warning_for_an_unread_effect_names_the_games_words_in_the_ui_language(tmp_path, system, old, en, fr):
    campaign = _campaign(tmp_path, system, old, "blinded")
    i18n.set_language("en")
    problems = campaign_problems(campaign, "x.toml", game=table_for(campaign.system))
    assert problems and all(p.warning and "“blinded” is not an effect" in p.message and en in p.message
                            for p in problems)
    i18n.set_language("fr")
    problems = campaign_problems(campaign, "x.toml", game=table_for(campaign.system))
    assert problems and all("« blinded » n'est pas un effet" in p.message and fr in p.message for p in problems)


def test_cant_act_is_a_reminder_meant_as_one_in_every_game_not_a_warning(tmp_path):
    for system, old in (("mir", "−1 dé"), ("tedeum", "Malus (un dé plus faible)"), ("magisphere", "Malus 3"),
                        ("arpeges", "−2 à la difficulté de ses actions"), ("eclats", "FOR −1 (un lancer de moins)")):
        campaign = _campaign(tmp_path, system, old, "can't act")
        assert campaign_problems(campaign, "x.toml", game=table_for(campaign.system)) == [], system
        assert table_for(system).effects.read("cannot act").reminder, system
    draft = parse("alexis tir sd2", _campaign(tmp_path, "mir", "−1 dé", "can't act"))
    assert [e.state for e in draft.conditions] == [REMINDER] and "modifier" not in draft.request
