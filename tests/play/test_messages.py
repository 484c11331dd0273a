"""Errors with codes: every code raised has an English and a French text, built from its
parameters; nothing reads a message back; the tray never shows an untranslated refusal; the
words follow the language spoken (one gettext catalog: the English template is the msgid)."""

from __future__ import annotations

import ast
import copy
import functools
import random
import tomllib
from pathlib import Path

import pytest

import gmscreen
from gmscreen import i18n
from gmscreen.play import messages
from gmscreen.i18n import msgfmt
from gmscreen.play.messages import FIELDS, catalog, field_words, line_message, rule_message, rule_reason
from gmscreen.play.quickroll import QuickRollError
from gmscreen.rules import SYSTEMS, RequestError, odds, resolve
from gmscreen.rules.errors import add_messages, english

ENGLISH = english().rules
FR, EN = catalog("fr"), catalog("en")

PACKAGE = Path(gmscreen.__file__).parent
VECTORS = Path(__file__).resolve().parents[1] / "data" / "vectors"

_WHY = RequestError("", "pool_dice", pool=3, modifier=1, penalty=0, help=0, change=1, least=False)
_CAUSE = RequestError("dice", "exact_dice", n=5, why=_WHY, got=1)
_TEDEUM = {"die": "characteristic", "base": 8, "shift": -1}

# One real set of parameters per rules code, as the raising site gives them.
RULE_SAMPLES: dict[str, dict] = {
    "expected_table": {"value": "x"}, "required_int": {"lo": 0, "hi": 7},
    "expected_int": {"lo": 0, "hi": 7, "value": "3"}, "out_of_range": {"lo": 0, "hi": 7, "value": 9},
    "required_choice": {"choices": (4, 6, 8)}, "expected_choice": {"choices": ("one", "unlimited"), "value": "x"},
    "required_bool": {}, "expected_bool": {"value": 1},
    "required_int_list": {"min_len": 1, "max_len": 2, "lo": 0, "hi": 12}, "expected_int_list": {"value": 3},
    "list_length": {"min_len": 1, "max_len": 2, "got": 3}, "expected_list_items": {"lo": 0, "hi": 12, "value": 20},
    "expected_dice": {"value": 3}, "dice_limit": {"max": 100, "got": 101}, "expected_face": {"value": "6"},
    "expected_dice_lists": {"max": 2}, "expected_dice_list": {"value": 3}, "expected_list_face": {"value": "x"},
    "unknown_field": {}, "too_few_dice": {"given": 2}, "impossible_face": {"face": 13, "lo": 1, "hi": 12},
    "too_many_dice": {"given": 4, "used": 3},
    "unknown_system": {"choices": ("a", "b"), "value": "c"}, "required_system": {"choices": ("a", "b")},
    "expected_system": {"choices": ("a", "b")}, "unknown_kind": {"choices": ("simple",), "system": "a", "value": "x"},
    "expected_kind": {"choices": ("simple", "opposed"), "value": "x"}, "odds_forced_dice": {},
    "expected_expression_text": {"value": 3}, "dice_count": {"count": 0, "text": "0d6", "max": 100},
    "die_sides": {"sides": 1, "text": "d1", "min": 2, "max": 1000}, "expected_expression": {"text": "abc"},
    "empty_expression": {}, "expression_number": {"value": 2000, "text": "2000", "max": 1000},
    "not_with_pool": {}, "required_pool": {"lo": 0, "hi": 12}, "required_voie": {"lo": 1, "hi": 6},
    "required_skill": {"lo": 0, "hi": 6}, "group_skill": {"lo": 0, "hi": 6},
    "exact_dice": {"n": 6, "why": _WHY, "got": 3},
    "pool_dice": {"pool": 1, "modifier": -1, "penalty": 2, "help": 2, "change": 0, "least": True},
    "helper_pool_dice": {"index": 1, "pool": 0, "least": True}, "forced_all": {"lo": 1, "hi": 12}, "trivial_not_rolled": {},
    "helper_lists": {"n": 2, "got": 1}, "in_helper": {"index": 1, "cause": RequestError("x", "too_few_dice", given=1)},
    "extended_decided": {"tests": 2, "given": 3}, "in_test": {"index": 2, "cause": _CAUSE},
    "characteristic_rolls": {"characteristic": 1, "got": 2},
    "impulsion_spent": {"spent": 3, "rerolls": 2, "bonus": True, "available": 2}, "no_impulsion_extended": {},
    "required_d20_faces": {}, "no_d20_face": {}, "one_reroll": {"got": 3}, "rounds_mismatch": {"actor": 2, "got": 3},
    "opposition_decided": {"rounds": 2, "given": 3}, "no_providence": {},
    "open_die_missing": {"sides": 7, **_TEDEUM}, "impossible_die_face": {"face": 9, "sides": 7, **_TEDEUM},
    "open_die_stops": {"index": 1, "face": 3, "sides": 6, "extra": 1}, "open_die_continues": {"sides": 6},
    "one_face_missing": {"sides": 6, "die": "providence", "base": 0, "shift": 0},
    "one_face_only": {"sides": 6, "got": 2, "die": "negative", "base": 0, "shift": 0},
    "providence_unused": {"key": "providence_dice"}, "negative_unused": {"key": "negative_dice"},
    "required_characteristic_dice": {}, "defender_passive": {},
    "required_d10_faces": {}, "required_d10_face": {}, "impossible_d10_face": {"face": 11},
    "closed_die_one_face": {"got": 2}, "open_roll_stops": {"face": 4}, "open_roll_continues": {},
    "no_parry_failed": {}, "no_parry": {},
}

