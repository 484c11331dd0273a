"""The table's rules as the seeds say, through `gmscreen line` on a sample campaign in tmp_path
(in-process): MIR R3 (situation dice capped at ±2D with the typed ones) and R4 (wounds and
prejudices in a fight or an Intrigue), an extended test's timer re-reading the conditions,
Te Deum's surprised defender and Providence said of a woman, Magisphère R24, Éclats R5."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import load_campaign, sample_path

from _cli_helpers import assert_one_line_error, cli_english, cli_french, run  # noqa: F401 (fixtures)


@pytest.fixture
def sample(tmp_path: Path):
    """A copy of a system's sample, its text changed by (old, new) pairs first."""

    def copy(system: str, *edits: tuple[str, str]) -> Path:
        path = tmp_path / f"{system}.toml"
        shutil.copyfile(sample_path(system), path)
        text = path.read_text(encoding="utf-8")
        for old, new in edits:
            assert old in text, old
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
        return path

    return copy


def line(capsys, path: Path, text: str, *more: str) -> dict:
    status, out, err = run(capsys, "line", str(path), text, "--json", *more)
    assert status == 0, err
    return json.loads(out)


NO_FIGHT = ("round = 2", "round = 0")     # the sample's fight (round 2) not begun


def _alexis(effect: str) -> tuple[str, str]:
    """Alexis's one condition (the sample's lantern dazzle) with another effect."""
    return ('name = "Ébloui par la lanterne"\neffect = "−1 dé"', f'name = "Condition"\neffect = "{effect}"')


# ---------------------------------------------------------------- MIR R3: situation dice, ±2D at most


def test_mir_a_situation_die_and_a_typed_plus_two_roll_capped_at_two(capsys, sample) -> None:
    path = sample("mir", _alexis("+1 dé"))                                  # En hauteur +1 dé
    shown = line(capsys, path, "alexis tir sd2 +2", "--seed", "1")
    assert shown["request"]["modifier"] == 2 and "penalty" not in shown["request"]   # R3: +2D at most
    assert shown["result"]["dice_rolled"] == 8                              # Tir 3 + Peur 3 + 2
    assert shown["result"]["conditions"] == {"applied": ["Alexis · Condition: +1 dé (R3: ±2D at most)"]}
    status, out, _err = run(capsys, "line", str(path), "alexis tir sd2 +2", "--seed", "1")
    assert status == 0 and "  Condition +1 dé (R3: ±2D at most): " in out


def test_mir_darkness_is_a_situation_modifier_not_a_wound(capsys, sample) -> None:
    path = sample("mir", _alexis("−2 dés"), NO_FIGHT)                     # Dans le noir −2 dés, no fight
    shown = line(capsys, path, "alexis tir sd2 -1", "--seed", "1")
    assert shown["request"]["modifier"] == -2 and "penalty" not in shown["request"]   # −1 − 2, capped at −2D
    assert shown["result"]["dice_rolled"] == 4
    status, out, err = run(capsys, "line", str(path), "alexis tir sd2 -3")
    assert_one_line_error(status, out, err, "modifier")                     # typed out of range: refused as typed


# ---------------------------------------------------------------- MIR R4: wounds in a fight or an Intrigue


def test_mir_a_wound_bites_in_a_fight_or_an_intrigue_and_reminds_elsewhere(capsys, sample) -> None:
    fight = sample("mir", _alexis("blessure −1 dé"))
    assert line(capsys, fight, "alexis tir sd2", "--seed", "1")["request"]["penalty"] == 1     # round 2: a fight
    calm = sample("mir", _alexis("blessure −1 dé"), NO_FIGHT)
    shown = line(capsys, calm, "alexis tir sd2", "--seed", "1")
    assert "penalty" not in shown["request"] and shown["result"]["dice_rolled"] == 6
    [reminded] = shown["result"]["conditions"]["reminded"]
    assert reminded.startswith("Alexis · Condition: blessure −1 dé (R4: in a fight or an Intrigue")
    status, out, _err = run(capsys, "line", str(calm), "alexis tir sd2", "--seed", "1")
    assert "reminder: Condition — blessure −1 dé (R4: in a fight or an Intrigue; “intrigue” in the line" in out
    anyway = line(capsys, calm, "alexis tir sd2 intrigue", "--seed", "1")      # the GM applies it
    assert anyway["request"]["penalty"] == 1 and anyway["result"]["dice_rolled"] == 5
    prejudice = sample("mir", _alexis("préjugé −2 dés"), NO_FIGHT)
    assert line(capsys, prejudice, "alexis éloquence vs garde instinct antécédents")["request"]["actor_penalty"] == 2


def test_mir_the_presets_name_what_the_seed_names(capsys) -> None:
    from gmscreen.play.tables import table_for

    rules = table_for("mir").effects
    presets = {p.name: rules.read(p.effect) for p in rules.presets}
    assert presets["Préjugés"].target == presets["Blessé"].target == "antecedent"           # R4
    assert presets["Pluie torrentielle"].target == presets["Dans le noir"].target == ""      # R3
    assert presets["En hauteur"].amount == 1


