"""Conditions that bite: each game reads its condition effects in its own words, the line applies
them to the bearer's side (an opponent's too), the odds say how much they cost, `sans X` leaves
one out for one roll, and what a game cannot read is a reminder and a warning, never a guess.
Every test reads a real sample campaign copied into tmp_path."""

from __future__ import annotations

import shutil

import pytest

from gmscreen.campaign import sample_path
from gmscreen.campaign.store import load_campaign
from gmscreen.play import chances
from gmscreen.play.effects import (APPLIED, LEFT_OUT, REMINDER, UNREADABLE, campaign_problems,
                                   conditions_said, file_problems, validate_problems)
from gmscreen.play.quickroll import QuickRollError, complete, parse
from gmscreen.play.table_roll import roll_line
from gmscreen.play.tables import table_for
from gmscreen.rules import odds, success_chance

SYSTEMS = ("mir", "tedeum", "magisphere", "arpeges", "eclats")


@pytest.fixture
def camp(tmp_path):
    """The sample campaign of a system, copied on disk and loaded (optionally edited first)."""

    def load(system: str, edit: tuple[str, str] | None = None):
        path = tmp_path / f"{system}.toml"
        shutil.copyfile(sample_path(system), path)
        if edit is not None:
            text = path.read_text(encoding="utf-8")
            assert edit[0] in text
            path.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
        return load_campaign(path)

    return load


# ---------------------------------------------------------------- each game's words

@pytest.mark.parametrize("system,text,amount,target,reminder", [
    ("mir", "−1 dé", -1, "", False),
    ("mir", "-2 dés", -2, "", False),
    ("mir", "- 1 DÉ", -1, "", False),
    ("mir", "−1 de (jusqu'à la guérison)", -1, "", False),
    ("mir", "+1 dé", 1, "", False),
    ("mir", "malus 2", -2, "antecedent", False),
    ("mir", "blessure −1 dé", -1, "antecedent", False),
    ("mir", "Préjugés -2 dés", -2, "antecedent", False),
    ("mir", "situation −2 dés", -2, "", False),
    ("tedeum", "Malus", -1, "", False),
    ("tedeum", "Malus (un dé plus faible)", -1, "", False),
    ("tedeum", "malus 2", -2, "", False),
    ("tedeum", "Bonus", 1, "", False),
    ("magisphere", "Malus 3", -3, "", False),
    ("magisphere", "Malus", -1, "", False),
    ("magisphere", "bonus  2", 2, "", False),
    ("arpeges", "−2 à la difficulté de ses actions", -2, "", False),
    ("arpeges", "-2", -2, "", False),
    ("arpeges", "+1 a la difficulte", 1, "", False),
    ("eclats", "FOR −1 (un lancer de moins)", -1, "for", False),
    ("eclats", "for -1", -1, "for", False),
    ("eclats", "Force − 1", -1, "for", False),
    ("eclats", "END −1", -1, "end", False),
    ("eclats", "−1 lancer", -1, "", False),
    ("eclats", "Ne peut pas agir", 0, "", True),
])
def test_each_game_reads_its_own_effect_words(system, text, amount, target, reminder):
    effect = table_for(system).effects.read(text)
    assert effect is not None
    assert (effect.amount, effect.target, effect.reminder) == (amount, target, reminder)
    assert "(" not in effect.shown                    # the comment is not part of the effect shown


@pytest.mark.parametrize("system,text", [
    ("mir", "Malus 3 steps"), ("mir", "aveuglé"), ("tedeum", "−1 dé"), ("magisphere", "−1 dé"),
    ("arpeges", "Malus"), ("eclats", "XYZ −1"), ("eclats", "saigne"), ("mir", "-0 dé"),
    ("mir", "blessure +1 dé"),          # R4 only removes dice
])
def test_words_a_game_does_not_use_are_not_guessed(system, text):
    assert table_for(system).effects.read(text) is None


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_effect_of_the_samples_and_of_the_games_list_is_read(system, camp, tmp_path):
    """Each effect the samples write is read by its game (or is a deliberate reminder), and so
    is each of the game's list of conditions; no sample draws a warning."""
    rules = table_for(system).effects
    campaign = camp(system)
    written = [c.effect for ch in campaign.characters for c in ch.conditions if c.effect]
    assert written, system
    listed = [p.effect for p in rules.presets]
    assert len(rules.presets) >= 2 and {c.name for ch in campaign.characters for c in ch.conditions} <= {
        p.name for p in rules.presets}
    assert all(rules.read(text) is not None for text in written + listed)
    assert campaign_problems(campaign, "x.toml", game=table_for(campaign.system)) == []


# ---------------------------------------------------------------- applied to the request, the odds said

