"""The quick-roll grammar on the bundled samples: every example of the issue, errors, completion."""

from __future__ import annotations

import random

import pytest

import gmscreen.rules
from gmscreen.campaign import load_campaign, new_campaign, sample_path
from gmscreen.campaign.model import Character
from gmscreen.rules import odds, resolve
from gmscreen.play.quickroll import QuickRollError, RollFlow, complete, grammar_help, parse, spending

SYSTEMS = tuple(gmscreen.rules.SYSTEMS)


@pytest.fixture(scope="module")
def camp():
    cache = {s: load_campaign(sample_path(s)) for s in SYSTEMS}
    return cache.__getitem__


# (system, line, kind, expected request fields, who)
EXAMPLES = [
    ("mir", "loriane éloquence sd3", "simple", {"skill": 3, "voie": 2, "difficulty": 3}, "Loriane"),
    ("mir", "LORIANE eloquence SD 3", "simple", {"skill": 3, "voie": 2, "difficulty": 3}, "Loriane"),
    ("mir", "lor élo moyenne", "simple", {"skill": 3, "voie": 2, "difficulty": 3}, "Loriane"),
    ("mir", "6d12 sd2", "simple", {"pool": 6, "difficulty": 2}, "6d12"),
    ("mir", "callia infiltration vs garde instinct", "opposed",
     {"actor_skill": 3, "actor_voie": 3, "opponent_skill": 1, "opponent_voie": 2}, "Callia"),
    ("mir", "callia infiltration contre garde instinct", "opposed",
     {"actor_skill": 3, "opponent_skill": 1}, "Callia"),
    ("mir", "alexis force sd4 +1d aide loriane", "group",            # +1d, and the lantern's −1 dé (R3)
     {"skill": 1, "voie": 3, "modifier": 0, "difficulty": 4, "helper_pools": [1]}, "Alexis"),
    ("mir", "alexis force sd4 +1d help loriane", "group", {"helper_pools": [1]}, "Alexis"),
    ("mir", "loriane guérison 8 jour max3", "extended",
     {"skill": 2, "voie": 3, "threshold": 8, "max_tests": 3, "interval": "jour"}, "Loriane"),
    ("mir", "callia infiltration sd2 blessures", "simple", {"penalty": 1, "modifier": -1}, "Callia"),   # + Fièvre grise
    ("mir", "alexis tir très difficile -1d", "simple", {"difficulty": 5, "modifier": -2}, "Alexis"),   # + Ébloui
    ("eclats", "ysaure emp calmer 15", "simple", {"characteristic": 3, "skill": 3, "threshold": 15}, "Ysaure"),
    ("eclats", "mael agilité pister difficile", "simple", {"characteristic": 3, "skill": 3, "threshold": 9},
     "Maël"),
    ("eclats", "berthe for intimider 9", "simple", {"characteristic": 2, "skill": 3, "threshold": 9,  # Transie FOR −1
                                                    "level3_second_zero": "automatic_failure"}, "Berthe"),
    ("magisphere", "shady négociation 25 +2 malus 5", "simple",
     {"stat": 11, "skill": 3, "threshold": 25, "bonus": 2, "malus": 8, "impulsions": 2}, "Shady"),   # Ivre Malus 3
    ("magisphere", "granok force vs bob force", "opposed",
     {"actor_stat": 10, "opponent_stat": 9, "opponent_skill": 4}, "Granok"),
    ("magisphere", "shady négo 20 imp", "simple", {"impulse_bonus": True, "threshold": 20}, "Shady"),
    ("magisphere", "granok force vs bob force tendue", "extended_opposed", {"target": 3}, "Granok"),
    ("magisphere", "shady discrétion 18 aide granok", "simple", {"helper_skills": [0]}, "Shady"),
    ("tedeum", "louvensac charme 13 providence", "simple",
     {"die": 12, "skill": 5, "negative_die": 6, "providence_die": 6, "use_providence": True, "difficulty": 13},
     "Mlle de Louvensac"),
    ("tedeum", "louvensac perception 9 bonus", "simple", {"die": 10, "die_shift": 0, "skill": 4},   # Essoufflée: Malus
     "Mlle de Louvensac"),
    ("tedeum", "louvensac perception 9 malus malus", "simple", {"die_shift": -3}, "Mlle de Louvensac"),
    ("tedeum", "louvensac comédie vs gentilhomme perspicacité", "opposed",
     {"actor_die": 12, "actor_skill": 3, "opponent_die": 8, "opponent_skill": 2}, "Mlle de Louvensac"),
    ("tedeum", "saint-gelais escrime attaque vs gentilhomme escrime", "attack",
     {"actor_die": 10, "actor_skill": 4, "opponent_skill": 3}, "le capitaine de Saint-Gelais"),
    ("arpeges", "marchand baratin -3", "simple", {"difficulty": -3, "skill_level": 5}, "Maître Gorlois, marchand"),
    ("arpeges", "thibault baratin -3", "simple", {"difficulty": -3, "skill_level": 4}, "Thibault"),
    ("arpeges", "thibault intuition manœuvre baratin -3 x2", "simple",
     {"skill_level": 4, "simultaneous_actions": 2}, "Thibault"),
    ("arpeges", "thibault baratin -3 vs marchand baratin", "confrontation",
     {"difficulty": -3, "actor_skill_level": 4, "opponent_skill_level": 5}, "Thibault"),
    ("arpeges", "sibylle épée vs marchand baratin", "opposed_one_roll",           # Étourdie −2: 6 − 2
     {"actor_skill_level": 4, "opponent_skill_level": 5}, "Sibylle"),
    ("arpeges", "sibylle épée vs marchand baratin 2j", "opposed_two_rolls", {"actor_skill_level": 4}, "Sibylle"),
]


