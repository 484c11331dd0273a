"""Saves keep the file as the GM wrote it: comments, order, blank lines, inline tables, number
style; only the values that changed change (campaign files and config.toml)."""

from __future__ import annotations

import difflib
import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest

import _toml_comments as oracle
import gmscreen.rules
from gmscreen.campaign import load_campaign, open_session, sample_path
from gmscreen.campaign.model import Condition
from gmscreen.campaign.store import campaign_data, load_file_state, save_campaign
from gmscreen.campaign.tomledit import PatchError, keep_comments, patch_text, same, whole_text
from gmscreen.ui.config import Config

# The problems these tests read are checked in their English words (French: tests/campaign/test_french.py).
pytestmark = pytest.mark.usefixtures("english")

SYSTEMS = tuple(gmscreen.rules.SYSTEMS)


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """(lines removed, lines added), line by line."""
    removed, added = [], []
    for line in difflib.ndiff(before.splitlines(), after.splitlines()):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


def comments(text: str) -> list[str]:
    """Every comment of the text, in order (whole-line ones and those after a value)."""
    return [line[line.index("#"):] for line in text.splitlines() if line.lstrip().startswith("#") or " # " in line]


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_turn_through_a_session_changes_only_its_lines(tmp_path, system):
    path = tmp_path / f"{system}.toml"
    shutil.copyfile(sample_path(system), path)
    before = path.read_text("utf-8")
    turn_line = next(line for line in before.splitlines() if line.startswith("turn = "))
    with open_session(path) as s:
        old_turn = s.campaign.encounter.turn
        new_turn = (old_turn + 1) % len(s.campaign.encounter.entries)
        with s.edit("Tour suivant") as b:
            b.set(("encounter", "turn"), new_turn)
        s.save_now()
        revision = s.campaign.revision
    after = path.read_text("utf-8")
    removed, added = changed_lines(before, after)
    # The turn keeps its comment and its column; the revision, absent from the sample, is added.
    assert removed == [turn_line]
    assert sorted(added) == sorted([turn_line.replace(f"turn = {old_turn}", f"turn = {new_turn}", 1),
                                    f"revision = {revision}"])
    assert comments(after) == comments(before)
    assert load_campaign(path).encounter.turn == new_turn


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_next_saves_change_one_line_each(tmp_path, system):
    path = tmp_path / f"{system}.toml"
    shutil.copyfile(sample_path(system), path)
    with open_session(path) as s:
        for session_number in (7, 8):
            before = path.read_text("utf-8") if s.campaign.revision else None
            with s.edit("session") as b:
                b.set(("session",), session_number)
            s.save_now()
            if before is not None:
                removed, added = changed_lines(before, path.read_text("utf-8"))
                assert removed == ["session = 7", f"revision = {s.campaign.revision - 1}"]
                assert added == ["session = 8", f"revision = {s.campaign.revision}"]
    original = sample_path(system).read_text("utf-8")
    assert comments(path.read_text("utf-8")) == comments(original)


def test_conditions_added_and_removed_keep_the_rest_of_the_text(tmp_path):
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    before = path.read_text("utf-8")
    campaign, _, base = load_file_state(path)
    callia = campaign.character("callia")
    callia.conditions.append(Condition("Sonnée", "−1 dé", 2))
    campaign.character("alexis").conditions.clear()
    campaign.encounter.entries.sort(key=lambda e: e.initiative)        # the queue sorted (`s`)
    save_campaign(campaign, path, base=base)
    after = path.read_text("utf-8")
    assert load_campaign(path) == campaign
    assert comments(after) == comments(before)
    assert "effect = \"−1 dé\"          # jusqu'à la guérison : pas de durée en tours" in after
    assert 'name = "Chien de garde"   # entrée ad hoc, sans fiche' in after
    # The section headings stay where they were: after the last character, before the timers.
    assert after.index("# ---------------------------------------------------------------- la scène") < \
        after.index("[encounter]")
    assert after.index("# ---------------------------------------------------------------- minuteurs") > \
        after.rindex("[[encounter.entries]]")


