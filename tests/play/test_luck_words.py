"""A roll's luck in words, said only when notable, in the language spoken; and in the log's words."""

from __future__ import annotations

import pytest

from gmscreen import i18n
from gmscreen.campaign.model import RollRecord
from gmscreen.play.logline import log_line
from gmscreen.play.luck_words import DEFAULT_NOTABLE, luck_value, luck_words
from gmscreen.rules import get_system, resolve


@pytest.fixture
def speak():
    def choose(lang: str) -> None:
        i18n.choose(lang)
    yield choose
    i18n.choose("fr")


@pytest.mark.parametrize("luck,french,english", [
    (0.04, "un jet à 4\u202f%", "a 4% roll"),
    (0.0004, "un jet à 0,04\u202f%", "a 0.04% roll"),
    (1e-9, "un jet à moins de 0,01\u202f%", "a roll under 0.01%"),
    (0.97, "97\u202f% des jets font au moins aussi bien", "97% of rolls do at least as well"),
    (1.0, "100\u202f% des jets font au moins aussi bien", "100% of rolls do at least as well"),
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
    assert luck_words({"luck": 0.15}, notable=20) == "a 15% roll"
    assert luck_words({"luck": 0.85}, notable=20) == "85% of rolls do at least as well"
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
    assert log_line(rare, system).luck == "un jet à 0,1\u202f%"          # 1 / 12**3, as the odds say it
    assert log_line(plain, system).luck == ""
    assert log_line(rare, system, notable=0).luck == ""
