"""The `gmscreen` command: subcommands, output, and one-line errors with exit status 2.

Most tests call `main([...])` in-process (fast); a few run the real command in a subprocess
to check what only a fresh interpreter shows (exit codes, stdin, start-up imports).
"""

from __future__ import annotations

import gc
import io
import json
import os
import re
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest
import tomli_w

from gmscreen import cli
from gmscreen.i18n import _
from gmscreen.campaign.errors import CampaignError, Problem
from gmscreen.rules import SYSTEMS, odds, registry, resolve

from _cli_helpers import assert_one_line_error, cli_english, cli_french, run  # noqa: F401 (fixtures)

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO / "tests" / "data" / "vectors"
SYSTEM_IDS = registry.SHIPPED      # the shipped games, whatever plugin is installed beside them


def vector_file(system_id: str) -> dict:
    with open(VECTORS / f"{system_id}.toml", "rb") as handle:
        return tomllib.load(handle)


def sample_cases() -> list:
    """Every third case of every system: enough to show the CLI passes requests through intact."""
    params = []
    for system_id in SYSTEM_IDS:
        for case in vector_file(system_id)["case"][::3]:
            params.append(pytest.param(case, id=f"{system_id}: {case['name']}"))
    return params


def sample_invalid() -> list:
    params = []
    for system_id in SYSTEM_IDS:
        for case in vector_file(system_id).get("invalid", [])[::4]:
            params.append(pytest.param(case, id=f"{system_id}: {case['name']}"))
    return params


def check_expect(result: dict, case: dict) -> None:
    for key, value in case["expect"].items():
        assert result[key] == value, key
    for key in case.get("null_fields", []):
        assert key in result and result[key] is None, key


# ---------------------------------------------------------------- resolve


@pytest.mark.parametrize("case", sample_cases())
def test_resolve_vector_case_from_toml_file(case, tmp_path, capsys):
    path = tmp_path / "request.toml"
    path.write_text(tomli_w.dumps(case["request"]), encoding="utf-8")
    status, out, err = run(capsys, "resolve", str(path))
    assert (status, err) == (0, "")
    assert out.count("\n") == 1                      # one JSON object, one line
    result = json.loads(out)
    check_expect(result, case)
    assert result == resolve(case["request"])


@pytest.mark.parametrize("case", sample_cases())
def test_resolve_vector_case_from_stdin(case, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(case["request"])))
    status, out, err = run(capsys, "resolve", "-")
    assert (status, err) == (0, "")
    check_expect(json.loads(out), case)


@pytest.mark.parametrize("case", sample_invalid())
def test_resolve_invalid_vector_names_file_and_field(case, tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps(case["request"]), encoding="utf-8")
    status, out, err = run(capsys, "resolve", str(path))
    assert_one_line_error(status, out, err, "gmscreen resolve", str(path), f"{case['field']}:")


def test_resolve_error_gives_the_line_of_the_key(tmp_path, capsys):
    path = tmp_path / "c.toml"
    path.write_text('system = "mir"\nkind = "simple"\npool = 6.0\ndifficulty = 2\n', encoding="utf-8")
    status, out, err = run(capsys, "resolve", str(path))
    assert_one_line_error(status, out, err, f"{path}:3: pool: expected an integer", "float")


def test_resolve_random_roll_is_reproducible_with_seed(tmp_path, capsys):
    path = tmp_path / "r.toml"
    path.write_text('system = "tedeum"\nkind = "simple"\ndie = 6\nnegative_die = 6\ndifficulty = 7\n')
    first = run(capsys, "resolve", str(path), "--seed", "42")[1]
    assert first == run(capsys, "resolve", str(path), "--seed", "42")[1]
    assert json.loads(first) == resolve(tomllib.loads(path.read_text()), seed=42)


@pytest.mark.parametrize("text, words", [
    ('system = "mir"\nkind = \n', ["invalid TOML", "line 2"]),
    ('system = "mir"\nkind = "nope"\n', ["kind:", "expected one of simple"]),
    ('system = "dnd"\n', ["system:", "expected one of mir"]),
    ('kind = "simple"\n', ["system:", "required"]),
])
def test_resolve_bad_files(text, words, tmp_path, capsys):
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    assert_one_line_error(*run(capsys, "resolve", str(path)), str(path), *words)


