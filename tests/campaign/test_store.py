"""The state file: load/save round trips, deterministic bytes, atomic saves, formats."""

from __future__ import annotations

import os
import stat
import tomllib

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _store_helpers import copy_sample, mir_campaign, snapshot
from gmscreen.campaign import CampaignError, load_campaign, open_session, save_campaign, to_data
from gmscreen.campaign import store
from gmscreen.campaign.model import Condition

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")


def refused(tmp_path, text: str) -> CampaignError:
    """The error loading a campaign file holding `text` raises."""
    path = tmp_path / "c.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    return err.value


def test_load_save_load_gives_an_equal_campaign(tmp_path):
    path = copy_sample(tmp_path)
    first = load_campaign(path)
    out = tmp_path / "again.toml"
    save_campaign(first, out)
    assert load_campaign(out) == first


def test_saving_twice_gives_the_same_bytes(tmp_path):
    campaign = mir_campaign(5)
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    save_campaign(campaign, a)
    save_campaign(load_campaign(a), b)
    save_campaign(campaign, a)
    assert a.read_bytes() == b.read_bytes()
    assert load_campaign(a) == campaign


def test_saved_text_is_tomli_w_of_to_data_with_format_first(tmp_path):
    campaign = mir_campaign(2)
    path = tmp_path / "c.toml"
    save_campaign(campaign, path)
    text = path.read_text("utf-8")
    assert text.startswith("format = 1\n")
    assert tomllib.loads(text) == to_data(campaign)
    # Notes keep their line breaks, readable and diffable.
    assert 'notes = """\nDes notes\nsur deux lignes"""' in text


def test_carriage_returns_survive_the_round_trip(tmp_path):
    campaign = mir_campaign(1, notes="ligne 1\r\nligne 2\rfin")
    path = tmp_path / "cr.toml"
    save_campaign(campaign, path)
    assert load_campaign(path).notes == "ligne 1\r\nligne 2\rfin"


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(notes=texts, name=texts.filter(lambda s: s.strip()), cond=texts.filter(lambda s: s.strip()),
       rounds=st.none() | st.integers(0, 99), session=st.integers(1, 1000))
def test_any_text_round_trips(tmp_path, notes, name, cond, rounds, session):
    campaign = mir_campaign(2, notes=notes)
    campaign.name = name
    campaign.session = session
    campaign.characters[1].conditions.append(Condition(cond, notes, rounds))
    path = tmp_path / "h.toml"
    save_campaign(campaign, path)
    assert load_campaign(path) == campaign
    before = path.read_bytes()
    save_campaign(load_campaign(path), path)
    assert path.read_bytes() == before


def test_previous_version_is_kept_as_bak(tmp_path):
    path = tmp_path / "c.toml"
    v1, v2, v3 = mir_campaign(1, revision=1), mir_campaign(2, revision=2), mir_campaign(3, revision=3)
    save_campaign(v1, path)
    assert not store.backup_path(path).exists()     # nothing before the first save
    save_campaign(v2, path)
    assert load_campaign(store.backup_path(path)) == v1
    save_campaign(v3, path)
    assert load_campaign(store.backup_path(path)) == v2
    assert load_campaign(path) == v3
    # Only the campaign and its backup: no temporary file left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml", "c.toml.bak"]


def test_save_keeps_the_file_mode(tmp_path):
    path = tmp_path / "c.toml"
    save_campaign(mir_campaign(1), path)
    os.chmod(path, 0o600)
    save_campaign(mir_campaign(2), path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_save_into_a_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CampaignError) as err:
        save_campaign(mir_campaign(1), tmp_path / "nope" / "c.toml")
    assert "cannot save" in str(err.value)
    assert not (tmp_path / "nope").exists()


def test_a_value_toml_cannot_hold_is_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "c.toml"
    save_campaign(mir_campaign(1), path)
    before = snapshot(tmp_path)
    bad = mir_campaign(1)
    bad.rules = {"option": object()}
    with pytest.raises(CampaignError) as err:
        save_campaign(bad, path)
    assert "cannot be written as TOML" in str(err.value)
    assert snapshot(tmp_path) == before


def test_text_that_utf8_cannot_hold_is_refused_clearly(tmp_path):
    path = tmp_path / "c.toml"
    save_campaign(mir_campaign(1), path)
    before = snapshot(tmp_path)
    with pytest.raises(CampaignError, match="not valid Unicode"):
        save_campaign(mir_campaign(1, notes="caf\udce9"), path)
    assert snapshot(tmp_path) == before


def test_loading_never_writes(tmp_path):
    path = copy_sample(tmp_path)
    before = snapshot(tmp_path)
    load_campaign(path)
    assert snapshot(tmp_path) == before


def test_missing_file(tmp_path):
    with pytest.raises(CampaignError) as err:
        load_campaign(tmp_path / "absent.toml")
    assert "no such file" in str(err.value)
    assert not list(tmp_path.iterdir())