def test_styles_of_values_are_kept(tmp_path):
    text = (
        "# en-tête\n"
        "a = 0x1F          # hexadécimal\n"
        "b = 1_000\n"
        "c = +3\n"
        "s = 'littéral'   # apostrophes simples\n"
        'm = """\nligne 1\nligne 2"""\n'
        "inline = { x = 1, y = [1, 2] }   # en ligne\n"
        "\n"
        "[t]\n"
        "k = 1\n"
    )
    data = tomllib.loads(text)
    data.update(a=42, b=2500, c=4, s="autre", m="ligne 1\nligne 3")
    data["inline"] = {"x": 2, "y": [1, 2, 3], "z": "nouveau"}
    data["t"]["new"] = True
    out = patch_text(text, data)
    assert same(tomllib.loads(out), data)
    assert out.splitlines() == [
        "# en-tête",
        "a = 0x2A          # hexadécimal",
        "b = 2_500",
        "c = +4",
        "s = 'autre'   # apostrophes simples",
        'm = """',
        "ligne 1",
        'ligne 3"""',
        'inline = { x = 2, y = [1, 2, 3], z = "nouveau"}   # en ligne',      # still inline
        "",
        "[t]",
        "k = 1",
        "new = true",
    ]


def test_text_that_does_not_parse_is_not_patched():
    with pytest.raises(PatchError):
        patch_text("a = [1,\n", {"a": 1})