LINE_SAMPLES: dict[str, dict] = {
    "rule": {"error": _CAUSE}, "missing": {"text": "seuil manquant"}, "refused": {"text": "pas pendant un combat"}, "no_grammar": {}, "empty_line": {},
    "given_twice": {"what": "le seuil"}, "ambiguous": {"text": "e", "what": "compétences", "labels": ("A", "B"),
                                                      "extra": 2},
    "one_vs": {}, "helper_who": {}, "without_what": {"word": "sans"},
    "without_condition": {"word": "fièvre", "names": "Alexis"}, "unexpected_number": {"word": "3"},
    "unknown_character": {"word": "bob"}, "name_first": {"word": "tir", "role": "opponent"},
    "unknown_word": {"word": "zz", "name": "Alexis"},
    "unknown_word_near": {"word": "escrme", "name": "Alexis", "labels": ("Escrime",)},
    "no_character_near": {"word": "margo", "names": ("Marguerite Duval", "Margot")}, "vs_whom": {}, "who_rolls": {}, "face_not_number": {"word": "x"},
    "number_must_follow": {"word": "sd", "what": "SD"}, "already_has": {"word": "tir", "name": "A", "label": "Tir"},
    "dice_groups_given": {"expected": 2, "given": 3}, "dice_groups": {"expected": 2},
    "already_pool": {"word": "5d", "name": "A"}, "already_level": {"word": "n3", "name": "A"},
    "already_die": {"word": "d8", "name": "A"}, "already_characteristics": {"word": "3/1", "name": "A"},
    "already_scores": {"word": "12", "name": "A"}, "which_skill": {"name": "A"},
    "which_skill_examples": {"name": "A", "examples": "tir"}, "which_skill_or_stat": {"name": "A"},
    "which_characteristic": {"name": "A", "names": "Force"}, "no_stat": {"name": "A", "stat": "force"},
    "help_needs_skill": {}, "help_needs_skill_not_pool": {}, "help_not_opposed": {}, "help_each_interval": {},
    "helper_groups": {"expected": 3}, "no_help_rule": {"game": "Éclats"}, "no_help_rule_plural": {"game": "Les Arpèges"},
    "no_help_in_tests": {"game": "Te Deum"}, "no_opposed_test": {"game": "Éclats"}, "opposed_no_sd": {},
    "sd_simple_range": {"difficulty": 9}, "extended_needs_vs": {}, "no_impulsion": {"name": "A"},
    "opposition_no_threshold": {}, "malus_in_opposition": {}, "impulsion_extended": {}, "split_sides": {},
    "confrontation_needs_vs": {}, "simultaneous_scope": {}, "lost_sheep": {"name": "A"},
    "attack_no_difficulty": {}, "opposition_no_difficulty": {},
}
# The same words in both languages on purpose: a typed-in prompt, the game's own refusal, and a
# developer's error.
SAME_IN_BOTH = {"missing", "refused", "no_grammar"}


