"""Hostile files: nested too deeply, too big, control characters, references to nobody.

Every reader of the campaign layer (state file, journal, roll log) turns these into one
Problem (file, line, key path, what was expected) or a warning for one damaged entry,
never a traceback; `export` writes control characters escaped; the validator reports
every dangling reference in the same words.
"""

from __future__ import annotations

import re
import shutil

import pytest

from gmscreen.campaign import open_session, safeload, textsafe
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.export import escape_block, escape_heading, escape_inline, export_markdown
from gmscreen.campaign.journal import Journal, journal_path
from gmscreen.campaign.model import RollRecord
from gmscreen.campaign.rolllog import RollLog, append_one, rolls_path
from gmscreen.campaign.samples import sample_path
from gmscreen.campaign.store import load_campaign
from gmscreen.campaign.validate import parse_campaign, validate_file
from gmscreen.rules import SYSTEMS, registry

from _store_helpers import copy_sample, mir_campaign

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")

DEEP = "[" * 100_000
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _roll_chunk(seq: int, who: str = "Loriane") -> str:
    return (f'\n[[roll]]\nseq = {seq}\ntime = "2025-03-01T21:0{seq % 10}:00+01:00"\nsession = 1\n'
            f'who = "{who}"\nline = "6d12 sd2"\nrequest = {{ system = "mir", kind = "simple", pool = 6, '
            f'difficulty = 2 }}\nresult = {{ system = "mir", kind = "simple", outcome = "success" }}\n')


def _log(*chunks: str) -> str:
    return "format = 1\n" + "".join(chunks)


DEEP_ROLL = f"\n[[roll]]\nseq = 7\nwho = {DEEP}\n"


# ---------------------------------------------------------------- the shared helpers


def test_loads_toml_and_json_turn_depth_into_a_load_error_with_its_line():
    for loads, text in ((safeload.loads_toml, "a = 1\nb = 2\nc = " + DEEP), (safeload.loads_json, "\n\n" + DEEP)):
        with pytest.raises(safeload.LoadError) as caught:
            loads(text, max_depth=8)
        assert "nested more than 8 levels deep" in caught.value.message
        assert caught.value.line == 3 and caught.value.syntax == ""


def test_a_value_that_parses_but_nests_too_deep_is_named_by_its_key_path():
    with pytest.raises(safeload.DeepValue) as caught:
        safeload.loads_toml("dice = [[[[1]]]]", max_depth=3)
    assert safeload.dotted(caught.value.path) == "dice[0][0]"
    assert safeload.loads_toml("dice = [[1]]", max_depth=3) == {"dice": [[1]]}


def test_nesting_line_skips_brackets_in_strings_and_comments():
    text = 'a = "[[[[[[" # [[[[[[[\nb = \'{{{{{{\'\nc = """\n[[[[[[\n"""\nd = [[[[[[1]]]]]]\n'
    assert safeload.nesting_line(text, 5) == 6
    assert safeload.nesting_line(text, 6) is None


def test_read_limited_refuses_a_file_larger_than_the_limit(tmp_path):
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:
        fh.truncate(2 * safeload.MiB)         # sparse: nothing is written, nothing read
    with pytest.raises(safeload.LoadError, match="larger than 1 MiB"):
        safeload.read_limited(big, safeload.MiB)
    assert safeload.read_limited(big, 2 * safeload.MiB) == bytes(2 * safeload.MiB)


@pytest.mark.parametrize("raw, shown", [
    ("Chien\x1b#8", "Chien\\x1b#8"),
    ("son\x07", "son\\x07"),
    ("csi\x9b31m", "csi\\x9b31m"),
    ("a\rb", "a\\rb"),
    ("del\x7f", "del\\x7f"),
    ("bidi\u202eevil", "bidi\\u202eevil"),
    ("tab\tand\nnewline", "tab\tand\nnewline"),
    ("surrogate\udcff", "surrogate\\udcff"),
])
def test_escape_controls_shows_every_control_visibly(raw, shown):
    assert textsafe.escape_controls(raw) == shown
    assert not RAW_CONTROLS.search(textsafe.escape_controls(raw, newlines=False).replace("\t", ""))
    assert "\n" not in textsafe.escape_controls(raw, newlines=False)


def test_the_screen_uses_the_same_control_characters():
    from gmscreen.play.quickroll import text
    from gmscreen.ui import sanitize

    assert sanitize.CONTROL is textsafe.CONTROL and sanitize.clean is textsafe.clean
    assert text._CONTROL is textsafe.CONTROL
    assert sanitize.clean("Chien\x1b#8\nnoir") == "Chien\ufffd#8 noir"
    assert sanitize.pasted("a\x1b[31mb\x07") == "ab"


# ---------------------------------------------------------------- the roll log


