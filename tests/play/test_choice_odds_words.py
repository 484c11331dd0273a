"""Odds that assume a choice say so, and the chance without it: the segment of the odds line
(`gmscreen.play.choice_odds`) against `rules.odds` under each choice; a narrow line drops the
"sans" part first and never takes the room of the rest; the reroll options carry the exact
chance they leave. Real sample campaigns copied into tmp_path."""

from __future__ import annotations

import random

from gmscreen.i18n.typography import percent
from gmscreen.play.choice_odds import assumed, assumes_forms, assumes_words
from gmscreen.play.quickroll import RollFlow
from gmscreen.play.table_roll import read_line
from gmscreen.rules import odds, resolve


def chance(request: dict) -> float:
    return odds(request)["chance"]


def test_magisphere_says_how_many_impulsion_rerolls_and_the_chance_without(sessions) -> None:
    session = sessions.open("magisphere")
    draft = read_line(session.campaign, "shady négo 25")
    with_rerolls = odds(draft.odds_request)
    assert "reroll while failing, at most 2 rerolls" == with_rerolls["policy"]
    without = dict(draft.odds_request, impulsions=0)
    assert odds(without)["policy"].startswith("no reroll")
    full = assumes_forms(draft)[0]
    assert full == f" (avec 2 relances d'Impulsion) · {percent(chance(without))} sans"
    assert assumed(draft).request == without and chance(without) < with_rerolls["chance"]


def test_magisphere_opposition_names_each_sides_rerolls(sessions) -> None:
    session = sessions.open("magisphere")
    draft = read_line(session.campaign, "granok puissance vs shady puissance")
    without = dict(draft.odds_request, actor_impulsions=0, opponent_impulsions=0)
    assert assumes_forms(draft)[0] == (f" (avec relances d'Impulsion : Granok 1, Shady 2) · "
                                       f"{percent(chance(without))} sans")
    bought = read_line(session.campaign, "shady négo 25 imp")              # the +3 costs a point
    assert assumed(bought).request["impulsions"] == 1 and "avec 1 relance d'Impulsion" in assumes_forms(bought)[0]


def test_tedeum_says_providence_is_not_called_and_the_chance_with_it(sessions) -> None:
    session = sessions.open("tedeum")
    draft = read_line(session.campaign, "louvensac charme 13")
    assert odds(draft.odds_request)["policy"] == "no providence"
    called = dict(draft.odds_request, use_providence=True)
    assert assumes_forms(draft)[0] == f" (sans Providence) · {percent(chance(called))} avec"
    typed = read_line(session.campaign, "louvensac charme 13 providence")   # the modifier says it already
    assert assumes_forms(typed) == [""]
    defence = read_line(session.campaign, "gentilhomme escrime attaque vs louvensac escrime")
    flipped = dict(defence.odds_request, opponent_use_providence=True)
    assert assumes_forms(defence)[0] == f" (Mlle de Louvensac sans Providence) · {percent(chance(flipped))} avec"


def test_eclats_and_arpeges_say_their_policy(sessions) -> None:
    session = sessions.open("eclats")
    draft = read_line(session.campaign, "ysaure emp calmer 9")
    assert odds(draft.odds_request)["policy"] == "best"
    single = dict(draft.odds_request, policy="single")
    assert assumes_forms(draft)[0] == f" (en relançant tant que ça échoue) · {percent(chance(single))} sans relance"
    arpeges = sessions.open("arpeges")
    conf = read_line(arpeges.campaign, "thibault baratin -3 vs marchand baratin")
    assert odds(conf.odds_request)["policy"] == "parry"
    loose = dict(conf.odds_request, parry=False)
    assert assumes_forms(conf)[0] == f" (si la cible pare) · {percent(chance(loose))} sans parade"


def test_no_choice_no_words_and_a_narrow_line_drops_the_without_part_first(sessions) -> None:
    session = sessions.open("mir")
    assert assumes_forms(read_line(session.campaign, "loriane éloquence sd3")) == [""]
    magisphere = sessions.open("magisphere")
    draft = read_line(magisphere.campaign, "shady négo 25")
    full, short, shortest, none = assumes_forms(draft)
    assert (short, shortest, none) == (" (avec 2 relances d'Impulsion)", " (2 relances)", "")
    assert assumes_words(draft) == full
    for room in range(0, len(full) + 2):
        words = assumes_words(draft, room)
        assert len(words) <= room                                         # never more than the room left
    assert assumes_words(draft, len(full) - 1) == short and assumes_words(draft, 5) == ""


def test_reroll_options_carry_the_exact_chance_they_leave(sessions) -> None:
    session = sessions.open("magisphere")
    draft = read_line(session.campaign, "shady négo 25")
    flow = next(f for s in range(100) if (f := RollFlow(draft, random.Random(s)).start()).prompt is not None)
    left = 2
    rest = {k: v for k, v in flow.request.items() if k != "dice"}
    after = chance(dict(rest, impulse_bonus=False, impulsions=left - 1))   # the new d20, then one more while failing
    reroll, keep = flow.prompt.options
    assert (reroll.chance, keep.chance) == (after, 0.0)
    assert reroll.text == f"relancer {percent(after)}" and keep.text == f"garder {percent(0)}"
    assert reroll.label == "relancer (1 Impulsion)"                        # what `gmscreen line` says was chosen
    eclats = sessions.open("eclats")
    draft = read_line(eclats.campaign, "ysaure emp calmer 9")
    flow = next(f for s in range(100) if (f := RollFlow(draft, random.Random(s)).start()).prompt is not None)
    # Two rolls left after the first: count every sequence the best policy plays, by the rules.
    wins = 0
    for a in range(10):
        if resolve(dict(flow.request, dice=flow.request["dice"] + [a]))["outcome"] == "success":
            wins += 10
        else:
            wins += sum(resolve(dict(flow.request, dice=flow.request["dice"] + [a, b]))["outcome"] == "success"
                        for b in range(10))
    reroll, keep = flow.prompt.options
    assert reroll.chance == wins / 100 and reroll.text == f"relancer {percent(wins / 100)}"
    assert keep.text == f"garder {percent(1.0 if flow.result['outcome'] == 'success' else 0.0)}"


def test_the_parry_options_carry_the_targets_chance_of_stopping_the_action(sessions) -> None:
    session = sessions.open("arpeges")
    draft = read_line(session.campaign, "thibault baratin -3 vs marchand baratin")
    flow = next(f for s in range(200) if (f := RollFlow(draft, random.Random(s)).start()).prompt is not None)
    parried, unparried = chance(draft.odds_request), chance(dict(draft.odds_request, parry=False))
    parry, through = flow.prompt.options
    assert abs(parry.chance - (1 - parried / unparried)) < 1e-12 and through.chance == 0.0
    assert parry.text == f"parer {percent(parry.chance)}" and parry.label == "parer"
