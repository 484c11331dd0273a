"""Test timers on the play core alone: the games say which they allow, the form each asks, the
request it builds; an interval rolled, kept in the campaign on disk, and R20 said by MIR."""

from __future__ import annotations

from gmscreen import rules
from gmscreen.campaign.model import Timer
from gmscreen.i18n import _
from gmscreen.play.forms import int_check, nonempty
from gmscreen.play.games import table_for
from gmscreen.play.timers import (interval_refusal, next_interval_dice, record_interval, roll_interval,
                                  timed_test_of, timer_progress, timer_result)
from gmscreen.rules import registry


def fields(form) -> dict:
    return {f.name: f for f in form.fields}


def open_form(sessions, system_id: str, kind: str, who: str):
    """That sample open, its game's timed test `kind` and the form it asks for `who`:
    (session, campaign, system, test, character, form)."""
    session = sessions.open(system_id)
    c, system = session.campaign, session.system
    test = table_for(system.id).fight.timed_test(kind)
    actor = c.character(who)
    return session, c, system, test, actor, test.form(c, system, actor)


def add(session, timer: Timer) -> int:
    with session.edit(f"Minuteur : {timer.label}") as b:
        b.insert(("timers",), None, timer)
    return len(session.campaign.timers) - 1


def roll(session, index: int):
    timer = session.campaign.timers[index]
    rolled = roll_interval(timer, session.campaign, game=table_for(session.campaign.system))       # as the pane rolls it: the conditions re-read
    assert rolled is not None
    with session.edit(f"{timer.label} · {rolled.step}") as b:
        record_interval(b, index, timer, rolled)
    return rolled


def test_each_game_says_which_test_timers_it_allows():
    kinds = {sid: tuple(t.kind for t in table_for(sid).fight.timed_tests()) for sid in registry.SHIPPED}
    assert kinds == {**{sid: () for sid in registry.SHIPPED}, "mir": ("extended",),
                     "magisphere": ("opposition",)}
    assert table_for("mir").fight.timed_test("opposition") is None


def test_mir_extended_test_form_request_and_intervals(sessions):
    session, c, system, test, callia, form = open_form(sessions, "mir", "extended", "callia")
    asked = fields(form)
    assert form.title == "Test étendu de Callia" and list(asked) == ["skill", "threshold", "max", "interval"]
    assert asked["interval"].value == "jour" and form.note.startswith("R19")
    assert asked["skill"].check("zzz") == "Compétence : aucune ne commence par 'zzz'"
    assert asked["skill"].check("  infil ") is None and asked["skill"].check("INFILTRATION") is None
    assert asked["interval"].check("Semaine") is None
    assert asked["interval"].check("mois") == "Temporalité : tour, heure, jour ou semaine"
    assert asked["threshold"].check("0") == "SD : attendu un entier de 1 à 99, pas 0"
    assert asked["max"].check("") is None
    timer = test.make(c, system, callia, {"skill": "infil", "threshold": "6", "max": "", "interval": "tour"})
    assert timer.label == "Infiltration (Mensonge) (1 tour) 6 succès"
    assert (timer.kind, timer.who, timer.status) == ("extended", "callia", "running")
    assert timer.request == {"system": "mir", "kind": "extended", "skill": 3, "voie": 3, "threshold": 6,
                             "max_tests": 0, "interval": "tour", "test_modifiers": []}
    timer.id = "infiltration"
    index = add(session, timer)
    assert timed_test_of(c.timers[index], game=table_for("mir")) is test
    assert interval_refusal(c, c.timers[index], game=table_for("mir")) is None          # 1 tour: allowed during the fight
    rolled = roll(session, index)
    assert rolled.step == "test 1" and len(rolled.dice["rolls"]) == 1
    # Callia's Fièvre grise (−1 dé) bites at this interval: 5 dice, the change kept for test 1.
    assert len(rolled.dice["rolls"][0]) == 5 and all(1 <= d <= 12 for d in rolled.dice["rolls"][0])
    assert rolled.request == {**timer.request, "test_modifiers": [-1], **rolled.dice}
    assert {k: v for k, v in rolled.result.items() if k != "conditions"} == rules.resolve(rolled.request)
    assert rolled.result["conditions"] == {"applied": ["Callia · Fièvre grise: −1 dé"]}
    session = sessions.reopen(session)                           # kept on disk
    saved = session.campaign.timers[index]
    assert saved.dice == rolled.dice and saved.status == rolled.status
    assert saved.request["test_modifiers"] == [-1]
    assert timer_progress(session.campaign, saved, game=table_for("mir")).startswith(f"{rolled.result['total_successes']}/6 · test 1")