def test_resolve_missing_directory_and_binary_files(tmp_path, capsys):
    assert_one_line_error(*run(capsys, "resolve", str(tmp_path / "none.toml")), "none.toml", "no such file")
    assert_one_line_error(*run(capsys, "resolve", str(tmp_path)), "is a directory")
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    assert_one_line_error(*run(capsys, "resolve", str(binary)), "not UTF-8")


@pytest.mark.parametrize("text, words", [
    ("{bad", ["<stdin>", "invalid JSON", "line 1"]),
    ("[1, 2]", ["<stdin>", "expected a JSON object", "a list"]),
    ('{"system": "mir", "kind": "simple", "pool": "6", "difficulty": 2}', ["<stdin>", "pool:", "a string"]),
    ('{"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2, "colour": 1}', ["colour:", "unknown"]),
])
def test_resolve_bad_json_on_stdin(text, words, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert_one_line_error(*run(capsys, "resolve", "-"), *words)


# ---------------------------------------------------------------- roll


ALEXIS = ("roll", "mir", "--pool", "6", "--difficulty", "2", "--dice", "1,5,4,6,11,12")


@pytest.mark.usefixtures("cli_french")
def test_roll_shows_the_alexis_example(capsys):
    status, out, err = run(capsys, *ALEXIS)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "MIR · test simple"
    assert "1  5  4  6  [11 succès]  [12 succès critique = 2]" in lines[1]
    assert "= 3 succès" in lines[1]
    assert lines[-1].strip() == "3 succès pour SD 2 (Facile) · marge +1 → réussite"


def test_roll_json_is_the_resolve_outcome(capsys):
    status, out, _ = run(capsys, *ALEXIS, "--json")
    assert status == 0
    assert json.loads(out) == resolve({"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2,
                                       "dice": [1, 5, 4, 6, 11, 12]})


@pytest.mark.usefixtures("cli_french")
def test_roll_tedeum_shows_explosions_providence_and_the_difficulty_name(capsys):
    status, out, _ = run(capsys, "roll", "tedeum", "--die", "12", "--die-shift", "-1", "--skill", "3",
                         "--negative-die", "6", "--providence-die", "6", "--use-providence",
                         "--difficulty", "13", "--dice", "10,4", "--providence-dice", "2")
    assert status == 0
    assert "[10 explose]  [4 compté]  = 14" in out
    assert "Providence D6 : [2 compté]" in out
    assert "14 + 2 (Providence) + 3 = 19 pour seuil 13 (Périlleux) · marge +6" in out
    assert out.rstrip().endswith("→ réussite")


@pytest.mark.usefixtures("cli_french")
def test_roll_tedeum_attack_and_fumble(capsys):
    status, out, _ = run(capsys, "roll", "tedeum", "--kind", "attack", "--actor-die", "10", "--actor-skill", "5",
                         "--actor-negative-die", "8", "--actor-dice", "1", "--actor-negative-dice", "3",
                         "--opponent-die", "6", "--opponent-negative-die", "6", "--opponent-dice", "3")
    assert status == 0
    assert "attaque D10 : [1 fatal]" in out
    assert out.rstrip().endswith("raté (échec automatique)")
    status, out, _ = run(capsys, "roll", "tedeum", "--kind", "attack", "--defender-reacts", "false",
                         "--actor-die", "8", "--actor-skill", "1", "--actor-negative-die", "6", "--actor-dice", "6",
                         "--json")
    result = json.loads(out)
    assert (result["hit"], result["opponent_total"], result["defender_reacts"]) == (True, None, False)


def test_roll_random_is_reproducible_and_replayable(capsys):
    args = ("roll", "tedeum", "--die", "6", "--negative-die", "6", "--difficulty", "7", "--seed", "5", "--json")
    first = json.loads(run(capsys, *args)[1])
    assert first == json.loads(run(capsys, *args)[1])
    replay = ["roll", "tedeum", "--die", "6", "--negative-die", "6", "--difficulty", "7", "--json",
              "--dice", ",".join(map(str, first["dice"]))]
    if first["negative_dice"]:
        replay += ["--negative-dice", ",".join(map(str, first["negative_dice"]))]
    assert json.loads(run(capsys, *replay)[1]) == first


def test_roll_list_of_lists_and_bool_flags(capsys):
    status, out, _ = run(capsys, "roll", "mir", "--kind", "extended", "--pool", "2", "--threshold", "3",
                         "--rolls", "7,8;12,1", "--hidden", "--json")
    result = json.loads(out)
    assert status == 0 and result["rolls"] == [[7, 8], [12, 1]] and result["hidden"] is True
    assert result["outcome"] == "success" and result["test_successes"] == [2, 2]
    for flag, expected in (("--no-hidden", False), ("--hidden=false", False), ("--hidden=oui", True)):
        status, out, _ = run(capsys, *ALEXIS, flag, "--json")
        assert json.loads(out)["hidden"] is expected
    status, out, _ = run(capsys, "roll", "mir", "--kind", "group", "--pool", "3", "--skill", "2",
                         "--difficulty", "2", "--helper-pools", "1,1", "--helper-dice", "7;12", "--dice", "1,2,3,4,12",
                         "--json")
    result = json.loads(out)
    assert status == 0 and result["helper_dice"] == [[7], [12]] and result["help_dice"] == 2


@pytest.mark.usefixtures("cli_french")
def test_roll_hidden_is_marked_in_human_output(capsys):
    assert "difficulté cachée" in run(capsys, *ALEXIS, "--hidden")[1].splitlines()[0]


def test_roll_default_kind_is_the_first_of_the_system(capsys):
    status, out, _ = run(capsys, "roll", "tedeum", "--die", "8", "--negative-die", "6", "--difficulty", "7",
                         "--dice", "5", "--json")
    assert json.loads(out)["kind"] == "simple"


@pytest.mark.parametrize("args, words", [
    (("roll", "mir", "--pool", "13", "--difficulty", "2"), ["--pool:", "0 to 12", "13"]),
    (("roll", "mir", "--pool", "six", "--difficulty", "2"), ["--pool:", "expected an integer", "'six'"]),
    (("roll", "mir", "--pool", "6"), ["--difficulty:", "required"]),
    (("roll", "mir", "--pool", "6", "--difficulty", "2", "--dice", "1,2"), ["--dice:"]),
    (("roll", "mir", "--pool", "6", "--difficulty", "2", "--dice", "1,x"), ["--dice:", "'x'"]),
    (("roll", "mir", "--kind", "nope"), ["--kind:", "simple, group"]),
    (("roll", "dnd"), ["SYSTEM", "mir, eclats"]),
    (("roll",), ["SYSTEM", "required"]),
    (("roll", "mir", "--colour", "red"), ["unrecognized arguments: --colour"]),
    (("roll", "mir", "--pool"), ["--pool", "expected one argument"]),
    (("roll", "tedeum", "--die", "6", "--negative-die", "6", "--difficulty", "7", "--dice", "6"),
     ["--dice:", "too few dice"]),
    (("roll", "tedeum", "--die", "6", "--negative-die", "6", "--difficulty", "7", "--use-providence", "maybe"),
     ["--use-providence:", "true or false"]),
    (("roll", "tedeum", "--kind", "attack", "--defender-reacts", "false", "--actor-die", "8",
      "--actor-negative-die", "6", "--opponent-skill", "2"), ["--opponent-skill:", "not allowed"]),
    (("roll", "mir", "--pool", "6", "--difficulty", "2", "--seed", "x"), ["--seed", "integer"]),
    (("roll", *ALEXIS[1:], "--who", "Alexis"), ["--who:", "--campaign"]),
    (("roll", *ALEXIS[1:], "--campaign", "c.toml"), ["--who:", "required"]),
])
def test_roll_errors_are_one_line(args, words, capsys):
    assert_one_line_error(*run(capsys, *args), *words)


class FakeCommands(types.ModuleType):
    """Stands in for gmscreen.campaign.commands: records calls, can fail like the real one."""

    def __init__(self, fail: Exception | None = None) -> None:
        super().__init__("gmscreen.campaign.commands")
        self.calls: list[tuple] = []
        self.fail = fail

    def append_roll(self, path, *, who, line, request, result, seed, gm_only=False):
        self.calls.append(("append_roll", path, who, line, request, result, seed, gm_only))
        if self.fail:
            raise self.fail

    def cmd_validate(self, path, checks=None):
        self.calls.append(("validate", path))
        if self.fail:
            raise self.fail
        return 0

    def cmd_export(self, path, out=None, session=None):
        self.calls.append(("export", path, out) if session is None else ("export", path, out, session))
        return 0

    def cmd_new(self, path, system, template=None):
        self.calls.append(("new", path, system))
        return 0


@pytest.fixture
def fake_commands(monkeypatch):
    def install(fail: Exception | None = None) -> FakeCommands:
        fake = FakeCommands(fail)
        monkeypatch.setitem(sys.modules, "gmscreen.campaign.commands", fake)
        import gmscreen.campaign as package

        monkeypatch.setattr(package, "commands", fake, raising=False)
        return fake

    return install


@pytest.fixture
def mir_campaign(tmp_path, capsys) -> str:
    path = str(tmp_path / "c.toml")
    assert cli.main(["new", path, "--system", "mir"]) == 0
    capsys.readouterr()
    return path


@pytest.mark.usefixtures("cli_french")
def test_roll_records_in_a_campaign(mir_campaign, fake_commands, capsys):
    fake = fake_commands()
    status, out, _ = run(capsys, *ALEXIS, "--campaign", mir_campaign, "--who", "Alexis")
    assert status == 0 and "→ réussite" in out
    (name, path, who, line, request, result, seed, gm_only), = fake.calls
    assert (name, path, who, seed, gm_only) == ("append_roll", mir_campaign, "Alexis", None, False)
    assert line == "gmscreen roll mir --pool 6 --difficulty 2 --dice 1,5,4,6,11,12"
    assert request["dice"] == [1, 5, 4, 6, 11, 12] and result["successes"] == 3
    # A random roll is logged with the seed that replays it; a hidden one is GM-only.
    run(capsys, "roll", "mir", "--pool", "3", "--difficulty", "1", "--hidden", f"--campaign={mir_campaign}",
        "--who", "A")
    _, _, _, line, request, result, seed, gm_only = fake.calls[-1]
    assert isinstance(seed, int) and resolve(request, seed=seed) == result
    assert gm_only is True and line == "gmscreen roll mir --pool 3 --difficulty 1 --hidden"


def test_roll_campaign_error_is_one_line(mir_campaign, fake_commands, capsys):
    problems = [Problem("c.toml", "name", "required: a string", 1), Problem("c.toml", "system", "unknown", 2)]
    fake_commands(CampaignError(problems))
    assert_one_line_error(*run(capsys, *ALEXIS, "--campaign", mir_campaign, "--who", "A"),
                          "c.toml:1: name: required", "1 more problem")


@pytest.mark.usefixtures("cli_french")
def test_roll_campaign_really_logged(mir_campaign, tmp_path, capsys):
    assert run(capsys, *ALEXIS, "--campaign", mir_campaign, "--who", "Alexis")[0] == 0
    assert run(capsys, "validate", mir_campaign)[0] == 0
    status, out, _ = run(capsys, "export", mir_campaign)
    assert status == 0 and "Alexis" in out and "3 succès" in out
    # Nothing is rolled or written for a campaign of another system, or a missing one.
    log = Path(mir_campaign).with_suffix(".rolls.toml")
    before = log.read_text(encoding="utf-8")
    assert_one_line_error(*run(capsys, "roll", "tedeum", "--die", "8", "--negative-die", "6", "--difficulty", "7",
                               "--campaign", mir_campaign, "--who", "B"), "--campaign", "mir", "tedeum")
    assert_one_line_error(*run(capsys, *ALEXIS, "--campaign", str(tmp_path / "none.toml"), "--who", "B"),
                          "--campaign", "none.toml")
    assert log.read_text(encoding="utf-8") == before


# ---------------------------------------------------------------- odds


@pytest.mark.usefixtures("cli_french")
def test_odds_human_output_is_sorted_best_first(capsys):
    status, out, _ = run(capsys, "odds", "tedeum", "--die", "12", "--skill", "5", "--negative-die", "6",
                         "--difficulty", "13")
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "Te Deum pour un massacre · test de compétence · chances exactes · seuil 13 (Périlleux)"
    labels = [line.split("  ")[1].strip() for line in lines[1:6]]
    assert labels == ["réussite critique", "réussite", "échec", "échec automatique", "échec critique"]
    # Exact odds to two decimals, French style: decimal comma, narrow no-break space before "%".
    assert lines[2].endswith("38,89\u202f%") and lines[3].endswith("50\u202f%")
    assert "chance de réussite : 41,67\u202f%" in out and "en supposant : la Providence non invoquée" in out


@pytest.mark.usefixtures("cli_french")
def test_odds_contest_and_json(capsys):
    args = ("odds", "tedeum", "--kind", "opposed", "--actor-die", "12", "--actor-skill", "3",
            "--actor-negative-die", "6", "--opponent-die", "8", "--opponent-skill", "2",
            "--opponent-negative-die", "6")
    lines = run(capsys, *args)[1].splitlines()
    assert [line.split("  ")[1].strip() for line in lines[1:4]] == [
        "l'acteur l'emporte", "égalité", "l'opposant l'emporte"]
    got = json.loads(run(capsys, *args, "--json")[1])
    request = {"system": "tedeum", "kind": "opposed", "actor_die": 12, "actor_skill": 3, "actor_negative_die": 6,
               "opponent_die": 8, "opponent_skill": 2, "opponent_negative_die": 6}
    assert got == odds(request)


@pytest.mark.usefixtures("cli_french")
def test_odds_mir_names_the_sd(capsys):
    out = run(capsys, "odds", "mir", "--pool", "6", "--difficulty", "2")[1]
    assert out.splitlines()[0] == "MIR · test simple · chances exactes · SD 2 (Facile)"
    assert "réussite" in out and "%" in out


def test_the_command_line_names_no_system(capsys):
    """A game's words (die words, total unit, the difficulty's name) come from its System: the
    command names no system id, and each system's odds header says its own word."""
    from gmscreen.rules import registry

    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "gmscreen" / "cli").glob("*.py")))
    named = [sid for sid in registry.system_ids() if re.search(rf"[\"'`\s]{sid}[\"'`\s.]", source)]
    assert named == []
    for sid in registry.SHIPPED:
        system = registry.system(sid)
        kind = next(iter(system.kinds.values()))
        row = next(r for r in system.difficulties if r.value is not None and r.label)
        request = {"system": sid, "kind": kind.name, system.difficulty_field: row.value}
        header = cli._odds_lines(system, kind, request, {})[0]
        assert header == f"{system.game} · {_(kind.label)} · chances exactes · {system.difficulty_word} {row.value} " \
                         f"({row.label})"