def test_a_deep_roll_among_intact_ones_is_a_warning_and_the_others_load(tmp_path):
    path = tmp_path / "c.rolls.toml"
    path.write_text(_log(_roll_chunk(1), DEEP_ROLL, _roll_chunk(2)))
    log = RollLog.load(path)
    assert [r.seq for r in log.records] == [1, 2]
    [warning] = log.warnings
    assert warning.warning and warning.path == "roll[1]" and warning.line == 12
    assert "nested too deeply" in warning.message and "ignored" in warning.message


def test_a_deep_last_roll_is_damage_kept_on_disk_not_a_torn_tail_cut_off(tmp_path):
    path = tmp_path / "c.rolls.toml"
    text = _log(_roll_chunk(1), DEEP_ROLL)
    path.write_text(text)
    log = RollLog.load(path)
    assert [r.seq for r in log.records] == [1]
    assert len(log.warnings) == 1 and "nested too deeply" in log.warnings[0].message
    # The next roll goes after it: nothing the GM wrote is cut off.
    append_one(path, campaign_name="c.toml", session=1, who="Alexis", line="x", request={}, result={})
    assert path.read_text().startswith(text)


def test_a_roll_log_that_is_only_a_deep_header_is_one_error(tmp_path):
    path = tmp_path / "c.rolls.toml"
    path.write_text(f"format = 1\nx = {DEEP}\n")
    with pytest.raises(CampaignError) as caught:
        RollLog.load(path)
    [problem] = caught.value.problems
    assert not problem.warning and problem.file == str(path) and problem.line == 1
    assert "nested too deeply" in problem.message and "expected a format line then [[roll]] entries" in problem.message


def test_a_roll_log_larger_than_the_limit_is_one_error_and_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(safeload, "MAX_LOG_BYTES", 1024)
    path = tmp_path / "c.rolls.toml"
    path.write_text(_log(*(_roll_chunk(i) for i in range(1, 20))))
    with pytest.raises(CampaignError, match="larger than 1 KiB"):
        RollLog.load(path)


# ---------------------------------------------------------------- the journal


def _change(revision: int, value: str = "1") -> str:
    return (f'\n[[change]]\nrevision = {revision}\naction = "do"\ntime = "t"\nlabel = "x"\n'
            f'ops = [\n  {{ op = "set", path = ["session"], old = 1, new = {value} }},\n]\n')


def test_a_deep_journal_entry_is_reported_and_the_journal_counts_as_damaged(tmp_path):
    path = tmp_path / "c.journal.toml"
    path.write_text("format = 1\n" + _change(1) + f'\n[[change]]\nrevision = 2\nlabel = {DEEP}\n' + _change(3))
    journal = Journal.load(path)
    assert [e.revision for e in journal.entries] == [1, 3]
    assert journal.damaged and "nested too deeply" in journal.warnings[0].message


def test_a_journal_op_nested_deeper_than_a_campaign_is_a_damaged_entry(tmp_path):
    path = tmp_path / "c.journal.toml"
    nested = "[" * 300 + "]" * 300                  # tomllib reads it; no campaign holds it
    path.write_text("format = 1\n" + _change(1, nested) + _change(2))
    journal = Journal.load(path)
    assert [e.revision for e in journal.entries] == [2]
    assert "nested more than 16 levels deep" in journal.warnings[0].message


def test_opening_a_campaign_with_a_deep_journal_is_a_campaign_error_and_writes_nothing(tmp_path):
    camp = copy_sample(tmp_path)
    journal_path(camp).write_text(f"x = {DEEP}\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(CampaignError) as caught:
        open_session(camp, defer_rolls=True)
    assert "nested too deeply" in str(caught.value)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if not p.name.endswith(".lock")} == before


def test_opening_a_campaign_with_a_deep_journal_entry_sets_the_journal_aside_with_one_warning(tmp_path):
    camp = copy_sample(tmp_path)
    journal_path(camp).write_text("format = 1\n" + f'\n[[change]]\nrevision = 1\nlabel = {DEEP}\n' + _change(2))
    with open_session(camp, defer_rolls=True) as session:
        assert not session.read_only and session.campaign == load_campaign(camp)
        said = [p for p in session.warnings if "journal" in p.file]
        assert len(said) == 1 and "nested too deeply" in said[0].message and "set aside" in said[0].message


def test_a_deep_roll_log_leaves_the_screen_session_read_only_not_crashed(tmp_path):
    camp = copy_sample(tmp_path)
    rolls_path(camp).write_text(f"x = {DEEP}\n")
    with open_session(camp, defer_rolls=True) as session:
        problems = session.load_rolls()
        assert session.read_only
        assert any("nested too deeply" in p.message and not p.warning for p in problems)


# ---------------------------------------------------------------- the state file


def test_a_deep_campaign_file_is_one_error_with_its_line(tmp_path):
    camp = tmp_path / "c.toml"
    camp.write_text(f'format = 1\nname = "x"\nsystem = "mir"\nnotes = {DEEP}\n')
    with pytest.raises(CampaignError) as caught:
        load_campaign(camp)
    [problem] = caught.value.problems
    assert problem.line == 4 and "nesting deeper than the schema allows" in problem.message