def test_mir_r20_then_the_last_day_of_the_sample(sessions):
    session = sessions.open("mir")
    c = session.campaign
    timer = c.timers[0]
    assert timer_progress(c, timer, game=table_for("mir")) == "6/8 · test 2/3 · 1 jour"
    refusal = interval_refusal(c, timer, game=table_for("mir"))
    assert refusal is not None and refusal.startswith("R20 : pendant un combat")
    assert "celui-ci prend 1 jour" in refusal
    with session.edit("Fin du combat") as b:
        b.set(("encounter", "round"), 0)
    assert interval_refusal(c, timer, game=table_for("mir")) is None
    rolled = roll(session, 0)
    assert rolled.step == "test 3" and len(rolled.dice["rolls"][2]) == 5      # Guérison 2 + Héritage 3
    assert c.timers[0].status == rolled.result["outcome"] != "pending"        # the third and last test
    session.undo()
    assert c.timers[0].status == "running" and len(c.timers[0].dice["rolls"]) == 2


def test_magisphere_opposition_form_request_and_a_round(sessions):
    session, c, system, test, shady, form = open_form(sessions, "magisphere", "opposition", "shady")
    assert form.title == "Opposition étendue de Shady"
    assert list(fields(form)) == ["label", "opponent", "target", "actor_stat", "actor_skill",
                                  "opponent_stat", "opponent_skill"]
    assert fields(form)["target"].value == "3" and fields(form)["target"].check("11") is not None
    values = {"label": "Partie de dés", "opponent": "LE GROS BOB", "target": "2", "actor_stat": "11",
              "actor_skill": "", "opponent_stat": "9", "opponent_skill": "4"}
    timer = test.make(c, system, shady, values)
    assert (timer.kind, timer.who, timer.opponent) == ("opposition", "shady", "gros-bob")
    assert timer.request == {"system": "magisphere", "kind": "extended_opposed", "target": 2, "actor_stat": 11,
                             "actor_skill": 0, "opponent_stat": 9, "opponent_skill": 4}
    assert test.make(c, system, shady, {**values, "opponent": "Un inconnu"}).opponent == "Un inconnu"
    assert interval_refusal(c, c.timers[0], game=table_for("magisphere")) is None
    rolled = roll(session, 0)                                     # the sample's Revanche, round 3
    assert rolled.step == "round 3"
    assert len(rolled.dice["actor_dice"]) == len(rolled.dice["opponent_dice"]) == 3
    assert rolled.dice["actor_dice"][:2] == [20, 7] and 1 <= rolled.dice["opponent_dice"][2] <= 20
    # Granok's Bras engourdi (Malus 1) bites this round: the gros Bob's bonus, this round's own.
    assert rolled.request["kind"] == "opposed" and rolled.request["opponent_bonus"] == 1
    assert rolled.result["conditions"] == {"applied": ["Granok · Bras engourdi: Malus 1"]}
    assert c.timers[0].round_stats == [{}, {}, {"opponent_bonus": 1}]
    winner = timer_result(c.timers[0], game=table_for("magisphere"))["winner"]
    assert c.timers[0].status == ("running" if winner == "pending" else winner)


def test_next_dice_never_change_the_timer_itself():
    timer = Timer(id="t", label="t", kind="opposition", who="a", opponent="b",
                  request={"system": "magisphere", "kind": "extended_opposed", "target": 3,
                           "actor_stat": 10, "opponent_stat": 9},
                  dice={"actor_dice": [5], "opponent_dice": [6]})
    dice, step = next_interval_dice(timer, timer_result(timer, game=table_for("magisphere")), game=table_for("magisphere"))
    assert step == "round 2" and timer.dice == {"actor_dice": [5], "opponent_dice": [6]}
    assert dice["actor_dice"][0] == 5 and len(dice["opponent_dice"]) == 2


