"""Campaign validation: the bad corpus, the samples, hostile text and line numbers."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gmscreen.rules
from gmscreen.campaign import validate as v
from gmscreen.campaign.errors import CampaignError, Problem
from gmscreen.campaign.model import Campaign, to_data
from gmscreen.campaign.samples import list_samples, sample_path
from gmscreen.campaign.validate import (
    format_path,
    key_lines,
    line_of,
    new_campaign,
    parse_campaign,
    validate_file,
)

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")

BAD = Path(__file__).resolve().parent.parent / "data" / "bad_campaigns"
EXPECTED = tomllib.loads((BAD / "EXPECTED.toml").read_text(encoding="utf-8"))
SYSTEMS = gmscreen.rules.registry.SHIPPED      # the shipped games, whatever plugin is installed


# ---------------------------------------------------------------- files generated at test time

def _huge_string() -> bytes:
    return ('format = 1\nname = "Corpus"\nsystem = "mir"\nnotes = "' + "x" * 10_000_000 + '"\n').encode()


def _too_many_characters() -> bytes:
    head = 'format = 1\nname = "Corpus"\nsystem = "magisphere"\n\n'
    chars = "".join(f'[[characters]]\nid = "pirate-{i}"\nname = "Pirate {i}"\n\n' for i in range(10_001))
    return (head + chars).encode()


def _deep_dotted_header() -> bytes:
    head = ('format = 1\nname = "Corpus"\nsystem = "mir"\n'
            '\n[[timers]]\nid = "t"\nlabel = "T"\nkind = "countdown"\nrounds = 2\n')
    return (head + "[timers.request." + ".".join(["x"] * 5000) + "]\ny = 1\n").encode()


GENERATORS = {
    "huge_string.toml": _huge_string,
    "too_many_characters.toml": _too_many_characters,
    "deep_dotted_header.toml": _deep_dotted_header,
}


def _check_reported(problems: list[Problem], exp: dict, file: str) -> None:
    errors = [p for p in problems if not p.warning]
    assert errors, f"{file}: no error reported"
    want_line = exp["line"] or None
    match = [p for p in errors
             if exp["path"] in p.path and p.line == want_line and exp["message"] in p.message]
    if exp["path"] == "":
        match = [p for p in match if p.path == ""]
    assert match, f"{file}: expected {exp}, got:\n" + "\n".join(map(str, problems))
    assert len(errors) >= exp.get("count", 1)
    for p in problems:
        text = str(p)
        assert "\n" not in text and "\r" not in text
        assert text.startswith(file + ":")
        assert "Traceback" not in text


# ---------------------------------------------------------------- the bad corpus


def test_corpus_is_complete_and_listed():
    on_disk = {p.name for p in BAD.iterdir()} - {"EXPECTED.toml"}
    assert on_disk == set(EXPECTED["files"])
    assert set(EXPECTED["generated"]) == set(GENERATORS)
    assert len(on_disk) + len(GENERATORS) >= 30
    # Every kind of damage the issue lists is represented.
    for name in ("empty.toml", "truncated.toml", "invalid_utf8.toml", "newer_format.toml",
                 "deep_nesting.toml", "unknown_system.toml", "duplicate_character_id.toml",
                 "entry_missing_character.toml", "negative_round.toml", "unknown_top_key.toml",
                 "voie_out_of_range.toml", "bool_as_int.toml", "syntax_missing_equals.toml"):
        assert name in on_disk


@pytest.mark.parametrize("name", sorted(EXPECTED["files"]))
def test_bad_file_reports_key_and_line_and_is_untouched(name):
    path = BAD / name
    before = path.read_bytes()
    stat = path.stat()
    listing = sorted(os.listdir(BAD))
    problems = validate_file(path)
    _check_reported(problems, EXPECTED["files"][name], str(path))
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stat.st_mtime_ns
    assert sorted(os.listdir(BAD)) == listing


@pytest.mark.parametrize("name", sorted(EXPECTED["files"]))
def test_bad_file_raises_campaign_error_from_text(name):
    data = (BAD / name).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        assert name == "invalid_utf8.toml"
        return
    with pytest.raises(CampaignError) as info:
        parse_campaign(text, name)
    assert info.value.problems
    # The exception's text is the problems, one a line.
    assert str(info.value).splitlines() == [str(p) for p in info.value.problems]


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_generated_bad_file(name, tmp_path):
    path = tmp_path / name
    data = GENERATORS[name]()
    path.write_bytes(data)
    problems = validate_file(path)
    _check_reported(problems, EXPECTED["generated"][name], str(path))
    assert path.read_bytes() == data
    assert os.listdir(tmp_path) == [name]


def test_huge_string_is_not_echoed():
    with pytest.raises(CampaignError) as info:
        parse_campaign(_huge_string().decode(), "c.toml")
    assert len(str(info.value)) < 1000


def test_every_error_is_collected():
    problems = validate_file(BAD / "many_errors.toml")
    paths = {p.path for p in problems}
    assert {"session", "characters[0].sheet.voies.peur", "characters[1].id", "encounter.round",
            "encounter.entries[1].character"} <= paths
    lines = [p.line for p in problems]
    assert lines == sorted(lines)


def test_missing_file_and_directory_are_problems(tmp_path):
    (problem,) = validate_file(tmp_path / "absent.toml")
    assert "cannot read" in problem.message and problem.file.endswith("absent.toml")
    (problem,) = validate_file(tmp_path)
    assert "cannot read" in problem.message


def test_byte_offset_line_of_invalid_utf8(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b'format = 1\n\n\nname = "\xc3\x28"\n')
    (problem,) = validate_file(path)
    assert problem.line == 4 and "byte offset 21" in problem.message


# ---------------------------------------------------------------- samples


@pytest.mark.parametrize("system", SYSTEMS)
def test_sample_is_found_and_valid(system):
    path = sample_path(system)
    assert path.is_file() and path.name == f"{system}.toml" and path.parent.name == "sample_campaigns"
    assert validate_file(path) == []
    campaign, warnings = parse_campaign(path.read_text(encoding="utf-8"), str(path))
    assert warnings == []
    assert campaign.system == system and campaign.format == 1
    sides = {ch.side for ch in campaign.characters}
    assert sides == {"party", "npc"}
    enc = campaign.encounter
    assert enc.round >= 1 and enc.entries and any(e.acted for e in enc.entries)
    assert any(c.rounds is not None for ch in campaign.characters for c in ch.conditions)
    assert any(t.status == "running" for t in campaign.timers)
    assert campaign.initiative and campaign.notes


def test_list_samples():
    assert list(list_samples())[:len(SYSTEMS)] == list(SYSTEMS)    # a plugin's sample comes after
    with pytest.raises(ValueError):
        sample_path("dnd5e")


@pytest.mark.parametrize("system", SYSTEMS)
def test_sample_round_trips_through_the_model(system):
    text = sample_path(system).read_text(encoding="utf-8")
    campaign, _ = parse_campaign(text, "sample")
    again, warnings = parse_campaign(tomli_w.dumps(to_data(campaign)), "saved")
    assert again == campaign and warnings == []


def _load(system: str) -> Campaign:
    return parse_campaign(sample_path(system).read_text(encoding="utf-8"), system)[0]


def test_mir_sample_follows_the_seed():
    from gmscreen import rules

    c = _load("mir")
    sheets = {ch.id: ch.sheet for ch in c.characters}
    assert sheets["loriane"]["skills"]["eloquence"] == 3 and sheets["loriane"]["voies"]["espoir"] == 2
    alexis = sheets["alexis"]
    assert any(level + alexis["voies"][stat.parent] == 6
               for key, level in alexis["skills"].items()
               for stat in v.sheet_groups("mir")[1].stats if stat.key == key)
    assert sheets["callia"]["skills"]["infiltration"] >= 1 and sheets["garde"]["skills"]["instinct"] >= 1
    assert c.character("garde").side == "npc"
    for sheet in sheets.values():            # Trauma and Mensonge are derived, not typed
        assert "trauma" not in sheet and set(sheet["voies"]) == {s.key for s in v.sheet_groups("mir")[0].stats}
    (timer,) = [t for t in c.timers if t.kind == "extended"]
    assert timer.label == "Guérison (Héritage) (1 jour, 3 max.) 8 succès"
    assert timer.request["threshold"] == 8 and timer.request["max_tests"] == 3 and timer.request["interval"] == "jour"
    result = rules.resolve({**timer.request, **timer.dice})
    assert result["outcome"] == "pending" and 1 <= result["tests"] < 3


def test_magisphere_sample_follows_the_seed():
    from gmscreen import rules

    c = _load("magisphere")
    granok, bob, shady = c.character("granok"), c.character("gros-bob"), c.character("shady")
    assert granok.sheet["stats"]["Puissance"] == 10
    assert bob.sheet["stats"]["Puissance"] == 9 and bob.sheet["skills"]["Puissance"]["Force"] == 4
    assert "Négociation" in shady.sheet["skills"]["PRE"]
    assert shady.sheet["resources"]["impulsion"] <= shady.sheet["resources"]["impulsion_max"]
    (timer,) = [t for t in c.timers if t.kind == "opposition"]
    assert timer.request["kind"] == "extended_opposed"
    assert rules.resolve({**timer.request, **timer.dice})["winner"] == "pending"


def test_tedeum_sample_follows_the_seed():
    c = _load("tedeum")
    lv = c.character("louvensac").sheet
    assert lv["characteristics"]["entregent"] == 12 and lv["characteristics"]["sensibilite"] == 10
    assert lv["skills"]["entregent"] == {"Charme": 5, "Comédie": 3, "Pose": 4, "Étiquette": 4}
    assert lv["skills"]["sensibilite"]["Perception"] == 4
    assert lv["negative_dice"]["entregent"] == 6 and lv["resources"]["providence"] == 6
    gh = c.character("gentilhomme").sheet
    assert gh["characteristics"]["sensibilite"] == 8 and gh["skills"]["sensibilite"]["Perspicacité"] == 2
    assert c.character("saint-gelais").side == "npc"
    assert any(t.kind == "countdown" for t in c.timers)


def test_arpeges_sample_follows_the_seed():
    c = _load("arpeges")
    t = c.character("thibault").sheet
    assert (t["caracteristiques"]["intuition"], t["moyens"]["manoeuvre"], t["skills"]["Baratin"]) == (2, 3, -1)
    m = c.character("gorlois").sheet
    assert m["caracteristiques"]["intuition"] + m["moyens"]["precision"] + m["skills"]["Baratin"] == 5
    assert any(len(d.actions) >= 2 for d in c.encounter.declared)
    assert any(t.kind == "countdown" for t in c.timers)


def test_eclats_sample_has_initiates_and_a_hantise():
    c = _load("eclats")
    assert sum(ch.side == "party" for ch in c.characters) >= 2
    assert any("Hantise" in ch.name for ch in c.characters if ch.side == "npc")
    assert c.rules == {"level3_second_zero": "automatic_failure", "single_zero": "counts_zero"}


# ---------------------------------------------------------------- hostile but valid text

HOSTILE = {
    "slash": "[/]",
    "click": "[@click=app.quit]",
    "orc": "Orc [A]",
    "ansi": "\x1b[31mRouge\x1b[0m",
    "bidi": "Élise \u202egnirts\u202c",
    "c1": "Nom\x85suite",
    "del": "Suppr\x7f",
}


def _hostile_text() -> str:
    chars = []
    for cid, name in HOSTILE.items():
        chars.append({"id": cid, "name": name, "side": "npc", "notes": name,
                      "sheet": {"stats": {name: 10}}})
    data = {"format": 1, "name": "[bold]Campagne[/bold]", "system": "magisphere", "characters": chars,
            "encounter": {"round": 1, "entries": [{"id": "e1", "name": HOSTILE["ansi"], "character": "ansi"}]}}
    return tomli_w.dumps(data)


def test_hostile_names_load_verbatim_with_warnings():
    campaign, warnings = parse_campaign(_hostile_text(), "hostile.toml")
    assert campaign.name == "[bold]Campagne[/bold]"
    assert {ch.id: ch.name for ch in campaign.characters} == HOSTILE
    assert campaign.encounter.entries[0].name == HOSTILE["ansi"]
    assert all(p.warning for p in warnings)
    warned = {p.path for p in warnings}
    for i, cid in enumerate(HOSTILE):
        flagged = f"characters[{i}].name" in warned
        assert flagged == (cid in ("ansi", "bidi", "c1", "del")), cid
    assert "encounter.entries[0].name" in warned
    codes = " ".join(p.message for p in warnings)
    assert "U+001B" in codes and "U+202E" in codes and "U+0085" in codes and "U+007F" in codes
    for p in warnings:
        assert p.line is not None and "\n" not in str(p) and "\x1b" not in str(p)


def test_control_characters_in_keys_are_escaped_in_the_path():
    text = ('format = 1\nname = "C"\nsystem = "eclats"\n[[characters]]\nid = "a"\nname = "A"\n'
            '[characters.sheet.characteristics]\neve = 1\nagi = 1\nfor = 1\nend = 1\nbea = 1\n'
            'per = 1\nint = 1\nemp = 1\nrus = 1\ncha = 1\n[characters.sheet.skills]\n'
            '"Voler\\nla bourse\\u001b" = 2\n')
    campaign, warnings = parse_campaign(text, "k.toml")
    assert "Voler\nla bourse\x1b" in campaign.characters[0].sheet["skills"]
    (w,) = warnings
    assert w.path == 'characters[0].sheet.skills."Voler\\nla bourse\\u001b"' and w.line == 19
    assert "\n" not in str(w)


def test_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + sample_path("arpeges").read_bytes())
    assert validate_file(path) == []


# ---------------------------------------------------------------- line numbers

LINES_TEXT = '''# campaign
format = 1
name = "x"
notes = """
fake = 1
[[characters]]
"""
system = 'mir'   # [[characters]] in a comment

[[characters]]
id = "a"
[characters.sheet.voies]
heritage = 1

[[characters]]
id = "b"
sheet.voies.peur = 2
"quoted \\" key" = 3
[[characters.conditions]]
name = "c0"
[[characters.conditions]]
name = "c1"

[[characters]]
id = "c"
[[characters.conditions]]
name = "first of c"

[encounter]
entries = [
  { id = "e0", name = "E0" },
  { id = "e1",
    name = "E1" },
]
[[timers]]
id = "t"
[timers.dice]
rolls = [[7, 12],
         [8, 2]]
'''


def test_key_lines_map():
    lines = key_lines(LINES_TEXT)
    expect = {
        ("format",): 2, ("notes",): 4, ("system",): 8,
        ("characters",): 10, ("characters", 0): 10, ("characters", 0, "id"): 11,
        ("characters", 0, "sheet", "voies"): 12, ("characters", 0, "sheet", "voies", "heritage"): 13,
        ("characters", 1): 15, ("characters", 1, "id"): 16,
        ("characters", 1, "sheet", "voies", "peur"): 17, ("characters", 1, 'quoted " key'): 18,
        ("characters", 1, "conditions", 0): 19, ("characters", 1, "conditions", 1, "name"): 22,
        ("characters", 2): 24, ("characters", 2, "conditions", 0, "name"): 27,
        ("encounter",): 29, ("encounter", "entries"): 30, ("encounter", "entries", 0, "id"): 31,
        ("encounter", "entries", 1): 32, ("encounter", "entries", 1, "name"): 33,
        ("timers", 0, "id"): 36, ("timers", 0, "dice", "rolls"): 38,
        ("timers", 0, "dice", "rolls", 0): 38, ("timers", 0, "dice", "rolls", 1): 39,
    }
    for path, line in expect.items():
        assert lines.get(path) == line, (path, lines.get(path), line)
    assert ("fake",) not in lines and ("characters", 3) not in lines
    assert line_of(lines, ("characters", 1, "sheet", "voies", "dogme")) == 17
    assert line_of(lines, ("characters", 2, "sheet")) == 24
    assert line_of(lines, ("missing",)) is None


def test_problem_lines_point_at_the_value():
    text = sample_path("mir").read_text(encoding="utf-8")
    bad = text.replace("infiltration = 3", "infiltration = 9")
    target = bad.splitlines().index("infiltration = 9") + 1
    with pytest.raises(CampaignError) as info:
        parse_campaign(bad, "m.toml")
    (p,) = info.value.problems
    assert (p.path, p.line) == ("characters[2].sheet.skills.infiltration", target)
    # A key missing from a table points at the table's header.
    bad = text.replace("dogme = 4\n", "")
    header = [i for i, l in enumerate(bad.splitlines(), 1) if l == "[characters.sheet.voies]"][4]
    with pytest.raises(CampaignError) as info:
        parse_campaign(bad, "m.toml")
    (p,) = info.value.problems
    assert (p.path, p.line) == ("characters[4].sheet.voies.dogme", header)


def test_crlf_files_keep_their_line_numbers():
    text = sample_path("tedeum").read_text(encoding="utf-8").replace("entregent = 12", "entregent = 13")
    target = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("entregent = 13"))
    with pytest.raises(CampaignError) as info:
        parse_campaign(text.replace("\n", "\r\n"), "crlf.toml")
    (p,) = info.value.problems
    assert (p.path, p.line) == ("characters[0].sheet.characteristics.entregent", target)


def test_validation_does_not_import_textual():
    code = ("import sys; from gmscreen.campaign.validate import validate_file; "
            "from gmscreen.campaign.samples import sample_path; validate_file(sample_path('mir')); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True)
    assert out.stdout.strip() == "[]"


def test_format_path_quotes_what_is_not_bare():
    assert format_path(("characters", 2, "sheet", "skills", "PRE", "Négociation")) == \
        'characters[2].sheet.skills.PRE."Négociation"'
    assert format_path(("a", "b c", 0, 1)) == 'a."b c"[0][1]'
    assert format_path(()) == ""


# ---------------------------------------------------------------- rules of the schema


def _mir(**extra) -> dict:
    data = tomllib.loads(sample_path("mir").read_text(encoding="utf-8"))
    data.update(extra)
    return data


def _errors(data: dict) -> list[Problem]:
    try:
        _, warnings = parse_campaign(tomli_w.dumps(data), "d.toml")
    except CampaignError as exc:
        return [p for p in exc.problems if not p.warning]
    return []


def test_older_or_current_format_is_accepted_newer_refused():
    assert _errors(_mir(format=1)) == []
    (p,) = _errors(_mir(format=7))
    assert p.message == "written by a newer gmscreen (format 7); this version reads format 1"


def test_turn_must_be_zero_without_entries():
    data = _mir()
    data["encounter"] = {"round": 0, "turn": 1}
    (p,) = _errors(data)
    assert p.path == "encounter.turn"
    data["encounter"] = {"round": 0, "turn": 0}
    assert _errors(data) == []


def test_timer_status_must_follow_its_dice():
    data = _mir()
    timer = data["timers"][0]
    timer["dice"] = {"rolls": [[12, 12, 12, 12, 9]]}
    timer["status"] = "success"
    assert _errors(data) == []
    timer["dice"] = {"rolls": [[1, 2, 3, 4, 5]]}
    (p,) = _errors(data)
    assert p.path == "timers[0].status" and "(failure)" in p.message
    timer["dice"] = {}
    timer["status"] = "running"
    assert _errors(data) == []


def test_timer_dice_must_not_sit_in_the_request():
    data = _mir()
    data["timers"][0]["request"]["rolls"] = [[7]]
    assert [p.path for p in _errors(data)] == ["timers[0].request.rolls"]


def test_countdown_needs_rounds_and_no_test():
    data = _mir()
    data["timers"][1] = {"id": "c", "label": "C", "kind": "countdown", "request": {"system": "mir"}, "dice": {}}
    assert {p.path for p in _errors(data)} == {"timers[1].request", "timers[1].rounds"}


def test_missing_rules_module_is_a_problem_not_a_crash(monkeypatch):
    from gmscreen import rules

    def unavailable(system_id):
        raise AttributeError(f"module 'gmscreen.rules.{system_id}' has no attribute 'SYSTEM'")

    monkeypatch.setattr(rules, "get_system", unavailable)
    (p,) = _errors(_mir())
    assert p.path == "timers[0].request" and "rules of mir are not available" in p.message


def test_initiative_unchecked_only_without_the_parser(monkeypatch):
    data = _mir(initiative="2d")
    (p,) = _errors(data)
    assert p.path == "initiative"
    monkeypatch.setitem(sys.modules, "gmscreen.rules.expr", None)
    assert _errors(data) == []


def test_rules_options_follow_the_system():
    data = tomllib.loads(sample_path("tedeum").read_text(encoding="utf-8"))
    data["rules"] = {"open_negative_die": "oui"}
    (p,) = _errors(data)
    assert p.path == "rules.open_negative_die" and "true or false" in p.message
    data["rules"] = {"open_negative_die": True}
    assert _errors(data) == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_rule_options_match_the_rules_fields(system):
    from gmscreen.rules import get_system

    kinds = get_system(system).kinds.values()
    for option, values in get_system(system).rule_options.items():
        specs = [f for kind in kinds for f in kind.fields if f.name == option]
        assert specs, option
        for spec in specs:
            assert spec.default == values[0]
            if not isinstance(values[0], bool):
                assert set(spec.choices) == set(values)


def test_free_groups_take_any_short_name_in_range():
    data = tomllib.loads(sample_path("eclats").read_text(encoding="utf-8"))
    skills = data["characters"][0]["sheet"]["skills"]
    skills["Amadouer une Hantise"] = 5
    assert _errors(data) == []
    skills[" "] = 2
    skills["Courir"] = 0
    assert {p.path for p in _errors(data)} == {'characters[0].sheet.skills." "', "characters[0].sheet.skills.Courir"}


def test_required_groups_and_stats():
    data = tomllib.loads(sample_path("tedeum").read_text(encoding="utf-8"))
    del data["characters"][0]["sheet"]["negative_dice"]
    del data["characters"][1]["sheet"]["characteristics"]["savoir"]
    assert {p.path for p in _errors(data)} == {"characters[0].sheet.negative_dice",
                                              "characters[1].sheet.characteristics.savoir"}


def test_limits_are_errors_not_crashes():
    data = _mir(notes="x" * (v.MAX_STRING + 1))
    (p,) = _errors(data)
    assert p.path == "notes" and "too long" in p.message
    data = _mir()
    data["characters"][0]["sheet"]["skills"] = {f"s{i}": 1 for i in range(v.MAX_ITEMS + 1)}
    (p,) = _errors(data)
    assert p.path == "characters[0].sheet.skills" and "too many entries" in p.message


_leaves = st.one_of(st.integers(), st.booleans(), st.text(alphabet=st.sampled_from("ab\n\t\x1b\u202e\x7f é"), max_size=6))
_trees = st.recursive(_leaves, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.text("ab\x1bé", max_size=3), inner, max_size=3)),
                      max_leaves=30)


@given(st.dictionaries(st.text("abc\x07", max_size=3), _trees, max_size=4), st.integers(0, 3))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_the_quick_limits_pass_says_no_whenever_the_full_walk_finds_something(data, tighter):
    """`_within_limits` (the fast pass, no paths) is true exactly when the checker's own walk
    reports nothing, limits made small enough for the examples to reach them."""
    saved = (v.MAX_DEPTH, v.MAX_ITEMS, v.MAX_STRING)
    v.MAX_DEPTH, v.MAX_ITEMS, v.MAX_STRING = 2 + tighter, 1 + tighter, 2 + tighter
    try:
        checker = v._Checker("", "x.toml")
        checker._limits(data)
        assert v._within_limits(data) == (checker.found == [])
    finally:
        v.MAX_DEPTH, v.MAX_ITEMS, v.MAX_STRING = saved


# ---------------------------------------------------------------- new campaigns


@pytest.mark.parametrize("system", SYSTEMS)
def test_new_campaign_is_valid_and_round_trips(system):
    campaign = new_campaign("Nouvelle", system)
    assert campaign.characters == [] and campaign.encounter.round == 0 and campaign.timers == []
    assert campaign.initiative == {"mir": "1d12", "magisphere": "1d20"}.get(system, "1d10")
    loaded, warnings = parse_campaign(tomli_w.dumps(to_data(campaign)), "new.toml")
    assert loaded == campaign and warnings == []


def test_new_campaign_spells_out_rule_options():
    assert new_campaign("X", "magisphere").rules == {"reroll_limit": "unlimited"}
    assert new_campaign("X", "tedeum").rules == {"open_negative_die": False}
    assert new_campaign("X", "mir").rules == {}
    with pytest.raises(CampaignError) as info:
        new_campaign("X", "dnd5e")
    assert info.value.problems[0].path == "system"


# ---------------------------------------------------------------- never a traceback

_SAMPLE_BYTES = [sample_path(s).read_bytes() for s in SYSTEMS]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, len(SYSTEMS) - 1), cut=st.floats(0, 1),
       flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=4))
def test_damaged_samples_never_crash(tmp_path, which, cut, flips):
    data = bytearray(_SAMPLE_BYTES[which])
    for where, byte in flips:
        data[int(where * (len(data) - 1))] = byte
    data = bytes(data[: int(cut * len(data))])
    path = tmp_path / "damaged.toml"
    path.write_bytes(data)
    problems = validate_file(path)
    assert all(isinstance(p, Problem) and "\n" not in str(p) for p in problems)
    assert not any("internal error" in p.message for p in problems)
    assert path.read_bytes() == data



# ---------------------------------------------------------------- the key lists are the model's

def _records_below(root: type) -> set[type]:
    """Every record type a campaign file holds: `root` and those its fields name, at any depth."""
    import dataclasses
    import typing

    found: set[type] = set()
    todo: list = [root]
    while todo:
        tp = todo.pop()
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            if tp not in found:
                found.add(tp)
                todo.extend(typing.get_type_hints(tp).values())
        else:
            todo.extend(typing.get_args(tp))
    return found


def test_every_record_of_the_file_has_its_key_list_read_from_its_fields():
    """validate.py keeps no hand copy of a field list: each table's keys are its record's fields,
    so a field added to the model is accepted in the file (and a record added below the campaign
    fails here until validate checks its table)."""
    import dataclasses

    lists = {name: getattr(v, name) for name in dir(v) if name.endswith("_KEYS") and name != "ROUND_STATS_KEYS"}
    by_fields = {frozenset(keys): name for name, keys in lists.items()}
    records = _records_below(Campaign)
    assert len(records) == len(lists) == 11
    for cls in records:
        fields = [f.name for f in dataclasses.fields(cls)]
        assert frozenset(fields) in by_fields, f"{cls.__name__}: no key list in validate.py"
        keys = lists[by_fields[frozenset(fields)]]
        assert sorted(keys) == sorted(fields) and len(set(keys)) == len(keys)
    assert v.TOP_KEYS[0] == "format"            # as the file is written
    assert v.TIMER_KEYS == tuple(f.name for f in dataclasses.fields(v.Timer))


def test_a_field_added_to_a_record_is_a_key_at_once():
    import dataclasses

    from gmscreen.campaign.model import Condition
    from gmscreen.rules.records import record

    @record
    class Grown(Condition):
        source: str = ""

    assert v.field_names(Grown) == v.CONDITION_KEYS + ("source",)
    assert dataclasses.fields(Grown)[-1].name == "source"