# ---------------------------------------------------------------- the codes raised in the code


# Functions that hand on a code their caller gave (`Reader.forbid(code=...)`, unpickling).
PASS_THROUGH = {"forbid", "_rebuild"}


def _constants(node: ast.AST) -> list[str]:
    """The string constants a code argument may take (`"a"`, `"a" if c else "b"`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


@functools.cache
def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def _calls() -> tuple[dict[str | None, list[ast.Call]], dict[ast.AST, ast.AST], dict[ast.Call, Path]]:
    """Every call in gmscreen/ by the name called (in the order of the files, then of the code),
    each node's parent, and the file of each call: walked once for every test."""
    calls: dict[str | None, list[ast.Call]] = {}
    parents: dict[ast.AST, ast.AST] = {}
    path_of: dict[ast.Call, Path] = {}
    for path, tree in _trees().items():
        for node in ast.walk(tree):                 # each node's children are set as it is reached
            for child in ast.iter_child_nodes(node):
                parents[child] = node
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                calls.setdefault(name, []).append(node)
                path_of[node] = path
    return calls, parents, path_of


def _raised_codes(error: str, position: int) -> dict[str, list[str]]:
    """code -> where, for every `error(...)` in gmscreen/; a code given by a variable is traced to
    its assignment in the function, or to every call (in any module) of the function taking it."""
    calls, parents, path_of = _calls()
    found: dict[str, list[str]] = {}
    unresolved: list[str] = []
    for call in calls.get(error, []):
        path = path_of[call]
        if len(call.args) <= position or isinstance(call.args[position], ast.Starred):
            continue
        where = f"{path.relative_to(PACKAGE)}:{call.lineno}"
        arg = call.args[position]
        codes = _constants(arg)
        scope = call
        while scope in parents and not isinstance(scope, ast.FunctionDef):
            scope = parents[scope]
        if not codes and isinstance(arg, ast.Name) and isinstance(scope, ast.FunctionDef):
            for node in ast.walk(scope):
                if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == arg.id for t in node.targets):
                    codes += _constants(node.value)
            params = [a.arg for a in scope.args.args]
            if arg.id in params:
                index = params.index(arg.id) - (1 if params[0] == "self" else 0)
                for other in calls.get(scope.name, []):
                    given = [kw.value for kw in other.keywords if kw.arg == arg.id]
                    if not given and len(other.args) > index:
                        given = [other.args[index]]
                    for value in given:
                        codes += _constants(value)
        if not codes and getattr(scope, "name", None) not in PASS_THROUGH:
            unresolved.append(f"{where}: {ast.unparse(arg)}")
        for code in codes:
            found.setdefault(code, []).append(where)
    for call in calls.get("forbid", []) if error == "RequestError" else ():
        for kw in call.keywords:
            if kw.arg == "code":
                for code in _constants(kw.value):
                    found.setdefault(code, []).append(f"forbid:{call.lineno}")
    assert not unresolved, f"codes that are not string constants: {unresolved}"
    return found


def test_every_rules_code_raised_has_an_english_and_a_french_text() -> None:
    raised = _raised_codes("RequestError", 1)
    assert len(raised) >= 60
    assert set(raised) <= set(ENGLISH), sorted(set(raised) - set(ENGLISH))
    assert set(raised) <= set(FR.rules), sorted(set(raised) - set(FR.rules))
    _assert_translated("rules", ENGLISH)


@functools.cache
def _catalog(lang: str):
    """A .po catalog, read once for the tests of this file (a parse is slow); only read here."""
    return msgfmt.catalog(lang)