@pytest.mark.parametrize("system,line,skip,field,without,with_", [
    ("mir", "alexis tir sd2", "ébloui", "modifier", None, -1),        # the lantern: situation dice (R3)
    ("mir", "callia infiltration sd2 malus 1", "fièvre", "modifier", None, -1),
    ("tedeum", "louvensac charme 13", "essoufflée", "die_shift", None, -1),
    ("magisphere", "shady négociation 25", "ivre", "malus", None, 3),
    ("arpeges", "sibylle épée -3", "étourdie", "difficulty", -3, -5),
    ("eclats", "berthe for intimider 9", "transie", "characteristic", 3, 2),
])
def test_a_condition_changes_the_request_and_the_odds_say_by_how_much(camp, system, line, skip, field, without,
                                                                        with_):
    campaign = camp(system)
    draft = parse(line, campaign)
    plain = parse(f"{line} sans {skip}", campaign)
    assert draft.request.get(field) == with_ and plain.request.get(field) == without
    assert [e.state for e in draft.conditions] == [APPLIED]
    assert [e.state for e in plain.conditions] == [LEFT_OUT]
    said = conditions_said(draft, chances.chance)
    name = draft.conditions[0].name
    assert said.applied.startswith(name) and draft.conditions[0].effect in said.applied
    assert said.before == pytest.approx(success_chance(odds(plain.odds_request)), abs=1e-12)
    assert said.after == pytest.approx(success_chance(odds(draft.odds_request)), abs=1e-12)
    assert said.after < said.before
    assert plain.odds_request == draft.unconditioned
    short = conditions_said(draft, chances.chance, short=True)
    assert short.applied.startswith(name.split()[0]) and len(short.applied) <= len(said.applied)
    assert "sans" in conditions_said(plain, chances.chance).left_out


def test_the_mir_example_line_names_the_effect_and_its_delta(camp):
    draft = parse("alexis tir sd2", camp("mir"))
    said = conditions_said(draft, chances.chance)
    assert said.applied == "Ébloui par la lanterne −1 dé"
    assert (round(said.before * 100), round(said.after * 100)) == (91, 84)


@pytest.mark.parametrize("system,line,field,value", [
    ("mir", "loriane tir vs alexis tir", "opponent_modifier", -1),
    ("tedeum", "gentilhomme perspicacité vs louvensac comédie", "opponent_die_shift", -1),
    ("arpeges", "marchand baratin vs sibylle épée", "opponent_skill_level", 4),
    # Magisphère has no threshold in an opposition: a malus is a bonus to the other side.
    ("magisphere", "bob force vs granok force", "actor_bonus", 1),
    ("magisphere", "granok force vs bob force", "opponent_bonus", 1),
])
def test_an_opponents_conditions_count_on_their_side(camp, system, line, field, value):
    draft = parse(line, camp(system))
    assert draft.request[field] == value
    assert [e.state for e in draft.conditions] == [APPLIED]
    said = conditions_said(draft, chances.chance)
    assert said.before == pytest.approx(success_chance(odds(draft.unconditioned)), abs=1e-12)


def test_eclats_a_characteristic_effect_only_bites_its_characteristic(camp):
    campaign = camp("eclats")
    other = parse("berthe end supporter 9", campaign)
    assert other.request["characteristic"] == 3 and other.conditions == []
    forced = parse("berthe for intimider 9 = 4 7", campaign)
    assert forced.request["characteristic"] == 2
    with pytest.raises(QuickRollError):
        parse("berthe for intimider 9 = 4 7 8", campaign)     # three dice: only two rolls now
    blocked = parse("meunier for moudre 9", campaign)
    assert [e.state for e in blocked.conditions] == [REMINDER]
    assert conditions_said(blocked, chances.chance).reminders == "rappel : Blessé — ne peut pas agir"


def test_no_roll_is_taken_below_nothing_and_raw_dice_carry_no_conditions(camp):
    draft = parse("6d12 sd2", camp("mir"))                 # a pool typed raw: nobody's conditions
    assert draft.conditions == [] and "penalty" not in draft.request
    campaign = camp("eclats", ("FOR −1 (un lancer de moins)", "−1 lancer"))
    berthe = parse("berthe bea intimider 9", campaign)     # BEAuté 0: no roll to take away
    assert berthe.request["characteristic"] == 0 and berthe.choice is None
    assert parse("berthe for intimider 9", campaign).choice.data["characteristic"] == 2


# ---------------------------------------------------------------- left out for one roll

def test_sans_names_a_condition_of_someone_in_the_roll(camp):
    campaign = camp("mir")
    with pytest.raises(QuickRollError) as err:
        parse("alexis tir sd2 sans fièvre", campaign)          # Callia's, not Alexis's
    assert err.value.code == "without_condition" and err.value.params["names"] == "Alexis"
    both = parse("alexis tir vs callia tir sans fièvre", campaign)
    assert [(e.who, e.state) for e in both.conditions] == [("Alexis", APPLIED), ("Callia", LEFT_OUT)]
    assert "opponent_modifier" not in both.request and both.request["actor_modifier"] == -1
    with pytest.raises(QuickRollError) as err:
        parse("alexis tir sd2 sans", campaign)
    assert err.value.code == "without_what"