def test_a_campaign_file_larger_than_the_limit_is_refused_before_reading(tmp_path):
    camp = tmp_path / "c.toml"
    with open(camp, "wb") as fh:
        fh.truncate(safeload.MAX_CAMPAIGN_BYTES + 1)
    with pytest.raises(CampaignError, match="larger than 32 MiB"):
        load_campaign(camp)
    assert "larger than" in validate_file(camp)[0].message


# ---------------------------------------------------------------- export


def test_export_escapes_controls_and_keeps_the_markdown_structure():
    campaign = mir_campaign(2, notes="ligne\x9b31m\nautre\rfin\x07")
    campaign.name = "Camp\x1b]0;titre\x07 #"
    campaign.characters[0].name = "Chien\x1b#8 | x\ny"
    rolls = [RollRecord(1, "2025-03-01T21:04:11+01:00", 2, "Bob\x1b[2J|\x9b", "6d12\rsd2", {},
                        {"system": "mir", "kind": "simple", "outcome": "success"})]
    text = export_markdown(campaign, rolls)
    assert not RAW_CONTROLS.search(text.replace("\n", ""))
    lines = text.split("\n")
    assert lines[0] == "# Camp\\x1b\\]0;titre\\x07 \\#"
    assert "### Chien\\x1b#8 \\| x y" in lines
    assert "ligne\\x9b31m\\" in lines and "autre\\rfin\\x07" in lines
    [row] = [line for line in lines if line.startswith("| 1 |")]
    assert row.count(" | ") == 5 and "Bob\\x1b\\[2J\\|\\x9b" in row


def test_escape_helpers_are_safe_for_headings_cells_and_blocks():
    assert escape_heading("Bob ##") == "Bob \\##"
    assert escape_inline("a|b\nc\x1b") == "a\\|b c\\x1b"
    assert escape_block("# titre\n\x07\n") == "\\# titre\\\n\\x07"


# ---------------------------------------------------------------- dangling references


def _sample_text(system: str) -> str:
    return sample_path(system).read_text(encoding="utf-8")


def _problems(text: str) -> list:
    try:
        return parse_campaign(text, "c.toml")[1]
    except CampaignError as exc:
        return exc.problems


SHAPE = re.compile(r"^c\.toml:\d+:( warning:)? [\w.\[\]-]+: no (character|encounter entry) with id '[^']*'; "
                   r"expected one of: .+")


@pytest.mark.parametrize("system, old, new, path, warning", [
    ("magisphere", 'who = "granok"', 'who = "granokk"', "timers[0].who", False),
    ("magisphere", 'opponent = "gros-bob"', 'opponent = "gros-bbo"', "timers[0].opponent", True),
    ("magisphere", 'character = "rival"', 'character = "rivale"', "encounter.entries[3].character", False),
    ("arpeges", 'entry = "sibylle"', 'entry = "sybille"', "encounter.declared[1].entry", False),
])
def test_every_dangling_reference_is_reported_in_the_same_words(system, old, new, path, warning):
    text = _sample_text(system)
    assert text.count(old) == 1
    problems = [p for p in _problems(text.replace(old, new)) if p.path == path]
    assert len(problems) == 1, problems
    [problem] = problems
    assert SHAPE.match(str(problem)), str(problem)
    assert problem.warning is warning and problem.line is not None


@pytest.mark.parametrize("opponent", ["Le garde de la porte", "gros-bob", "Le gros Bob", "rival", "Capitaine Morgane"])
def test_an_opponent_that_is_a_character_an_entry_or_a_free_name_is_fine(opponent):
    text = _sample_text("magisphere").replace('opponent = "gros-bob"', f'opponent = "{opponent}"')
    assert not [p for p in _problems(text) if "opponent" in p.path]


def test_a_dangling_reference_lists_a_bounded_number_of_ids():
    chars = "".join(f'\n[[characters]]\nid = "p{i}"\nname = "P{i}"\n[characters.sheet.voies]\n'
                    "heritage = 1\nsecret = 1\nespoir = 1\npeur = 1\ndogme = 1\nmensonge = 1\n" for i in range(40))
    text = ('format = 1\nname = "x"\nsystem = "mir"\n' + chars
            + '\n[encounter]\nround = 1\n[[encounter.entries]]\nid = "e"\nname = "E"\ncharacter = "nobody"\n')
    [problem] = _problems(text)
    assert "p11, … (40 in all)" in problem.message and "p12" not in problem.message


def test_samples_have_no_dangling_reference(tmp_path):
    for system in registry.SHIPPED:      # the shipped games, whatever plugin is installed
        camp = tmp_path / f"{system}.toml"
        shutil.copyfile(sample_path(system), camp)
        assert not [p for p in validate_file(camp) if "no character" in p.message or "no encounter" in p.message]