def test_mir_an_extended_test_keeps_its_request_as_typed_and_the_change_of_its_first_test(capsys, sample) -> None:
    path = sample("mir")
    shown = line(capsys, path, "alexis tir 9 tour", "--seed", "5")
    assert shown["request"]["modifier"] == -1 and shown["result"]["dice_per_test_made"] == [5]
    [timer] = [t for t in load_campaign(path).timers if t.id == shown["timer"]]
    assert timer.request == {"system": "mir", "kind": "extended", "skill": 3, "voie": 3, "threshold": 9,
                             "max_tests": 0, "interval": "tour", "test_modifiers": [-1]}
    assert timer.dice == {"rolls": shown["result"]["rolls"]}


# ---------------------------------------------------------------- Te Deum


@pytest.mark.parametrize("text", ["saint escrime attaque vs louvensac surpris",
                                  "saint escrime attaque vs louvensac sans défense"])
def test_tedeum_a_surprised_defender_with_a_condition_is_attacked(capsys, sample, text) -> None:
    path = sample("tedeum")                                                   # Mlle de Louvensac: Essoufflée
    shown = line(capsys, path, text, "--seed", "3")
    assert shown["request"]["defender_reacts"] is False
    assert not any(k.startswith("opponent_") for k in shown["request"])
    assert shown["result"]["conditions"] == {"reminded": ["Mlle de Louvensac · Essoufflée: Malus"]}


def test_tedeum_the_result_names_the_providence_level_of_a_woman(capsys, sample, cli_french) -> None:
    path = sample("tedeum")
    status, out, _err = run(capsys, "line", str(path), "louvensac charme 13 providence", "--seed", "2")
    assert status == 0 and "la Providence passe de D6 à D4 (Pauvre pécheresse)" in out
    assert load_campaign(path).character("louvensac").sheet["resources"]["providence"] == 4
    man = sample("tedeum", ('gender = "f"', 'gender = "m"'))
    status, out, _err = run(capsys, "line", str(man), "louvensac charme 13 providence", "--seed", "2")
    assert "D4 (Pauvre pécheur)" in out


def test_tedeum_the_presets_say_the_seeds_ivresse_and_adrenaline(capsys) -> None:
    from gmscreen.play.tables import table_for

    rules = table_for("tedeum").effects
    presets = {p.name: rules.read(p.effect).amount for p in rules.presets}
    assert presets["Ivresse prononcée"] == -1 and presets["Afflux d'adrénaline"] == 1


# ---------------------------------------------------------------- Magisphère R24


def test_magisphere_a_helper_in_a_test_no_skill_fits_gets_the_gms_bonus(capsys, sample) -> None:
    path = sample("magisphere")
    shown = line(capsys, path, "shady pre 25 aide granok = 14", "--choose", "3")
    [answer] = shown["answers"]
    assert "R24" in answer["question"] and answer["key"] == "3" and answer["choice"] == "+3"
    assert shown["request"]["bonus"] == 3 and shown["result"]["outcome"] == "success"     # 14 + 11 + 3 ≥ 25 + 3
    enter = line(capsys, path, "shady pre 25 aide granok = 14")          # the odds' own: +0
    assert "bonus" not in enter["request"] and enter["answers"][0]["choice"] == "+0"
    named = line(capsys, path, "shady négo 25 aide granok = 14")          # a skill fits: no GM's bonus asked
    assert named["answers"] == [] and named["result"]["cooperation_bonus"] == 0


# ---------------------------------------------------------------- Éclats R5, and every default the odds' own


def test_eclats_the_skill_alone_reaching_the_threshold_needs_no_die(capsys, sample) -> None:
    """R5 (001, l.50): Calmer 3 against 3, with AGI 1 and a single 0 an automatic failure (R9's
    option): no die rolled, a sure success that a die could only spoil."""
    path = sample("eclats", ('single_zero = "counts_zero"', 'single_zero = "automatic_failure"'))
    for seed in range(12):
        shown = line(capsys, path, "ysaure agi calmer 3", "--seed", str(seed))
        assert shown["request"]["dice"] == [] and shown["result"]["outcome"] == "success"
        [answer] = shown["answers"]
        assert "R5" in answer["question"] and answer["key"] == "n"
    rolled = line(capsys, path, "ysaure agi calmer 3", "--choose", "r", "--seed", "1")
    assert len(rolled["request"]["dice"]) == 1 and rolled["answers"][0]["key"] == "r"
    status, out, _err = run(capsys, "line", str(path), "ysaure agi calmer 3 =")     # none typed: the same
    assert status == 0 and "no die: skill 3 = 3" in out


def test_eclats_enter_takes_what_the_odds_assume(capsys, sample) -> None:
    path = sample("eclats")
    for seed in range(8):
        odds = line(capsys, path, "ysaure emp calmer 12", "--seed", str(seed))
        enter = line(capsys, path, "ysaure emp calmer 12", "--seed", str(seed), "--policy", "enter")
        assert enter["request"]["dice"] == odds["request"]["dice"]
        assert [a["key"] for a in enter["answers"]] == [a["key"] for a in odds["answers"]]
        dice = enter["request"]["dice"]
        assert enter["result"]["outcome"] == "success" or len(dice) == 3      # rerolled while failing