def test_a_timer_no_game_knows_reads_as_broken(sessions):
    session = sessions.open("eclats")
    odd = Timer(id="x", label="x", kind="extended", request={"system": "nulle-part", "kind": "extended"})
    assert timed_test_of(odd, game=table_for("eclats")) is None and roll_interval(odd, game=table_for("eclats")) is None
    assert timer_progress(session.campaign, odd, game=table_for("eclats")) == "test illisible (voir le fichier)"
    assert interval_refusal(session.campaign, odd, game=table_for("eclats")) is None
    countdown = Timer(id="c", label="c", rounds=2)
    assert timed_test_of(countdown, game=table_for("eclats")) is None and timer_progress(session.campaign, countdown, game=table_for("eclats")) == "2 rounds"


def test_form_checks():
    check = int_check(1, 10, empty_ok=True, what="Réussites")
    assert check("") is None and check("\u22123") == "Réussites : attendu un entier de 1 à 10, pas \u22123"
    assert check("+4") is None and check("deux") == "Réussites : attendu un entier de 1 à 10, pas 'deux'"
    assert int_check(1, 10)("") == "une valeur : attendu un entier de 1 à 10"
    assert nonempty("Libellé")("  ") == "Libellé : ne peut pas être vide"
    assert nonempty("Libellé", 3)("abcd") == "Libellé : 3 caractères au plus"


def test_forms_and_progress_in_english(sessions, english):
    """The game's forms and a timer's words in English; the game's own words (skills, the
    temporality's tour/jour, the R19 notation) as the rules write them."""
    from gmscreen.play.timers import status_word, timer_progress

    session, c, system, test, callia, form = open_form(sessions, "mir", "extended", "callia")
    asked = fields(form)
    assert form.title == "Extended test of Callia"
    assert [f.label for f in asked.values()] == ["Skill", "Successes to reach (extended SD)",
                                                 "Number of tests at most (empty: no limit)",
                                                 "Temporality (tour, heure, jour, semaine)"]
    assert asked["interval"].value == "jour"
    assert asked["threshold"].check("0") == "SD: expected a whole number from 1 to 99, not 0"
    assert asked["interval"].check("month") == "Temporality: tour, heure, jour or semaine"
    assert test.who_missing and _(test.option) == "Extended test (MIR) for the selected character"
    countdown = next(t for t in c.timers if t.kind == "countdown")
    assert timer_progress(c, countdown, game=table_for("mir")) == f"{countdown.rounds} rounds"
    assert [status_word(s) for s in ("running", "success", "done", "tie")] == ["running", "succeeded", "over", "tie"]
    _s, _c, _sys, opposition, shady, form = open_form(sessions, "magisphere", "opposition", "shady")
    assert form.title == "Extended opposition of Shady" and fields(form)["actor_stat"].label == "Statistic of Shady"
    assert int_check(-3, 3, what="Malus")("-9") == "Malus: expected a whole number from \u22123 to 3, not \u22129"


def test_french_forms_contract_the_name(sessions):
    """"Statistique du capitaine", not "de le capitaine"."""
    session, c, system, test, shady, form = open_form(sessions, "magisphere", "opposition", "shady")
    with session.edit("nom") as b:
        b.set(("characters", c.characters.index(shady), "name"), "Le gros Bob")
    form = test.form(c, system, session.campaign.character("shady"))
    assert form.title == "Opposition étendue du gros Bob"
    assert fields(form)["actor_skill"].label == "Compétence du gros Bob"


def test_a_hand_edited_round_stats_on_a_game_without_rounds_of_their_own_is_rolled_as_usual(tmp_path) -> None:
    """MIR's extended test has no rounds with their own settings (only Magisphère's opposition,
    R18): a `round_stats` left by a hand edit is kept in the file but rolls nothing different,
    where it used to stop `r` with an error from a hook MIR does not have."""
    from gmscreen.campaign import load_campaign, sample_path
    from gmscreen.play.interval_dice import roll_interval_as

    campaign = load_campaign(sample_path("mir"))
    timer = next(t for t in campaign.timers if t.kind == "extended")
    plain = roll_interval(timer, game=table_for("mir"))
    timer.round_stats = [{}]
    edited = roll_interval(timer, game=table_for("mir"))
    assert edited is not None and plain is not None
    assert len(edited.dice["rolls"]) == len(plain.dice["rolls"]) == len(timer.dice["rolls"]) + 1
    assert edited.round_stats is None
    faces = " ".join(["7"] * len(timer.dice["rolls"][0]))
    assert roll_interval_as(timer, {"dice": "= " + faces}, game=table_for("mir")).dice["rolls"][-1] == [7] * len(timer.dice["rolls"][0])