def _assert_translated(table: str, templates: dict[str, str]) -> None:
    """Each English template is the msgid of its code in both .po catalogs (so an edited
    English template cannot silently lose its French), with a French text of its own."""
    for lang in ("fr", "en"):
        po = _catalog(lang)
        missing = [code for code, english in templates.items() if (f"{table}:{code}", english) not in po]
        assert missing == [], f"{lang}: {missing}"
    po = _catalog("fr")
    same = [code for code, english in templates.items() if po[(f"{table}:{code}", english)].msgstr == [english]]
    assert set(same) <= SAME_IN_BOTH | {"rule"}, same      # "rule" is the nested error alone


def test_every_quick_roll_code_raised_has_an_english_and_a_french_text() -> None:
    raised = _raised_codes("QuickRollError", 0)
    assert len(raised) >= 40
    assert set(raised) <= set(EN.line), sorted(set(raised) - set(EN.line))
    _assert_translated("line", EN.line)


def test_no_error_text_is_formatted_at_the_raising_site_nor_read_back() -> None:
    """Codes, not sentences: no f-string given to an error, no regex over a message."""
    for path, tree in _trees().items():
        for call in ast.walk(tree):
            name = getattr(getattr(call, "func", None), "id", None)
            if isinstance(call, ast.Call) and name in ("RequestError", "QuickRollError"):
                assert not any(isinstance(a, ast.JoinedStr) for a in call.args), f"{path}:{call.lineno}"
    errors_module = (PACKAGE / "play" / "quickroll" / "errors.py").read_text(encoding="utf-8")
    assert "import re" not in errors_module and "reason_words" not in errors_module


# ---------------------------------------------------------------- every code renders, in both languages


def test_every_code_has_a_sample_and_renders_in_both_languages() -> None:
    assert set(RULE_SAMPLES) == set(ENGLISH)
    assert set(LINE_SAMPLES) == set(FR.line)
    for code, params in RULE_SAMPLES.items():
        exc = RequestError("dice", code, **params)
        english, french = exc.reason, rule_reason(exc, "fr")
        assert english and english != code, code
        assert french and french != english, f"{code}: French falls back to English"
        assert str(exc) == f"dice: {english}"
        assert rule_message(exc) == f"dés : {french}"
        assert rule_message(exc, "en") == str(exc)
        assert rule_reason(exc, "en") == english
    for code, params in LINE_SAMPLES.items():
        error = QuickRollError(code, 3, 5, **params)
        english, french = error.text("en"), error.message
        assert english and french and english != code and french != code, code
        assert (english == french) == (code in SAME_IN_BOTH), code
        assert str(error) == french and (error.position, error.end) == (3, 5)


def test_the_english_contract_and_the_tray_french_read_as_before() -> None:
    spent = RequestError("impulsions", "impulsion_spent", spent=3, rerolls=1, bonus=True, available=2)
    assert str(spent) == "impulsions: 3 Impulsion points spent (1 reroll + the +3 bought before the roll) " \
                         "but only 2 available"
    assert rule_message(spent) == "Impulsion : 3 points d'Impulsion dépensés (1 relance + le +3 pris avant " \
                                  "le jet), 2 seulement disponibles"
    face = RequestError("actor_dice", "impossible_die_face", face=9, sides=7, **_TEDEUM)
    assert face.reason == "impossible face 9: the characteristic die (D8 shifted by −1) is a D7 (faces 1 to 7)"
    assert rule_message(face) == "dés (acteur) : face 9 impossible : le dé de caractéristique (D8 décalé de −1) " \
                                 "est un D7 (de 1 à 7)"
    nested = RequestError("helper_dice", "in_helper", index=2, cause=RequestError("x", "too_few_dice", given=1))
    assert nested.reason == "helper 2: too few dice: 1 given, more needed"
    assert rule_message(nested) == "dés d'aide : aide 2 : pas assez de dés : 1 donné, il en faut plus"
    assert line_message("rule", {"error": nested}, "en") == str(nested)