def test_invalid_utf8_names_the_line(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b'format = 1\nname = "ok"\nnotes = "caf\xe9"\nsystem = "mir"\n')
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    (problem,) = err.value.problems
    assert problem.line == 3 and "UTF-8" in problem.message


def test_invalid_campaign_is_reported_with_every_problem_and_left_untouched(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('format = 1\nname = ""\nsystem = "nope"\n', "utf-8")
    before = snapshot(tmp_path)
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    paths = {p.path for p in err.value.problems}
    assert {"name", "system"} <= paths
    assert snapshot(tmp_path) == before


def test_a_session_refuses_a_file_that_fails_to_load_and_writes_nothing(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('format = 1\nname = "x"\nsystem = "mir"\nsession = "trois"\n', "utf-8")
    before = snapshot(tmp_path)
    with pytest.raises(CampaignError):
        open_session(path)
    assert snapshot(tmp_path) == before     # not even a lock file


def test_newer_format_is_a_clear_error(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('# future\nformat = 7\nname = "x"\nsystem = "mir"\nnew_thing = 1\n', "utf-8")
    before = path.read_bytes()
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    (problem,) = err.value.problems
    assert problem.path == "format" and problem.line == 2
    assert "newer gmscreen (format 7)" in problem.message and "format" in str(problem)
    assert path.read_bytes() == before


def test_newer_format_hidden_behind_a_peek_is_still_refused(tmp_path):
    # A multi-line string before `format` fools the quick look: the full parse decides.
    text = 'notes = """\nformat = 1\n"""\nformat = 2\nname = "x"\nsystem = "mir"\n'
    assert "newer gmscreen (format 2)" in str(refused(tmp_path, text))


def test_unknown_older_format_is_an_error(tmp_path):
    assert "format" in str(refused(tmp_path, 'format = 0\nname = "x"\nsystem = "mir"\n'))


def test_older_format_is_migrated_on_load_and_saved_in_the_current_format(tmp_path, monkeypatch):
    def from_0(data):
        data = dict(data)
        data["name"] = data.pop("title")
        return data

    monkeypatch.setitem(store.MIGRATIONS, 0, from_0)
    path = tmp_path / "old.toml"
    old_text = 'format = 0\ntitle = "Ancienne campagne"\nsystem = "mir"\nsession = 4\n'
    path.write_text(old_text, "utf-8")
    campaign, warnings = store.load_campaign_with_warnings(path)
    assert campaign.name == "Ancienne campagne" and campaign.session == 4 and campaign.format == 1
    assert any("format 0 migrated to format 1" in p.message and p.warning for p in warnings)
    assert path.read_text("utf-8") == old_text          # loading never writes
    with open_session(path) as session:
        assert session.dirty                            # the next save upgrades the file
    assert path.read_text("utf-8").startswith("format = 1\n")
    assert store.backup_path(path).read_text("utf-8") == old_text
    assert load_campaign(path) == campaign


def test_migrated_file_still_reports_its_problems(tmp_path, monkeypatch):
    monkeypatch.setitem(store.MIGRATIONS, 0, lambda data: data)
    path = tmp_path / "old.toml"
    path.write_text('format = 0\nname = "x"\nsystem = "mir"\nsession = 0\n', "utf-8")
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    assert any(p.path == "session" and "after migrating format 0 to 1" in p.message for p in err.value.problems)


def test_a_migration_that_fails_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(store.MIGRATIONS, 0, lambda data: data["title"])
    path = tmp_path / "old.toml"
    path.write_text('format = 0\nname = "x"\nsystem = "mir"\n', "utf-8")
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    (problem,) = err.value.problems
    assert problem.path == "format" and problem.line == 1 and "cannot migrate format 0 to 1" in problem.message


def test_stale_temporary_files_are_cleared_by_the_next_writer(tmp_path):
    path = tmp_path / "c.toml"
    save_campaign(mir_campaign(1), path)
    stale = tmp_path / ".c.toml.99999.abcd1234.tmp"
    stale.write_text("half a save", "utf-8")
    other = tmp_path / ".other.toml.1.ab.tmp"
    other.write_text("not ours", "utf-8")
    with open_session(path):
        pass
    assert not stale.exists()
    assert other.exists()


def test_atomic_write_leaves_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    path = tmp_path / "c.toml"
    save_campaign(mir_campaign(1), path)
    before = path.read_bytes()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store.os, "fsync", full_disk)
    with pytest.raises(CampaignError) as err:
        save_campaign(mir_campaign(3), path)
    assert "no space left" in str(err.value)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.toml"]


def test_tomli_w_reference_agrees(tmp_path):
    """The saved bytes are exactly tomli-w's, so any TOML tool reads them the same way."""
    campaign = mir_campaign(4)
    path = tmp_path / "c.toml"
    save_campaign(campaign, path)
    data = to_data(campaign)
    data = {"format": data.pop("format"), **data}
    assert path.read_text("utf-8") == tomli_w.dumps(data, multiline_strings=True)