@pytest.mark.usefixtures("cli_french")
def test_unnamed_difficulty_rows_are_not_named(capsys):
    # Éclats names only some thresholds; 8 has no name of its own.
    out = run(capsys, "roll", "eclats", "--characteristic", "3", "--skill", "2", "--threshold", "8",
              "--dice", "3,0,7")[1]
    assert "()" not in out and "seuil de 8" in out
    out = run(capsys, "roll", "eclats", "--characteristic", "3", "--skill", "2", "--threshold", "9",
              "--dice", "3,0,7")[1]
    assert "seuil de 9 (Difficile)" in out


def test_odds_from_a_request_file_leaves_the_dice_out(tmp_path, capsys):
    path = tmp_path / "act3.toml"
    path.write_text('system = "tedeum"\nkind = "simple"\ndie = 12\nskill = 5\nnegative_die = 6\n'
                    'difficulty = 13\ndice = [7]\n', encoding="utf-8")
    status, out, _ = run(capsys, "odds", str(path), "--json")
    assert status == 0 and json.loads(out)["chance"] == pytest.approx(5 / 12, abs=1e-12)


@pytest.mark.parametrize("args, words", [
    (("odds", "mir", "--pool", "6", "--difficulty", "2", "--dice", "1,2"), ["unrecognized arguments: --dice"]),
    (("odds", "mir", "--pool", "6", "--difficulty", "9"), ["--difficulty:", "0 to 7"]),
    (("odds", "missing.toml"), ["missing.toml", "no such file"]),
    (("odds", "dnd"), ["SYSTEM", "mir, eclats"]),
])
def test_odds_errors_are_one_line(args, words, capsys):
    assert_one_line_error(*run(capsys, *args), *words)


