"""A result described in the language spoken: outcomes, margins and dice labels translated,
the game's own words (SD, difficulty labels, Providence levels, Temporalité) kept; French
as before, with a typographic minus in every margin and modifier."""

from __future__ import annotations

import pytest

from gmscreen import i18n
from gmscreen.i18n import msgfmt
from gmscreen.rules import SYSTEMS, get_system, resolve

MINUS = "\u2212"

# One forced request per system (several for the systems with several kinds) and what it says in
# English: (headline, detail, group labels).
ENGLISH = [
    ({"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2, "dice": [1, 5, 4, 6, 11, 12]},
     "success", "3 successes for SD 2 · margin +1", ["dice"]),
    ({"system": "mir", "kind": "opposed", "actor_pool": 2, "opponent_pool": 1, "actor_dice": [7, 3],
      "opponent_dice": [12]},
     "the opponent wins", "1 success against 2 · more successes", ["actor", "opponent"]),
    ({"system": "mir", "kind": "extended", "pool": 2, "threshold": 3, "max_tests": 2, "interval": "jour",
      "rolls": [[7, 3], [12, 1]]},
     "success", "1 + 2 = 3 successes in 2 tests for 3 (2 max.) · 1 jour per test", ["test 1", "test 2"]),
    ({"system": "eclats", "kind": "simple", "characteristic": 2, "skill": 2, "threshold": 7, "dice": [3, 5]},
     "success", "die 5 + skill 2 = 7 against a threshold of 7 · margin +0", ["characteristic die"]),
    ({"system": "arpeges", "kind": "simple", "skill_level": 2, "difficulty": -3, "chance_dice": [2],
      "malchance_dice": [6]},
     "failure", f"final difficulty {MINUS}1 · roll {MINUS}4 (2 − 6) · margin {MINUS}5", ["chance die", "malchance die"]),
    ({"system": "arpeges", "kind": "opposed_two_rolls", "actor_skill_level": -2, "opponent_skill_level": -1,
      "actor_chance_dice": [1], "actor_malchance_dice": [5], "opponent_chance_dice": [2],
      "opponent_malchance_dice": [4]},
     "the opponent wins", f"actor's margin {MINUS}6 against {MINUS}3 · gap {MINUS}3",
     ["chance die (actor)", "malchance die (actor)", "chance die (opponent)", "malchance die (opponent)"]),
    ({"system": "magisphere", "kind": "simple", "stat": 10, "skill": 2, "threshold": 15, "dice": [4, 9]},
     "success", "score 21 against threshold 15 · margin +6 · 1 reroll", ["d20"]),
    ({"system": "tedeum", "kind": "simple", "die": 8, "skill": 3, "difficulty": 9, "negative_die": 6,
      "use_providence": True, "providence_die": 6, "dice": [5], "providence_dice": [4]},
     "success", "5 + 4 (Providence) + 3 = 12 against threshold 9 (Malaisé) · margin +3 · Providence goes from "
                "D6 to D4 (Pauvre pécheur)", ["characteristic die D8", "Providence D6"]),
    ({"system": "tedeum", "kind": "simple", "die": 8, "skill": 3, "difficulty": 9, "negative_die": 6, "dice": [1],
      "negative_dice": [5]},
     "critical failure", f"1 + 3 = 4 against threshold 9 (Malaisé) · margin {MINUS}5 · initial 1, negative die "
                         "5 > 3 · +1 XP", ["characteristic die D8", "negative die D6"]),
    ({"system": "tedeum", "kind": "attack", "actor_die": 8, "actor_skill": 3, "actor_negative_die": 6,
      "opponent_die": 6, "opponent_negative_die": 6, "actor_dice": [6], "opponent_dice": [3]},
     "hit", "attack 6 + 3 = 9 against defence 3 + 0 = 3 · 7 needed and more than the defence",
     ["attack D8", "defence D6"]),
]


@pytest.mark.parametrize(("request_", "headline", "detail", "labels"), ENGLISH,
                         ids=[f"{r['system']}-{r['kind']}" for r, *_ in ENGLISH])
def test_a_result_is_described_in_english(english, request_, headline, detail, labels) -> None:
    desc = get_system(request_["system"]).describe(resolve(request_))
    assert (desc.headline, desc.detail, [g.label for g in desc.groups]) == (headline, detail, labels)


def test_every_system_is_described_in_english() -> None:
    assert {r["system"] for r, *_ in ENGLISH} == set(SYSTEMS)


FRENCH = {
    "arpeges-opposed_two_rolls": ("l'opposant l'emporte", f"marge de l'acteur {MINUS}6 contre {MINUS}3 · "
                                  f"écart {MINUS}3"),
    "tedeum-simple": ("réussite", "5 + 4 (Providence) + 3 = 12 pour seuil 9 (Malaisé) · marge +3 · la Providence "
                                  "passe de D6 à D4 (Pauvre pécheur)"),
    "tedeum-attack": ("touché", "attaque 6 + 3 = 9 contre défense 3 + 0 = 3 · il faut 7 et plus que la défense"),
}


def test_french_reads_as_before_with_a_typographic_minus() -> None:
    """French is the default and reads as it always did; "−" (U+2212) in every margin and
    modifier, never a hyphen."""
    seen = set()
    for request, *_ in ENGLISH:
        key = f"{request['system']}-{request['kind']}"
        desc = get_system(request["system"]).describe(resolve(request))
        assert " -" not in desc.detail and "(-" not in desc.detail, desc.detail
        if key in FRENCH and key not in seen:
            seen.add(key)
            assert (desc.headline, desc.detail) == FRENCH[key]
    assert seen == set(FRENCH)


def test_the_language_can_change_between_two_descriptions() -> None:
    request = ENGLISH[0][0]
    result = resolve(request)
    mir = get_system("mir")
    assert mir.describe(result).detail == "3 succès pour SD 2 · marge +1"
    i18n.set_language("en")
    assert mir.describe(result).detail == "3 successes for SD 2 · margin +1"
    i18n.set_language("fr")
    assert mir.describe(result).headline == "réussite"


def test_every_outcome_and_die_word_of_the_systems_is_in_both_catalogs() -> None:
    """The systems' words are English msgids said with `_` / pgettext where shown: each one
    must have a French and an English text (else French would show English)."""
    for lang in ("fr", "en"):
        po = msgfmt.catalog(lang)
        for system in SYSTEMS.values():
            for word in system.outcome_words.values():
                assert (None, word) in po, (lang, system.id, word)
            for word in system.die_words.values():
                assert ("die", word) in po, (lang, system.id, word)
            if system.total_unit.strip():
                assert ("total unit", system.total_unit.strip()) in po, (lang, system.id)