def test_an_unknown_code_still_reads() -> None:
    """A plugin's own code: its text once it adds one, else the code as it was given."""
    plain = RequestError("dice", "the moon is not full")
    assert plain.reason == "the moon is not full" and rule_message(plain) == "dés : the moon is not full"
    assert line_message("a brand new line error", {}) == "a brand new line error"
    add_messages({"moon_test_code": "the moon is not full ({phase})"})
    messages.add_messages("fr", rules={"moon_test_code": "la lune n'est pas pleine ({phase})"},
                          line={"moon_line_code": "pas de lune pour {name}"})
    try:
        moon = RequestError("dice", "moon_test_code", phase="gibbous")
        assert str(moon) == "dice: the moon is not full (gibbous)"
        assert rule_reason(moon) == "la lune n'est pas pleine (gibbous)"
        assert QuickRollError("moon_line_code", 0, name="Alexis").message == "pas de lune pour Alexis"
    finally:
        del ENGLISH["moon_test_code"], FR.own["rules"]["moon_test_code"], FR.own["line"]["moon_line_code"]
        from gmscreen.rules import errors

        errors._added.pop("moon_test_code")


def test_one_catalog_mechanism_english_templates_are_the_msgids() -> None:
    """The rules' English stays their TOML contract; the quick-roll line's English is a
    code -> English table; every other language is gettext (no per-language TOML)."""
    import tomllib

    rules_en = tomllib.loads((PACKAGE / "rules" / "errors_en.toml").read_text(encoding="utf-8"))
    line_en = tomllib.loads((PACKAGE / "play" / "messages" / "en.toml").read_text(encoding="utf-8"))
    assert sorted(p.name for p in (PACKAGE / "play" / "messages").glob("*.toml")) == ["en.toml"]
    assert catalog("en").rules == ENGLISH == rules_en["rules"] and catalog("en").line == line_en["line"]
    french, english = msgfmt.catalog("fr"), msgfmt.catalog("en")      # each read once: a .po parse is slow
    for context, words in (("value type", rules_en["types"]), ("error word", rules_en["words"] | line_en["words"])):
        for word in words.values():
            assert (context, word) in french and (context, word) in english
    for field in FIELDS:
        assert ("request field", field) in french and ("request field", field) in english


def test_errors_follow_the_language_spoken(english) -> None:
    """The tray's path (`QuickRollError.message`, `rule_message(exc)` with no language) speaks
    English once English is chosen, French again after; an explicit language still wins."""
    face = RequestError("actor_dice", "impossible_die_face", face=9, sides=7, **_TEDEUM)
    assert rule_message(face) == "dice (actor): impossible face 9: the characteristic die (D8 shifted by −1) " \
                                 "is a D7 (faces 1 to 7)"
    assert rule_message(face, "fr").startswith("dés (acteur) : face 9 impossible")
    error = QuickRollError("unknown_word", 0, 2, word="zz", name="Le capitaine")
    assert error.message == str(error) == "“zz”: neither a skill of Le capitaine nor a known word"
    assert QuickRollError("rule", 0, error=face).message == rule_message(face)
    assert line_message("ambiguous", {"text": "e", "what": "skills", "labels": ("A", "B"), "extra": 0}) == \
        "“e”: several skills match: A, B"
    spent = RequestError("impulsions", "impulsion_spent", spent=1, rerolls=0, bonus=False, available=0)
    assert rule_message(spent) == "impulsions: 1 Impulsion points spent (0 rerolls) but only 0 available"
    i18n.set_language("fr")
    assert error.message == "« zz » : ni compétence du capitaine, ni mot connu"
    assert rule_reason(spent) == "1 points d'Impulsion dépensés (0 relance), 0 seulement disponibles"


def test_french_names_contract_in_error_messages() -> None:
    """"ni compétence du capitaine", "d'Alexis": the name contracts with the word before it."""
    for name, said in (("Le capitaine", "du capitaine"), ("Alexis", "d'Alexis"), ("la reine", "de la reine"),
                       ("Bob", "de Bob")):
        assert f"ni compétence {said}," in QuickRollError("unknown_word", 0, word="x", name=name).message