# ---------------------------------------------------------------- systems, help, campaign commands, screen


def test_systems_lists_id_game_and_dice(capsys):
    status, out, _ = run(capsys, "systems")
    lines = out.splitlines()
    assert status == 0 and [line.split()[0] for line in lines] == list(SYSTEM_IDS)
    assert "Te Deum pour un massacre" in out
    data = json.loads(run(capsys, "systems", "--json")[1])
    assert [s["id"] for s in data] == list(SYSTEM_IDS) and data[3]["kinds"] == ["simple", "opposed", "attack"]


@pytest.mark.parametrize("args", [
    ("--help",), ("systems", "--help"), ("resolve", "--help"), ("roll", "--help"), ("roll", "mir", "--help"),
    ("roll", "tedeum", "--kind", "attack", "--help"), ("odds", "--help"), ("odds", "mir", "--kind", "opposed", "-h"),
    ("validate", "--help"), ("export", "--help"), ("new", "--help"),
])
def test_help_works_everywhere(args, capsys):
    status, out, err = run(capsys, *args)
    assert status == 0 and err == "" and "usage:" in out


def test_roll_help_lists_the_kind_flags(capsys):
    out = run(capsys, "roll", "tedeum", "--kind", "attack", "--help")[1]
    for flag in ("--actor-die", "--defender-reacts", "--opponent-negative-dice", "--open-negative-die", "--seed"):
        assert flag in out
    odds_help = run(capsys, "odds", "mir", "--kind", "group", "--help")[1]
    assert "--helper-pools" in odds_help and "--helper-dice" not in odds_help