def test_completion_offers_sans_and_the_conditions_after_it(camp):
    campaign = camp("mir")
    assert "sans" in complete("alexis tir sd2 sa", 17, campaign).candidates
    line = "alexis tir vs callia tir sans "
    offered = complete(line, len(line), campaign)
    assert offered.candidates == ("ébloui par la lanterne", "fièvre grise")
    for choice in offered.candidates:
        text, _cursor = offered.apply(line, choice)
        assert [e.state for e in parse(text, campaign).conditions].count(LEFT_OUT) == 1


def test_the_log_says_which_effects_were_applied_and_left_out(sessions):
    session = sessions.open("mir")
    applied = roll_line(session, "alexis tir sd2").record
    left = roll_line(session, "alexis tir sd2 sans ébloui").record
    plain = roll_line(session, "loriane éloquence sd2").record
    assert applied.result["conditions"] == {"applied": ["Alexis · Ébloui par la lanterne: −1 dé"]}
    assert applied.request["modifier"] == -1 and applied.result["dice_rolled"] == 5
    assert left.result["conditions"] == {"left_out": ["Alexis · Ébloui par la lanterne: −1 dé"]}
    assert "penalty" not in left.request and left.result["dice_rolled"] == 6
    assert "conditions" not in plain.result


# ---------------------------------------------------------------- what a game cannot read

def test_an_unreadable_effect_is_a_reminder_and_a_warning_with_its_key_path(camp, tmp_path):
    campaign = camp("eclats", ('effect = "FOR −1 (un lancer de moins)"', 'effect = "saigne du nez"'))
    draft = parse("berthe for intimider 9", campaign)
    assert draft.request["characteristic"] == 3
    assert [e.state for e in draft.conditions] == [UNREADABLE]
    said = conditions_said(draft, chances.chance)
    assert said.applied == "" and said.reminders == "rappel : Transie — saigne du nez"
    problems = validate_problems(campaign, tmp_path / "eclats.toml", game=table_for("eclats"))   # gmscreen validate's
    assert len(problems) == 1
    problem = problems[0]
    assert problem.warning and problem.path == "characters[2].conditions[0].effect"
    text = (tmp_path / "eclats.toml").read_text(encoding="utf-8").splitlines()
    assert "saigne du nez" in text[problem.line - 1]
    assert "saigne du nez" in problem.message and "FOR −1" in problem.message
    # The screen's notice names whom and what, as the GM knows them: no file, no key path.
    [notice] = file_problems(campaign, tmp_path / "eclats.toml", game=table_for("eclats"))
    said = str(notice)
    assert said.startswith("Berthe · Transie : « saigne du nez » "), said
    assert "saigne du nez" in said and "characters[" not in said and str(tmp_path) not in said


def test_a_helpers_conditions_count_on_their_help(camp):
    """MIR: a helper's pool is "after their own modifiers" (R10); where a game has no field for a
    helper's state (Magisphère), it is a reminder."""
    campaign = camp("mir")
    helped = parse("loriane éloquence sd3 aide callia", campaign)
    plain = parse("loriane éloquence sd3 aide callia sans fièvre", campaign)
    assert helped.request["helper_pools"] == [plain.request["helper_pools"][0] - 1]
    assert [(e.who, e.role, e.state) for e in helped.conditions] == [("Callia", "helper", APPLIED)]
    said = conditions_said(helped, chances.chance)
    assert said.applied == "Fièvre grise (Callia) −1 dé"
    assert said.before == pytest.approx(success_chance(odds(plain.odds_request)), abs=1e-12)
    assert said.after == pytest.approx(success_chance(odds(helped.odds_request)), abs=1e-12)
    magisphere = parse("shady négociation 25 aide granok", camp("magisphere"))
    assert "rappel : Bras engourdi (Granok) — Malus 1" == conditions_said(magisphere, chances.chance).reminders


@pytest.mark.parametrize("system, examples", [
    ("mir", "−1 dé, blessure −1 dé…"), ("eclats", "FOR −1, END −1…"), ("magisphere", "Malus 3, Malus 1…"),
    ("tedeum", "Malus, Bonus…"), ("arpeges", "−2 à la difficulté de ses actions…")])
def test_the_condition_dialog_suggests_the_games_own_effects(system, examples) -> None:
    """The effect field's placeholder: effects of the game's own presets that it reads, not MIR's
    wording in every game."""

    rules = table_for(system).effects
    assert rules.examples() == examples
    assert all(rules.read(e.strip("…")) is not None for e in examples.split(", "))