@pytest.mark.parametrize("system,line,kind,fields,who", EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_examples_parse_to_valid_requests(camp, system, line, kind, fields, who):
    draft = parse(line, camp(system))
    assert draft.kind == kind
    assert draft.who == who
    for key, value in fields.items():
        assert draft.request[key] == value, key
    assert not draft.missing
    odds(draft.odds_request)          # valid for the rules core
    resolve(draft.request, seed=3)
    # The part of the label stating the difficulty, as the game says it (kept whole when the
    # odds row must shrink): one of the label's parts, naming the value typed; none without one.
    parts = draft.label.split(" · ")
    stated = [draft.request.get(k) for k in ("difficulty", "threshold", "target") if k in draft.request]
    if stated:
        assert draft.difficulty_text in parts, (draft.label, draft.difficulty_text)
        assert str(abs(stated[0])) in draft.difficulty_text
    else:
        assert draft.difficulty_text == ""


def test_the_history_pauses_before_each_line_it_reads(camp):
    """Built in a thread, it can give way to the screen before each line it parses."""
    from gmscreen.campaign.model import RollRecord
    from gmscreen.play.quickroll.history import history_from_log

    lines = ["loriane éloquence sd3", "loriane éloquence sd3", "alexis tir sd2", "personne nulle part sd2"]
    records = [RollRecord(i, "2025-03-01T21:04:11+01:00", 1, "x", line, {}, {}) for i, line in enumerate(lines)]
    pauses = []
    from gmscreen.play.tables import table_for

    found = history_from_log(records, camp("mir"), 10, pause=lambda: pauses.append(1), game=table_for("mir"))
    assert found == ["loriane éloquence sd3", "alexis tir sd2"] and len(pauses) == 3     # each line read once


def test_delta_baseline_drops_the_modifiers(camp):
    draft = parse("alexis force sd4 +1d aide loriane", camp("mir"))
    assert draft.modifier_text == "+1d, aide Loriane"
    assert draft.baseline is not None and draft.baseline["kind"] == "simple"
    assert draft.baseline.get("modifier") == -1 and "helper_pools" not in draft.baseline   # the lantern's alone
    before = odds(draft.baseline)["chance"]
    after = odds(draft.odds_request)["chance"]
    assert after > before


def test_selected_character_is_the_default_actor(camp):
    draft = parse("éloquence sd2", camp("mir"), selected="loriane")
    assert draft.who == "Loriane" and draft.request["skill"] == 3
    with pytest.raises(QuickRollError):
        parse("éloquence sd2", camp("mir"))


def test_gm_only_and_hidden_words(camp):
    draft = parse("mj loriane éloquence sd3 caché", camp("mir"))
    assert draft.gm_only and draft.request["hidden"] is True
    assert parse("loriane élo sd3 secret", camp("mir")).gm_only


def test_missing_difficulty_still_gives_a_draft(camp):
    draft = parse("loriane éloquence", camp("mir"))
    assert draft.missing and draft.request["difficulty"] == 3
    assert draft.difficulty_span is None


def test_difficulty_span_points_at_the_typed_difficulty(camp):
    line = "loriane éloquence difficile +1d"
    draft = parse(line, camp("mir"))
    a, b = draft.difficulty_span
    assert line[a:b] == "difficile"


@pytest.mark.parametrize("system,line,fields", [
    ("mir", "6d12 sd2 = 1 5 4 6 11 12", {"dice": [1, 5, 4, 6, 11, 12]}),
    ("mir", "callia infiltration vs garde instinct sans fièvre = 7 8 12 1 2 3 9 4 5",
     {"actor_dice": [7, 8, 12, 1, 2, 3], "opponent_dice": [9, 4, 5]}),
    ("mir", "alexis force sd4 aide loriane sans ébloui = 9 / 1 2 3 4 12", {"helper_dice": [[9]], "dice": [1, 2, 3, 4, 12]}),
    ("mir", "alexis force sd4 aide loriane sans ébloui = 9 1 2 3 4 12", {"helper_dice": [[9]], "dice": [1, 2, 3, 4, 12]}),
    ("mir", "loriane guérison 8 jour max3 = 7 12 3 5 9", {"rolls": [[7, 12, 3, 5, 9]]}),
    ("eclats", "ysaure emp calmer 9 = 3 0", {"dice": [3, 0]}),
    ("eclats", "ysaure emp calmer 2 =", {"dice": []}),
    ("magisphere", "shady négo 25 = 5 14", {"dice": [5, 14]}),
    ("magisphere", "granok force vs bob force = 20 18", {"actor_dice": [20], "opponent_dice": [18]}),
    ("magisphere", "granok force vs bob force = 3 / 18", {"actor_dice": [3], "opponent_dice": [18]}),
    ("tedeum", "louvensac charme 13 providence sans essoufflée = 12 12 5 4", {"dice": [12, 12, 5], "providence_dice": [4]}),
    ("tedeum", "louvensac charme 13 = 1 5", {"dice": [1], "negative_dice": [5]}),
    ("tedeum", "louvensac comédie vs gentilhomme perspicacité = 7 5",
     {"actor_dice": [7], "opponent_dice": [5]}),
    ("arpeges", "marchand baratin -3 = 6 5", {"chance_dice": [6], "malchance_dice": [5]}),
    ("arpeges", "marchand baratin -3 ouvert = 10 4 5", {"chance_dice": [10, 4], "malchance_dice": [5]}),
    ("arpeges", "thibault baratin -3 vs marchand baratin = 9 2 3 8",
     {"actor_chance_dice": [9], "actor_malchance_dice": [2], "opponent_chance_dice": [3],
      "opponent_malchance_dice": [8]}),
])
def test_physical_dice_fill_the_dice_fields(camp, system, line, fields):
    draft = parse(line, camp(system))
    assert draft.forced and draft.choice is None
    for key, value in fields.items():
        assert draft.request[key] == value
    resolve(draft.request)


@pytest.mark.parametrize("system,line,position,needle", [
    ("mir", "lor xyz sd3", 4, "xyz"),
    ("mir", "loriane éloquence sd3 sd4", 22, "deux fois"),
    ("mir", "loriane éloquence sd9", 18, "0 à 7"),
    ("mir", "zorglub tir sd3", 0, "zorglub"),
    ("mir", "callia infiltration vs", 22, "contre qui"),
    ("mir", "6d12 sd2 = 1 5 4", 9, "il faut exactement 6 dés, 3 donnés"),
    ("mir", "6d12 sd2 = 1 x", 13, "face"),
    ("mir", "alexis tir sd3 +3d", 15, "modificateur : 3 hors limites"),
    ("eclats", "ysaure calmer 9", 15, "caractéristique"),
    ("magisphere", "granok force vs bob force 20", 26, "seuil"),
])
def test_errors_name_the_place(camp, system, line, position, needle):
    with pytest.raises(QuickRollError) as info:
        parse(line, camp(system))
    assert info.value.position == position
    assert needle in info.value.message


def test_ambiguous_prefix_lists_candidates(camp):
    with pytest.raises(QuickRollError) as info:
        parse("loriane éloquence très", camp("mir"))
    assert "Très facile" in info.value.message and "Très difficile" in info.value.message
    with pytest.raises(QuickRollError) as info:
        parse("loriane e sd3", camp("mir"))        # Éloquence, Érudition, Empathie, Étiquette
    assert "Éloquence" in info.value.message and "Étiquette" in info.value.message
    assert info.value.position == 8


HOSTILE = ["[/]", "[@click=app.quit]", "Orc [A]", "Bob\x1b]2;pwn\x07"]


@pytest.fixture
def hostile_campaign():
    campaign = new_campaign("Hostile", "mir")
    for n, name in enumerate(HOSTILE):
        campaign.characters.append(Character(id=f"h{n}", name=name, side="npc",
                                             sheet={"voies": {"peur": 3}, "skills": {"tir": 2}}))
    return campaign


@pytest.mark.parametrize("typed,name", [("[/] tir sd2", "[/]"), ("[@click tir sd2", "[@click=app.quit]"),
                                        ("orc tir sd2", "Orc [A]"), ("bob tir sd2", "Bob\x1b]2;pwn\x07"),
                                        ("orc [a] tir sd2", "Orc [A]")])
def test_hostile_names_are_matched_and_kept_as_typed(hostile_campaign, typed, name):
    draft = parse(typed, hostile_campaign)
    assert draft.who == name
    assert draft.request["skill"] == 2 and draft.request["voie"] == 3


def test_completion_offers_names_then_skills(camp):
    c = camp("mir")
    first = complete("lo", 2, c)
    assert "loriane" in first.candidates
    skills = complete("loriane él", 10, c)
    assert skills.candidates[0] == "éloquence" and skills.start == 8
    line, cursor = skills.apply("loriane él", "éloquence")
    assert line == "loriane éloquence " and cursor == len(line)
    after_vs = complete("callia infiltration vs ga", 25, c)
    assert "le garde de la porte" in after_vs.candidates
    helper = complete("alexis force sd4 aide l", 23, c)
    assert "loriane" in helper.candidates
    assert parse("le garde de la porte instinct sd1", c).who == "Le garde de la porte"
    assert complete("6d12 sd2 = 1", 12, c).candidates == ()


def test_grammar_help_for_every_system():
    for system in SYSTEMS:
        text = grammar_help(system)
        assert "vs" in text and "=" in text
    assert "loriane éloquence sd3" in grammar_help("mir")
    assert "providence" in grammar_help("tedeum")
    assert "parer" in grammar_help("arpeges")


@pytest.mark.parametrize("width", [50, 70, 100])
def test_grammar_help_lines_fit_the_width_and_examples_are_whole(width):
    for system in SYSTEMS:
        lines = grammar_help(system, width).splitlines()
        assert all(len(line) <= width for line in lines), system
    mir = grammar_help("mir", width).splitlines()
    assert any(line.strip() == "callia infiltration vs garde instinct" or
               line.strip().startswith("callia infiltration vs garde instinct  ") for line in mir)


def test_opponent_name_is_the_whole_character_name(camp):
    from gmscreen.play.quickroll import opponent_name

    mir = camp("mir")
    assert opponent_name("callia infiltration contre garde instinct", mir) == "Le garde de la porte"
    assert opponent_name("callia infiltration vs le garde de la porte instinct", mir) == "Le garde de la porte"
    assert opponent_name("loriane éloquence sd3", mir) is None
    assert opponent_name("callia infiltration vs zorglub", mir) is None


# ---------------------------------------------------------------- choices inside a roll


def _flow(draft, seed=0):
    return RollFlow(draft, random.Random(seed)).start()


def test_eclats_reroll_and_keep(camp):
    draft = parse("ysaure emp calmer 9", camp("eclats"))
    flow = _flow(draft)
    assert flow.prompt is not None and {o.key for o in flow.prompt.options} == {"r", "g"}
    first = list(flow.request["dice"])
    assert flow.choose("r")
    assert flow.request["dice"][:1] == first and len(flow.request["dice"]) == 2
    assert flow.choose("enter")           # keep
    assert flow.done and flow.result["dice"] == flow.request["dice"]
    assert resolve(flow.request) == flow.result


def test_eclats_stops_asking_when_no_roll_left(camp):
    flow = _flow(parse("ysaure agi calmer 9", camp("eclats")))   # AGI 1: one roll only
    assert flow.done and flow.prompt is None and len(flow.result["dice"]) == 1


def test_magisphere_impulsion_reroll_spends_points(camp):
    c = camp("magisphere")
    draft = parse("shady négo 40", c)          # fails unless a natural 20
    for seed in range(50):
        flow = _flow(draft, seed)
        if flow.prompt is not None:
            break
    assert flow.prompt is not None and flow.prompt.option("r") is not None
    flow.choose("r")
    assert len(flow.request["dice"]) == 2
    while flow.prompt is not None:
        flow.choose("r")
    assert len(flow.request["dice"]) <= 3     # Shady has 2 points
    spends = spending(draft, flow.result, c)
    assert spends and spends[0].path[-1] == "impulsion" and spends[0].after == 2 - flow.result["impulsions_spent"]


def test_tedeum_providence_is_asked_before_the_roll(camp):
    c = camp("tedeum")
    draft = parse("louvensac charme 13", c)
    flow = _flow(draft)
    assert flow.result is None and flow.prompt is not None
    flow.choose("p")
    assert flow.done and flow.result["providence_roll"] is not None
    spends = spending(draft, flow.result, c)
    assert any(s.path[-1] == "providence" and s.after == 4 for s in spends)
    flow = _flow(draft)
    flow.choose("n")
    assert flow.done and flow.result["providence_roll"] is None
    assert _flow(parse("louvensac charme 13 sans providence", c)).done


def test_arpeges_parry_choice(camp):
    c = camp("arpeges")
    draft = parse("thibault baratin +5 vs marchand baratin", c)    # step 1 succeeds often
    for seed in range(50):
        flow = _flow(draft, seed)
        if flow.prompt is not None:
            break
    assert flow.prompt is not None
    actor = (flow.request["actor_chance_dice"], flow.request["actor_malchance_dice"])
    flow.choose("p")
    assert flow.done and flow.result["parry_rolled"] is True
    assert (flow.result["actor_chance_dice"], flow.result["actor_malchance_dice"]) == actor
    flow = _flow(draft, seed)
    flow.choose("n")
    assert flow.done and flow.result["parry_rolled"] is False and flow.result["outcome"] == "success"


@pytest.mark.parametrize("system, line", [("mir", "loriane eloquence sd3"), ("eclats", "ysaure emp calmer 9"),
                                          ("tedeum", "louvensac charme 13")])
def test_a_typed_line_is_priced_once_for_the_line_and_the_tray(system: str, line: str) -> None:
    """Checking a line against the rules goes through the odds memo: the tray's odds of the same
    request, asked right after, compute nothing more."""
    from gmscreen.play import chances

    campaign = load_campaign(sample_path(system))
    chances._memo.clear()
    before = chances.computed
    draft = parse(line, campaign)
    chances.chance(draft.odds_request)
    parse(line, campaign)                    # the same keystroke state again
    assert chances.computed - before == 1


def test_one_fold_matches_names_alike_everywhere() -> None:
    """The quick-roll line, the roll log's search and the forms match a name the same way
    ('manoeuvre' finds 'Manœuvre' in all three)."""
    from gmscreen.play import logline
    from gmscreen.play.quickroll.text import fold
    from gmscreen.ui.screens.edit_character import fold as form_fold

    assert logline.fold is fold
    for typed, name in (("manoeuvre", "Manœuvre"), ("eloquence", "Éloquence"), ("strasse", "Straße")):
        assert fold(typed) == fold(name) == form_fold(f"  {name} ")
    assert fold("Chien\x1b#8") == "chien\ufffd#8"


# ---------------------------------------------------------------- each game's line part


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_difficulty_row_written_by_the_game_reads_back(camp, system: str) -> None:
    """What the tray writes for a row of the difficulty table (the game's `difficulty_token`)
    is read back by the game's grammar as that difficulty, in the same place."""
    from gmscreen.play.games import table_for

    line_part = table_for(system).line
    campaign = camp(system)
    example = line_part.help_examples[0][0]          # each game's first example: a simple test
    start, end = parse(example, campaign).difficulty_span
    rows = [d.value for d in gmscreen.rules.get_system(system).difficulties if d.value is not None]
    assert rows, system
    for value in rows:
        token = line_part.difficulty_token(value)
        line = example[:start] + token + example[end:]
        draft = parse(line, campaign)
        a, b = draft.difficulty_span
        assert line[a:b] == token, (system, value)
        assert draft.request.get("difficulty", draft.request.get("threshold")) == value, (system, value)


def test_a_game_brings_its_own_line_part_through_the_registry(camp) -> None:
    """A game registered at run time is read with the grammar, words, help and difficulty
    token of the `LineRules` its table hands over; what it leaves out is the default."""
    from dataclasses import replace

    from gmscreen.play.game import GameTable
    from gmscreen.play.quickroll.grammar import SystemGrammar, grammar_for
    from gmscreen.play.quickroll.grammar_kit import next_number
    from gmscreen.play.quickroll.line_rules import LineRules
    from gmscreen.rules import registry

    class PushGrammar(SystemGrammar):
        keywords = frozenset({"pousse"})

        def keyword(self, ctx, tokens, i):
            if tokens[i].norm != "pousse":
                return 0
            ctx.once("difficulty", next_number(tokens, i, "poussée"), tokens[i], "la poussée", tokens[i + 1])
            return 2

    class PushLine(LineRules):
        grammar_class = PushGrammar
        completion_words = ("pousse",)
        help_examples = (("ysaure pousse 4", "pousser de 4"),)

        def difficulty_token(self, value: int) -> str:
            return f"pousse {value}"

    registry.register(registry.Plugin("push", system=gmscreen.rules.get_system("eclats"),
                                      table=GameTable("push", line=PushLine())))
    try:
        campaign = replace(camp("eclats"), system="push")
        from gmscreen.play.tables import table_for

        grammar = grammar_for(campaign, table_for("push"))
        assert isinstance(grammar, PushGrammar) and grammar.system_id == "push"
        assert complete("ysaure pou", 10, campaign).candidates == ("pousse",)
        text = grammar_help("push")
        assert text.startswith("Éclats") and "un d10" in text.splitlines()[0] and "ysaure pousse 4" in text and "pousser de 4" in text
        with pytest.raises(QuickRollError, match="no quick-roll grammar"):
            parse("ysaure pousse 4", campaign)       # its grammar builds nothing: the engine says so
        assert PushLine().difficulty_token(4) == "pousse 4"
        plain = GameTable("push").line                # a game with no line part: every default
        assert type(plain) is LineRules and plain.difficulty_token(4) == "4" and plain.completion_words == ()
        assert type(plain.grammar(campaign)) is SystemGrammar
    finally:
        registry.unregister("push")