def test_campaign_commands_delegate(fake_commands, capsys):
    fake = fake_commands()
    assert run(capsys, "validate", "c.toml")[0] == 0
    assert run(capsys, "export", "c.toml", "-o", "log.md")[0] == 0
    assert run(capsys, "new", "n.toml", "--system", "tedeum")[0] == 0
    assert run(capsys, "export", "c.toml", "--session", "3")[0] == 0
    assert fake.calls == [("validate", "c.toml"), ("export", "c.toml", "log.md"), ("new", "n.toml", "tedeum"),
                          ("export", "c.toml", None, 3)]
    assert_one_line_error(*run(capsys, "new", "n.toml", "--system", "dnd"), "--system", "mir")
    assert_one_line_error(*run(capsys, "new", "n.toml"), "--system")


def test_campaign_error_from_a_command_is_reported(fake_commands, capsys):
    fake_commands(CampaignError([Problem("c.toml", "system", "expected one of mir", 3)]))
    assert_one_line_error(*run(capsys, "validate", "c.toml"), "c.toml:3: system: expected one of mir")


@pytest.fixture
def fake_ui(monkeypatch):
    calls = []
    languages = []
    module = types.ModuleType("gmscreen.ui")

    def run_screen(path, *, new_system=None, ascii=False, theme=None, language=None, gc_paused=False):
        calls.append((path, new_system, ascii, theme))
        languages.append(language)
        module.gc_states.append((gc_paused, gc.isenabled()))
        return 0

    module.run = run_screen
    module.gc_states = []
    monkeypatch.setitem(sys.modules, "gmscreen.ui", module)
    import gmscreen

    monkeypatch.setattr(gmscreen, "ui", module, raising=False)
    module.languages = languages
    return calls