def test_errors_survive_pickling_with_their_code() -> None:
    import pickle

    exc = pickle.loads(pickle.dumps(RequestError("dice", "in_test", index=2, cause=_CAUSE)))
    assert (exc.field, exc.code, exc.params["index"]) == ("dice", "in_test", 2)
    assert exc.reason == "test 2: expected exactly 5 dice (pool 3, situation +1, this test +1), got 1"


# ---------------------------------------------------------------- what the tray can produce


def test_every_request_field_the_tray_can_name_is_in_french() -> None:
    names = set()
    for system in SYSTEMS.values():
        for kind in system.kinds.values():
            names.update(f.name for f in kind.fields)
            names.update(kind.dice_fields)
    names |= {"system", "kind", "hidden"}
    bases = {n.removeprefix("actor_").removeprefix("opponent_") for n in names}
    assert not sorted(bases - set(FIELDS))
    assert field_words("opponent_providence_die") == "taille du dé de Providence (opposant)"
    assert field_words("actor_dice") == "dés (acteur)" and field_words("a_field_of_a_plugin") == "a_field_of_a_plugin"


def _mutations(seed: int, count: int):
    rng = random.Random(seed)
    requests = []
    for path in sorted(VECTORS.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        requests += [entry["request"] for entry in data.get("case", []) + data.get("invalid", [])]
    for _ in range(count):
        request = copy.deepcopy(rng.choice(requests))
        key = rng.choice(list(request))
        op = rng.randrange(6)
        if op == 0:
            del request[key]
        elif op == 1:
            request[key] = rng.choice([-5, 0, 3, 13, 1000, "x", True, [1]])
        elif op == 2 and isinstance(request[key], list):
            request[key] = request[key] + [rng.randint(0, 21)]
        elif op == 3 and isinstance(request[key], list):
            request[key] = request[key][:-1]
        elif op == 4:
            request[rng.choice(["dice", "actor_dice", "opponent_dice", "rolls", "helper_dice",
                                "providence_dice", "negative_dice", "opponent_chance_dice"])] = \
                [rng.randint(0, 12) for _ in range(rng.randint(0, 3))]
        else:
            request["unknown_key"] = 1
        yield request


def test_refusals_of_mutated_requests_are_all_said_in_french() -> None:
    """Bad requests of every system: each refusal has its code in the French table and the
    tray's message holds none of the English reason."""
    seen = set()
    for request in _mutations(seed=10, count=1500):
        for judge in (resolve, odds):
            try:
                judge(request)
            except RequestError as exc:
                seen.add(exc.code)
                assert exc.code in FR.rules, exc.code
                shown = rule_message(exc)
                assert exc.reason not in shown and "expected" not in shown, shown
    assert len(seen) >= 30


@pytest.mark.parametrize("text", ["0d6", "d1", "2d6+2000", "", "abc"])
def test_dice_expression_refusals_have_codes(text: str) -> None:
    from gmscreen.rules.expr import parse_expression

    with pytest.raises(RequestError) as caught:
        parse_expression(text)
    assert caught.value.field == "expression" and caught.value.code in FR.rules
    assert rule_reason(caught.value) != caught.value.reason


def test_one_add_messages_words_a_code_in_english_everywhere() -> None:
    """`gmscreen.play.add_messages("en", …)` is the one door: the rules' own `str()` of the
    error reads the English text too (it needed the rules' second add_messages)."""
    from gmscreen.play import add_messages as one_door
    from gmscreen.rules import errors

    one_door("en", rules={"tide_test_code": "the tide is out ({hour})"})
    try:
        assert str(RequestError("dice", "tide_test_code", hour=3)) == "dice: the tide is out (3)"
        assert errors.add_messages is errors.add_english
    finally:
        del ENGLISH["tide_test_code"], messages.catalog("en").own["rules"]["tide_test_code"]
        errors._added.pop("tide_test_code", None)
