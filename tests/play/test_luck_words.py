"""A roll's luck in words, said only when notable, in the language spoken; and in the log's words."""

from __future__ import annotations

import pytest

from gmscreen import i18n
from gmscreen.campaign.model import RollRecord
from gmscreen.play.logline import log_line
from gmscreen.play.luck_words import DEFAULT_NOTABLE, luck_value, luck_words, rarity
from gmscreen.rules import get_system, resolve


@pytest.fixture
def speak():
    def choose(lang: str) -> None:
        i18n.choose(lang)
    yield choose
    i18n.choose("fr")


@pytest.mark.parametrize("luck,french,english", [
    (0.04, "coup de chance : 1 jet sur 25 fait aussi bien", "lucky: 1 roll in 25 does this well"),
    (0.0004, "coup de chance : 1 jet sur 2\u202f500 fait aussi bien", "lucky: 1 roll in 2,500 does this well"),
    (1e-9, "coup de chance : moins de 1 jet sur 10\u202f000 fait aussi bien",
     "lucky: under 1 roll in 10,000 does this well"),
    # luck 97 %: 97 % of rolls do at least as well, so 3 % (1 in 33) do worse
    (0.97, "pas de chance : 1 jet sur 33 fait pire", "unlucky: 1 roll in 33 does worse"),
    (0.99, "pas de chance : 1 jet sur 100 fait pire", "unlucky: 1 roll in 100 does worse"),
    (0.999999, "pas de chance : moins de 1 jet sur 10\u202f000 fait pire",
     "unlucky: under 1 roll in 10,000 does worse"),
    (1.0, "pas de chance : aucun jet ne fait pire", "unlucky: no roll does worse"),   # the worst result there is
    (0.5, "", ""),
    (0.1, "", ""),            # the bound itself is not notable
    (0.9, "", ""),
])
def test_notable_luck_in_both_languages(speak, luck: float, french: str, english: str) -> None:
    speak("fr")
    assert luck_words({"luck": luck}) == french
    speak("en")
    assert luck_words({"luck": luck}) == english


def test_the_bound_is_a_setting_and_zero_never_says_anything(speak) -> None:
    speak("en")
    assert DEFAULT_NOTABLE == 10
    assert luck_words({"luck": 0.15}) == ""
    assert luck_words({"luck": 0.15}, notable=20) == "lucky: 1 roll in 6.7 does this well"
    assert luck_words({"luck": 0.85}, notable=20) == "unlucky: 1 roll in 6.7 does worse"
    assert luck_words({"luck": 0.001}, notable=0) == ""


@pytest.mark.parametrize("result", [{}, {"luck": None}, {"luck": True}, {"luck": "0.1"}, {"luck": 0.0},
                                    {"luck": 1.5}, {"luck": float("nan")}, "not a result"])
def test_an_older_or_hand_edited_log_says_nothing(result) -> None:
    assert luck_value(result) is None
    assert luck_words(result) == ""


def test_the_log_row_says_the_luck_of_a_rare_roll_only(speak) -> None:
    speak("fr")
    system = get_system("mir")
    request = {"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2}
    rare = RollRecord(1, "2025-03-01T21:04:11+01:00", 3, "Alexis", "alexis 3d12 sd2", request,
                      resolve({**request, "dice": [12, 12, 12]}))
    plain = RollRecord(2, "2025-03-01T21:05:11+01:00", 3, "Alexis", "alexis 3d12 sd2", request,
                       resolve({**request, "dice": [3, 7, 9]}))
    assert log_line(rare, system).luck == "coup de chance : 1 jet sur 1\u202f728 fait aussi bien"   # 1 / 12**3
    assert log_line(plain, system).luck == ""
    assert log_line(rare, system, notable=0).luck == ""


@pytest.mark.parametrize("luck", [0.0004, 0.03, 0.04, 0.07, 0.5, 0.93, 0.97, 0.99])
def test_the_words_say_the_exact_chance_the_right_way_round(speak, luck: float) -> None:
    """Luck is the chance of a result at least as good: under a half, 1 roll in 1/luck does this
    well; over, 1 roll in 1/(1 − luck) does worse (the rest do at least as well)."""
    speak("en")
    said = rarity(luck)
    figure = float(said.split(" in ")[1].split(" ")[0].replace(",", ""))
    if luck <= 0.5:
        assert said.endswith(" does this well") and round(1 / luck) == round(figure)
    else:
        assert said.endswith(" does worse") and round(1 / (1 - luck)) == round(figure)