def test_screen_dispatch(fake_ui, tmp_path, capsys):
    existing = tmp_path / "my.toml"
    existing.write_text('name = "x"\n')
    assert run(capsys, str(existing), "--ascii", "--theme", "contraste")[0] == 0
    assert run(capsys)[0] == 0
    new = tmp_path / "new.toml"
    assert run(capsys, "--new", str(new), "--system", "tedeum")[0] == 0
    assert fake_ui == [(existing, None, True, "contraste"), (None, None, False, None), (new, "tedeum", False, None)]


def test_the_command_pauses_the_collector_for_the_screens_start_and_no_subcommand(fake_ui, tmp_path, monkeypatch,
                                                                                  capsys):
    """`gmscreen` (`gmscreen.__main__.main`) pauses the collector from its first import: the
    screen is told (it resumes it after its first frame); a subcommand runs with it on; and it
    is on again when the command returns."""
    import gmscreen.__main__ as entry
    import gmscreen.ui

    existing = tmp_path / "my.toml"
    existing.write_text('name = "x"\n')
    monkeypatch.setattr(sys, "argv", ["gmscreen", str(existing)])
    assert gc.isenabled()
    assert entry.main() == 0
    assert gmscreen.ui.gc_states == [(True, False)] and gc.isenabled()
    seen = []
    monkeypatch.setattr(cli, "_cmd_systems", lambda args: seen.append(gc.isenabled()) or 0)
    monkeypatch.setattr(sys, "argv", ["gmscreen", "systems"])
    assert entry.main() == 0
    assert seen == [True] and gc.isenabled()