def refuse_patches(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise PatchError("refused for the test")

    monkeypatch.setattr("gmscreen.campaign.tomledit.patch_text", refuse)


def test_a_patch_that_fails_writes_the_file_whole_with_every_comment_in_its_place(tmp_path, monkeypatch):
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    before = path.read_text("utf-8")
    campaign, _, base = load_file_state(path)
    campaign.session = 9
    campaign.encounter.turn = 2
    refuse_patches(monkeypatch)
    saved = save_campaign(campaign, path, base=base)
    after = path.read_text("utf-8")
    assert load_campaign(path) == campaign                  # nothing lost, only the layout
    assert saved.text == after and saved.data == campaign_data(campaign)
    assert Counter(oracle.comments(after)) == Counter(oracle.comments(before))
    assert "turn = 2                  # au tour du garde" in after         # after the same value
    assert "[[characters.conditions]]" in after and "conditions = [" not in after  # tables stay tables
    assert len(changed_lines(before, after)[0]) == 4        # session, initiative moved after the notes, turn
    for heading in ("# ---------------------------------------------------------------- minuteurs\n\n"
                    "# Guérison (Héritage) (1 jour, 3 max.) 8 succès : Loriane soigne la fièvre de Callia.\n"
                    "# Deux jours déjà : 4 puis 2 succès, 6 sur 8, il reste un test.\n[[timers]]\n",
                    "# ---------------------------------------------------------------- PNJ\n\n[[characters]]\n"
                    'id = "garde"\n'):
        assert heading in after                             # above the same header
    assert saved.notice == (f"mir.toml could not be saved in place and was written whole: "
                            f"{len(oracle.comments(before))} comments kept where they were (the previous version "
                            f"is mir.toml.bak)")
    again = save_campaign(campaign, path, base=saved)       # the next save patches that text again
    assert again.notice.startswith("mir.toml could not")    # (still refused here)
    monkeypatch.undo()
    campaign.session = 10
    third = save_campaign(campaign, path, base=again)
    assert not third.notice and Counter(oracle.comments(path.read_text("utf-8"))) == Counter(oracle.comments(before))


def test_written_whole_the_comments_of_what_went_are_kept_before_what_follows(tmp_path, monkeypatch):
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    before = path.read_text("utf-8")
    campaign, _, base = load_file_state(path)
    campaign.encounter.entries = [e for e in campaign.encounter.entries if e.id != "chien"]
    campaign.character("callia").conditions.clear()
    campaign.timers = campaign.timers[1:]
    refuse_patches(monkeypatch)
    saved = save_campaign(campaign, path, base=base)
    after = path.read_text("utf-8")
    assert load_campaign(path) == campaign
    assert Counter(oracle.comments(after)) == Counter(oracle.comments(before))     # even theirs
    # The comment after the condition's value comes before what followed it, in the order written.
    npcs = "# ---------------------------------------------------------------- PNJ"
    assert after.index("# jusqu'à la guérison") < after.index(npcs)
    assert saved.notice.startswith("mir.toml ")
    # Those of the entry, the condition and the timer gone (the timer's own lines among them).
    assert f"{len(oracle.comments(before))} comments kept (7 moved from what is no longer there" in saved.notice


def test_comments_that_cannot_be_put_back_in_place_go_first_in_the_file(tmp_path, monkeypatch):
    path = tmp_path / "tedeum.toml"
    shutil.copyfile(sample_path("tedeum"), path)
    before = path.read_text("utf-8")
    campaign, _, base = load_file_state(path)
    campaign.session += 1
    refuse_patches(monkeypatch)

    def broken(*args):
        raise ValueError("tomlkit refused")

    monkeypatch.setattr("gmscreen.campaign.tomledit._put_back", broken)
    saved = save_campaign(campaign, path, base=base)
    after = path.read_text("utf-8")
    assert load_campaign(path) == campaign
    wanted = oracle.comments(before)
    assert after.startswith("".join(f"{c}\n" for c in wanted) + "\n")
    assert f"{len(wanted)} comments kept ({len(wanted)} moved" in saved.notice


def test_a_file_of_an_older_format_keeps_its_comments_when_migrated(tmp_path, monkeypatch):
    from gmscreen.campaign import store

    monkeypatch.setitem(store.MIGRATIONS, 0, lambda data: data)
    path = tmp_path / "old.toml"
    path.write_text('# ma vieille campagne\nformat = 0\nname = "x"   # son nom\nsystem = "mir"\n', "utf-8")
    with open_session(path) as session:
        assert session.dirty
    text = path.read_text("utf-8")
    assert text.startswith("# ma vieille campagne\nformat = 1\n") and 'name = "x"   # son nom' in text


def test_the_session_says_a_save_written_whole(tmp_path, monkeypatch):
    path = tmp_path / "mir.toml"
    shutil.copyfile(sample_path("mir"), path)
    with open_session(path) as session:
        with session.edit("session") as b:
            b.set(("session",), 8)
        refuse_patches(monkeypatch)
        notice = session.save_now()
        kept = len(oracle.comments(path.read_text("utf-8")))
        assert notice is not None and f"{kept} comments kept where they were" in notice
        assert any(p.message == notice and p.warning for p in session.warnings)
        monkeypatch.undo()
        with session.edit("session") as b:
            b.set(("session",), 9)
        assert session.save_now() is None                 # patched again: nothing to say


def test_saving_without_a_base_patches_the_file_on_disk(tmp_path):
    path = tmp_path / "arpeges.toml"
    shutil.copyfile(sample_path("arpeges"), path)
    before = path.read_text("utf-8")
    campaign = load_campaign(path)
    campaign.session += 1
    save_campaign(campaign, path)
    removed, added = changed_lines(before, path.read_text("utf-8"))
    assert removed == [f"session = {campaign.session - 1}"] and added == [f"session = {campaign.session}"]


# ---------------------------------------------------------------- whose comment it is

LIST = """\
[e]
round = 1

# ---- la liste

# a
[[e.x]]
id = "a"

# b
[[e.x]]
id = "b"

# ---- fin

[t]
k = 1
"""


def edited(text: str, edit) -> str:
    data = tomllib.loads(text)
    edit(data)
    out = patch_text(text, data)
    assert same(tomllib.loads(out), data)
    return out


def test_an_entry_put_first_goes_under_the_heading_of_the_list():
    out = edited(LIST, lambda d: d["e"]["x"].insert(0, {"id": "z"}))
    assert out == LIST.replace('# ---- la liste\n\n', '# ---- la liste\n\n[[e.x]]\nid = "z"\n\n')


def test_entries_sorted_take_their_own_comments_and_leave_the_headings_in_place():
    out = edited(LIST, lambda d: d["e"]["x"].reverse())
    assert out == LIST.replace('# a\n[[e.x]]\nid = "a"\n\n# b\n[[e.x]]\nid = "b"\n',
                               '# b\n[[e.x]]\nid = "b"\n\n# a\n[[e.x]]\nid = "a"\n')


def test_an_entry_removed_takes_its_own_comment_only():
    out = edited(LIST, lambda d: d["e"]["x"].pop(1))
    assert out == LIST.replace('# b\n[[e.x]]\nid = "b"\n\n', "")
    crlf = LIST.replace("\n", "\r\n")
    assert edited(crlf, lambda d: d["e"]["x"].pop(0)) == crlf.replace('# a\r\n[[e.x]]\r\nid = "a"\r\n\r\n', "")


def test_an_array_emptied_keeps_the_headings_and_filled_again_is_tables_again():
    empty = edited(LIST, lambda d: d["e"].__setitem__("x", []))
    assert empty == '[e]\nround = 1\nx = []\n\n# ---- la liste\n\n# ---- fin\n\n[t]\nk = 1\n'
    again = edited(empty, lambda d: d["e"].__setitem__("x", [{"id": "c"}, {"id": "d"}]))
    assert again == '[e]\nround = 1\n\n[[e.x]]\nid = "c"\n\n[[e.x]]\nid = "d"\n\n# ---- la liste\n\n# ---- fin\n\n' \
                    '[t]\nk = 1\n'


def test_the_comments_that_end_the_file_stay_last():
    text = "[[t]]\nid = 1\n\n# fin du fichier\n"
    out = edited(text, lambda d: (d["t"][0].__setitem__("v", 2), d["t"].append({"id": 2})))
    assert out == '[[t]]\nid = 1\nv = 2\n\n[[t]]\nid = 2\n\n# fin du fichier\n'


def test_an_indented_file_stays_indented():
    text = "[a]\n  x = 1\n  # c\n  [[a.b]]\n  id = 1\n"
    out = edited(text, lambda d: (d["a"].__setitem__("y", 2), d["a"]["b"].append({"id": 2})))
    assert out == "[a]\n  x = 1\n  y = 2\n  # c\n  [[a.b]]\n  id = 1\n\n  [[a.b]]\n  id = 2\n"


def test_a_value_of_a_multi_line_array_takes_its_comment_with_it():
    text = "[d]\nrolls = [\n  [1, 2],  # jour 1\n  [3, 4],  # jour 2\n]\n"
    longer = text.replace("# jour 2\n]", "# jour 2\n  [5, 6],\n]")
    assert edited(text, lambda d: d["d"]["rolls"].append([5, 6])) == longer
    assert edited(text, lambda d: d["d"]["rolls"].pop()) == "[d]\nrolls = [\n  [1, 2],  # jour 1\n]\n"


def test_a_patch_that_would_lose_a_comment_is_refused(monkeypatch):
    from gmscreen.campaign import tomledit

    real = tomledit._Patch.remove

    def careless(self, tbl, k):                 # a removal that forgets to keep the lines above
        del tbl[k]

    monkeypatch.setattr(tomledit._Patch, "remove", careless)
    with pytest.raises(PatchError, match="comment would be lost"):
        patch_text("# en tête\n\na = 1\nc = 2\n", {"c": 2})
    monkeypatch.setattr(tomledit._Patch, "remove", real)
    assert patch_text("# en tête\n\na = 1\nc = 2\n", {"c": 2}) == "# en tête\n\nc = 2\n"


# ---------------------------------------------------------------- config.toml

CONFIG = """\
# Mes réglages gmscreen
theme = "gmscreen-dark"   # le thème sombre
last_campaign = "/tmp/a.toml"

[keymap]
# Mes touches à moi
"app.quick-roll" = "slash, f2"   # deux touches
"app.next-turn" = ["n", "space"]
"""


def test_config_save_changes_only_what_changed(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, "utf-8")
    config = Config.load(path)
    assert config.keymap["app.quick-roll"] == "slash,f2"
    assert config.remember_theme("gmscreen-light")
    removed, added = changed_lines(CONFIG, path.read_text("utf-8"))
    assert removed == ['theme = "gmscreen-dark"   # le thème sombre']
    assert added == ['theme = "gmscreen-light"   # le thème sombre']
    assert Config.load(path).keymap == config.keymap


def test_config_keeps_a_hand_edit_made_meanwhile_and_writes_nothing_when_unchanged(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, "utf-8")
    config = Config.load(path)
    edited = CONFIG.replace('"app.next-turn"', '"app.undo" = "u"   # ajouté à la main\n"app.next-turn"')
    path.write_text(edited, "utf-8")
    assert config.remember_campaign(Path("/tmp/b.toml"))
    text = path.read_text("utf-8")
    assert '"app.undo" = "u"   # ajouté à la main' in text and "# Mes touches à moi" in text
    assert tomllib.loads(text)["recent"] == ["/tmp/b.toml"]
    mtime = path.stat().st_mtime_ns
    assert config.remember_campaign(Path("/tmp/b.toml"))      # the same: nothing to write
    assert path.stat().st_mtime_ns == mtime and path.read_text("utf-8") == text


def test_config_made_unreadable_meanwhile_is_left_alone(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, "utf-8")
    config = Config.load(path)
    path.write_text(CONFIG + "broken = [\n", "utf-8")
    assert not config.remember_theme("gmscreen-light")
    assert path.read_text("utf-8") == CONFIG + "broken = [\n"
    assert "left as it is" in config.problems[-1]


KNOWN_BY = ("id", "name", "entry")     # what tells the entries of the samples apart: an edit keeps them


def _mutate(data: dict, rnd) -> None:
    """One random edit somewhere in plain TOML data: a value changed, a key added or removed,
    a list element added, removed or the list shuffled."""
    containers: list = []

    def walk(value):
        if isinstance(value, (dict, list)):
            containers.append(value)
            for item in (value.values() if isinstance(value, dict) else value):
                walk(item)

    walk(data)
    where = rnd.choice(containers)
    values = [rnd.randint(-5, 99), "texte", "deux\nlignes", "guillemets ' et \"", True, 1.5, [1, 2], {"x": 1}]
    r = rnd.random()
    if isinstance(where, dict):
        if where and r < 0.5:
            key = rnd.choice(list(where))
            if not isinstance(where[key], (dict, list)) and key not in KNOWN_BY:
                where[key] = rnd.choice(values)
        elif where and r < 0.7:
            key = rnd.choice(list(where))
            if key not in KNOWN_BY:
                del where[key]
        else:
            where[f"cle{rnd.randint(0, 9)}"] = rnd.choice(values)
    elif where:
        if r < 0.3:
            del where[rnd.randrange(len(where))]
        elif r < 0.5:
            rnd.shuffle(where)
        else:
            where.append(dict(where[0], id=f"n{rnd.randint(0, 999)}") if isinstance(where[0], dict) and "id" in
                         where[0] else where[0])


def _entries(data: dict) -> list[tuple[dict, str]]:
    """Every array of tables of a campaign's data, as (the table holding it, its key): the
    fight's entries and declarations, the characters and each one's conditions, the timers."""
    holders = [(data, "characters"), (data, "timers")]
    if isinstance(data.get("encounter"), dict):
        holders += [(data["encounter"], "entries"), (data["encounter"], "declared")]
    holders += [(ch, "conditions") for ch in data.get("characters", []) if isinstance(ch, dict)]
    return holders


def _mutate_entries(data: dict, rnd) -> None:
    """One random edit of an array of tables: an entry added at any place (a copy of another,
    or a first one), one removed, or one moved."""
    holder, key = rnd.choice(_entries(data))
    values = holder.setdefault(key, [])
    r = rnd.random()
    if values and r < 0.4:
        del values[rnd.randrange(len(values))]
    elif len(values) > 1 and r < 0.55:
        values.insert(rnd.randrange(len(values)), values.pop(rnd.randrange(len(values))))
    else:
        n = rnd.randint(0, 999)
        made = dict(rnd.choice(values)) if values else {"name": f"Nouveau {n}", "initiative": n}
        for field in ("id", "name"):
            if field in made or not values:
                made[field] = f"{made.get(field, field)}-{n}"
        values.insert(rnd.randint(0, len(values)), made)


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_edits_give_exactly_the_data_asked_for(system):
    import copy
    import random

    plain = sample_path(system).read_text("utf-8")
    base = tomllib.loads(plain)
    for seed in range(40):
        rnd = random.Random(seed)
        text = oracle.annotated(plain) if seed % 2 else plain     # every entry commented, some places too
        new = copy.deepcopy(base)
        for _ in range(rnd.randint(1, 5)):
            (_mutate_entries if rnd.random() < 0.5 else _mutate)(new, rnd)
        out = patch_text(text, new)
        assert same(tomllib.loads(out), new), seed
        # Every comment but those of what went, none invented (an edit of what tells entries apart,
        # a name removed, may keep the comments of the entry that had it); unchanged values keep
        # their bytes.
        assert not oracle.expected_comments(text, out) - Counter(oracle.comments(out)), seed
        assert not Counter(oracle.comments(out)) - Counter(oracle.comments(text)), seed
        assert not oracle.kept_lines(text, out) - oracle.key_lines(out), seed
        if seed % 5 == 0:
            # Written whole instead, the file keeps every comment of the old text all the same.
            kept = keep_comments(text, whole_text(new) or "")
            assert same(tomllib.loads(kept.text), new), seed
            assert not Counter(oracle.comments(text)) - Counter(oracle.comments(kept.text)), seed