@pytest.mark.parametrize("args, words", [
    (("missing.toml",), ["missing.toml", "no such file", "--new"]),
    (("--new", "x.toml"), ["--system", "required"]),
    (("--new",), ["--new", "CAMPAIGN.toml"]),
    (("--system", "mir"), ["--system", "only with --new"]),
    (("--new", "x.toml", "--system", "dnd"), ["--system", "mir"]),
    (("--bogus",), ["unrecognized arguments: --bogus"]),
])
def test_screen_errors_are_one_line(fake_ui, args, words, capsys):
    assert_one_line_error(*run(capsys, *args), *words)
    assert fake_ui == []


def test_screen_new_refuses_an_existing_file(fake_ui, tmp_path, capsys):
    path = tmp_path / "c.toml"
    path.write_text("")
    assert_one_line_error(*run(capsys, "--new", str(path), "--system", "mir"), "already exists")


# ---------------------------------------------------------------- subprocesses (a few)


def _python(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=60)


def test_subprocess_quick_commands_do_not_import_textual(tmp_path):
    request = tmp_path / "r.toml"
    request.write_text('system = "mir"\nkind = "simple"\npool = 6\ndifficulty = 2\ndice = [1, 5, 4, 6, 11, 12]\n')
    script = f"""
import sys
from gmscreen.cli import main
codes = [main(["systems"]), main(["resolve", {str(request)!r}]),
         main(["roll", "mir", "--pool", "6", "--difficulty", "2"]),
         main(["odds", "tedeum", "--die", "8", "--negative-die", "6", "--difficulty", "7"])]
print("CODES", codes, "TEXTUAL", any(m == "textual" or m.startswith("textual.") for m in sys.modules))
"""
    proc = _python("-c", script)
    assert proc.returncode == 0, proc.stderr
    assert "CODES [0, 0, 0, 0] TEXTUAL False" in proc.stdout


def test_subprocess_resolve_stdin_and_error_exit_status():
    proc = _python("-m", "gmscreen", "resolve", "-",
                   stdin=json.dumps({"system": "tedeum", "kind": "simple", "die": 12, "skill": 4,
                                     "negative_die": 6, "difficulty": 7, "dice": [11]}))
    assert proc.returncode == 0 and proc.stderr == ""
    result = json.loads(proc.stdout)
    assert (result["outcome"], result["xp"]) == ("critical_success", 1)
    proc = _python("-m", "gmscreen", "resolve", "-", stdin='{"system": "tedeum", "kind": "simple", "die": 7}')
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "die:" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.usefixtures("cli_french")
def test_subprocess_roll_prints_the_alexis_example():
    proc = _python("-m", "gmscreen", *ALEXIS)
    assert proc.returncode == 0, proc.stderr
    assert "3 succès pour SD 2 (Facile) · marge +1 → réussite" in proc.stdout


def test_validate_reports_a_broken_campaign(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("garbage =\n", encoding="utf-8")
    status, out, err = run(capsys, "validate", str(path))
    assert status == 2 and "Traceback" not in err
    assert err.splitlines() and all(line.startswith(f"{path}:") for line in err.splitlines())
