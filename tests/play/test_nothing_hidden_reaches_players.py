"""Nothing hidden reaches the players: every kind of roll and timer of every game, rolled through
the real play flow (`roll_line`, the next interval of the timer it starts) in three secret
variants — GM-only (`mj`), hidden difficulty (`caché`), and each side's character hidden from
the players — and every surface players see read as text for the secret words: the player
view's state (marks of secret rolls shown or not), the recap in Markdown and JSON without
`--gm`, luck over time, the log rows while players watch, the undo label while they watch.

The secret words of each variant are checked to be there for the GM (the log's own words, the
recap with `--gm`), so that a test finding none of them means something."""

from __future__ import annotations

import dataclasses
import functools
import json
import re

import pytest

from gmscreen.play import luck_stats
from gmscreen.play.games import table_for
from gmscreen.play.logline import helper_names, log_line
from gmscreen.play.player_view import CampaignWatch, load_played
from gmscreen.i18n import _
from gmscreen.play.public import (Sight, Visibility, hidden_words, public_label, public_line, record_system,
                                  secret_difficulty_words)
from gmscreen.play.quickroll import QuickRollError, parse
from gmscreen.play.recap import build_recap, recap_data, recap_markdown
from gmscreen.play import Table
from gmscreen.play.table_roll import Refused, roll_line
from gmscreen.play.timers import interval_log_fields, interval_refusal, record_interval, roll_interval
from gmscreen.campaign import load_campaign, sample_path
from gmscreen.rules import SYSTEMS, RequestError, get_system

from _notices import notices

# Kinds no example of the game's help rolls.
EXTRA_LINES = {"arpeges": ["sibylle épée vs marchand baratin 2j"], "mir": ["loriane investigation 7 heure max4"]}
# Words too short or too common to be a secret by themselves.
_SMALL = {"le", "la", "les", "de", "du", "des", "mlle", "sd", "contre"}


@functools.cache
def _sample(system_id: str):
    """The game's sample as shipped, read once for the lists built here (parsing a line reads a
    campaign, never changes it); each test opens a copy of its own."""
    return load_campaign(sample_path(system_id))


def _lines(system_id: str) -> list[str]:
    campaign = _sample(system_id)
    out = []
    for line in [line for line, _ in table_for(system_id).line.help_examples] + EXTRA_LINES.get(system_id, []):
        try:
            draft = parse(line, campaign)
        except QuickRollError:
            continue            # a line of the help that needs a selected character, or faces only
        if not draft.forced and not draft.missing:
            out.append(line)
    return out


LINES = [(s, line) for s in SYSTEMS for line in _lines(s)]
KINDS = {(s, parse(line, _sample(s)).kind) for s, line in LINES}


def test_the_walk_rolls_every_kind_of_every_game() -> None:
    assert KINDS == {(s, kind) for s in SYSTEMS for kind in get_system(s).kinds}


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[\s,·()]+", text) if len(w) > 3 and w.casefold() not in _SMALL}


def _texts(value) -> list[str]:
    """Every string inside a record (a dataclass, a tuple, a dict) of what players see."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value):
        return [t for f in dataclasses.fields(value) for t in _texts(getattr(value, f.name))]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _texts(k) + _texts(v)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [t for v in value for t in _texts(v)]
    return []


def _play(session, text: str) -> list:
    """The line rolled as the tray rolls it, then the next interval of the timer it started (as
    the initiative's `r`): the records logged."""
    table = Table(session)
    told = notices(table)
    try:
        roll = roll_line(session, text, table=table)
    except Refused:             # a test too long for a fight (MIR R20): rolled once it is over
        assert session.campaign.encounter.round > 0
        with session.edit("fin du combat") as b:
            b.set(("encounter", "round"), 0)
        roll = roll_line(session, text, table=table)
    records = [roll.record]
    if roll.timer is not None:
        index, timer = next((i, t) for i, t in enumerate(session.campaign.timers) if t.id == roll.timer)
        if timer.status == "running" and interval_refusal(session.campaign, timer, game=table_for(session.campaign.system)) is None:
            rolled = roll_interval(timer, game=table_for(session.campaign.system))
            records.append(table.record_roll(**interval_log_fields(session.campaign, timer, rolled)))
            assert table.change(f"{timer.label} · {rolled.step}", lambda b: record_interval(b, index, timer, rolled))
    assert told == [] and all(r is not None for r in records)
    # What the player view reads is what the GM plays: a journal it could not replay would show
    # the saved state, from before a character was hidden.
    assert load_played(session.path) == session.campaign
    return records, roll.timer


def _surfaces(session) -> dict[str, str]:
    """What players see of the session, each surface as one text."""
    out: dict[str, str] = {}
    watch = CampaignWatch(session.path)
    watch.open()
    try:
        out["player view"] = " ".join(_texts(watch.state()))
        out["player view, secret marks"] = " ".join(_texts(watch.state(show_secret=True)))
    finally:
        watch.close()
    recap = build_recap(session.path, tables=table_for)
    out["recap"] = recap_markdown(recap)
    out["recap --json"] = json.dumps(recap_data(recap), ensure_ascii=False)
    campaign = session.campaign
    game = table_for(campaign.system)
    rolls = luck_stats.counted(session.rolls, campaign=campaign, game=game)
    out["luck"] = " ".join(luck_stats.verdict_sentence(t) + " " + luck_stats.mean_sentence(t)
                           for tallies in luck_stats.over_time(rolls).values() for t in tallies)
    out["log while watching"] = " ".join(t for r in session.rolls for t in _texts(public_line(r, campaign, game=game)))
    out["undo label while watching"] = public_label(session.last_change, campaign) or ""
    return out


_BEFORE: dict[str, dict[str, str]] = {}


def _sample_surfaces(session, system_id: str) -> dict[str, str]:
    """The surfaces of a fresh sample, before any roll (the same for every case of a game)."""
    if system_id not in _BEFORE:
        _BEFORE[system_id] = _surfaces(session)
    return _BEFORE[system_id]


def _gm_texts(session, records, draft) -> str:
    """What the GM sees of the same rolls and timers: the tray's label of the line, the log's
    rows, the timers, the recap with `--gm`."""
    lines = [log_line(r, record_system(r), campaign=session.campaign, game=table_for(session.campaign.system))
             for r in records]
    timers = [t.label for t in session.campaign.timers]
    return " ".join([draft.label, *(t for line in lines for t in _texts(line)), *timers,
                     recap_markdown(build_recap(session.path, gm=True, tables=table_for))])


def _said(word: str, text: str) -> bool:
    """`word` is in `text` as a word (or words) of its own, whatever the case."""
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE) is not None


def _new(words: set[str], before: dict[str, str]) -> set[str]:
    """The words no surface showed before the roll (a condition, a countdown, the sample's own
    timers say them already, "secret" says the mark of a secret roll): the roll's own."""
    marks = " ".join((_("GM's secret roll"), secret_difficulty_words(), hidden_words(Sight(Visibility.PUBLIC))))
    return {w for w in words if not any(_said(w, text) for text in [*before.values(), marks])}


def _without_sheet_changes(surfaces: dict[str, str]) -> dict[str, str]:
    """The surfaces but the recap's sheet changes: a GM-only roll's spending (Providence, a
    Te Deum experience mark) is a change of the sheet like any other, said as such (see the
    report of issue 20: not yet told apart)."""
    out = dict(surfaces)
    for key in ("recap", "recap --json"):
        out[key] = re.sub(r"## Ce qui a changé.*?## ", "## ", out[key], flags=re.S) if key == "recap" else \
            json.dumps({k: v for k, v in json.loads(out[key]).items() if k != "changes"}, ensure_ascii=False)
    return out


def _assert_hidden(surfaces: dict[str, str], secrets: set[str], gm: str, variant: str) -> None:
    assert secrets, f"{variant}: no secret word to look for"
    for word in secrets:
        assert _said(word, gm), f"{variant}: {word!r} is not even shown to the GM"
    for surface, text in surfaces.items():
        leaked = sorted(w for w in secrets if _said(w, text))
        assert not leaked, f"{variant}: {surface} shows {leaked}: {text}"


@pytest.mark.parametrize("system_id,line", LINES)
def test_a_gm_only_roll_and_its_timer_show_nothing(sessions, system_id: str, line: str) -> None:
    session = sessions.open(system_id)
    draft = parse("mj " + line, session.campaign)
    names = {side.name for side in draft.sides}
    # The skills and what the difficulty says: every part of the label that is not a side's name.
    secrets = {w for part in draft.label.split(" · ") if part not in names for w in _words(part)
               if not any(w in name for name in names) and not re.search(r"\d", w)}
    secrets |= _words(draft.difficulty_text) | (_words(draft.timer["label"]) if draft.timer else set())
    secrets |= {w for w in _words(line) if not re.search(r"\d", w)}
    secrets -= {w for name in names for w in _words(name)} | {w for w in _words(line) if any(
        w.casefold() in name.casefold() for name in names)}
    secrets = _new(secrets, _sample_surfaces(session, system_id))
    records, timer = _play(session, "mj " + line)
    assert all(r.gm_only for r in records)
    assert all(t.gm_only for t in session.campaign.timers if t.id == timer) and bool(timer) == bool(draft.timer)
    surfaces = _without_sheet_changes(_surfaces(session))
    _assert_hidden(surfaces, secrets, _gm_texts(session, records, draft), f"{system_id} mj {line}")
    assert json.loads(surfaces["recap --json"])["hidden_rolls"] == len(records)


def _difficulty_secrets(campaign, line: str) -> set[str]:
    """What `caché` keeps from the players in `line`: its difficulty and the timer it starts
    (none in an opposition, whose difficulty is the other side, nor where `caché` is refused)."""
    try:
        draft = parse(line + " caché", campaign)
    except (QuickRollError, RequestError):
        return set()
    return ({draft.difficulty_text} if draft.difficulty_text else set()) | (
        {draft.timer["label"]} if draft.timer else set())


def _new_in_sample(system_id: str, line: str) -> bool:
    """`line` keeps a difficulty from the players that its sample does not show already (the
    MIR sample runs the help's Guérison test openly)."""
    campaign = _sample(system_id)
    secrets = _difficulty_secrets(campaign, line)
    return bool(secrets - {timer.label for timer in campaign.timers})


DIFFICULTY_LINES = [(s, line) for s, line in LINES if _new_in_sample(s, line)]


def test_the_walk_hides_a_difficulty_of_every_game() -> None:
    assert {s for s, _line in DIFFICULTY_LINES} == set(SYSTEMS)


@pytest.mark.parametrize("system_id,line", DIFFICULTY_LINES)
def test_a_hidden_difficulty_keeps_only_the_difficulty_from_the_players(sessions, system_id: str,
                                                                           line: str) -> None:
    session = sessions.open(system_id)
    draft = parse(line + " caché", session.campaign)
    secrets = _difficulty_secrets(session.campaign, line)
    secrets = _new(secrets, _sample_surfaces(session, system_id))
    assert secrets
    records, _timer = _play(session, line + " caché")
    surfaces = _surfaces(session)
    _assert_hidden(surfaces, secrets, _gm_texts(session, records, draft), f"{system_id} {line} caché")
    # Only the difficulty: the roll is the players', counted in the recap and its luck.
    recap = build_recap(session.path, tables=table_for)
    assert recap.rolls == len(records) and recap.hidden_rolls == 0
    shown = CampaignWatch(session.path)
    shown.open()
    assert [r.seq for r in shown.state().rolls] == [r.seq for r in records]
    assert all(r.dice or r.outcome for r in shown.state().rolls)
    shown.close()


def _people(system_id: str, line: str) -> list[tuple[str, str]]:
    """(role, name) of each character the line names: its sides, and those who help (`aide`)."""
    campaign = _sample(system_id)
    draft = parse(line, campaign)
    sides = [(("actor", "opponent")[n], side.character.name) for n, side in enumerate(draft.sides[:2])
             if side.character is not None]
    return sides + [("helper", name) for name in helper_names(line, campaign, table_for(system_id))]


SIDED = [(s, line, role, name) for s, line in LINES for role, name in _people(s, line)]


def test_the_walk_hides_helpers_too() -> None:
    assert {role for _s, _line, role, _name in SIDED} == {"actor", "opponent", "helper"}


@pytest.mark.parametrize("system_id,line,role,name", SIDED)
def test_a_character_hidden_from_the_players_is_never_named_to_them(sessions, system_id: str, line: str,
                                                                    role: str, name: str) -> None:
    session = sessions.open(system_id)
    draft = parse(line, session.campaign)
    character = next(ch for ch in session.campaign.characters if ch.name == name)
    index = session.campaign.characters.index(character)
    with session.edit("caché") as b:
        b.set(("characters", index, "hidden"), True)
    others = {w for ch in session.campaign.characters if ch is not character for w in _words(ch.name)}
    secrets = {character.name} | _new(_words(character.name) - others, _surfaces(session))
    records, _timer = _play(session, line)
    assert all(role in r.result.get("hidden_sides", []) for r in records), "the hidden side is not recorded"
    surfaces = _surfaces(session)
    _assert_hidden(surfaces, secrets, _gm_texts(session, records, draft), f"{system_id} {line}, {name} hidden")
    if role != "actor":         # the players' own side stays theirs: the roll shows, by the rules' role word
        watch = CampaignWatch(session.path)
        watch.open()
        assert [r.seq for r in watch.state().rolls] == [r.seq for r in records]
        watch.close()


def test_a_timer_made_by_a_form_against_a_hidden_npc_records_it(sessions) -> None:
    """The initiative's `t` makes the timer from the game's form: the side a hidden character
    plays is recorded on it as the line records it, and the player view leaves it out."""
    from gmscreen.play.public import mark_timer, public_timer

    session = sessions.open("magisphere")
    campaign = session.campaign
    granok = next(ch for ch in campaign.characters if ch.name == "Granok")
    bob = next(i for i, ch in enumerate(campaign.characters) if ch.name == "le gros Bob")
    with session.edit("caché") as b:
        b.set(("characters", bob, "hidden"), True)
    test = table_for("magisphere").fight.timed_test("opposition")
    timer = test.make(campaign, get_system("magisphere"), granok,
                      {"label": "Bras de fer", "opponent": "le gros Bob", "target": "3", "actor_stat": "12",
                       "actor_skill": "2", "opponent_stat": "11", "opponent_skill": "1"})
    timer.id = "bras-de-fer"
    assert mark_timer(campaign, timer).hidden_sides == ["opponent"]
    with session.edit("Minuteur : Bras de fer") as b:
        b.insert(("timers",), None, timer)
    with session.edit("montré") as b:            # shown again: what was recorded stays
        b.set(("characters", bob, "hidden"), False)
    session.save_now()
    saved = load_campaign(session.path).timers[-1]
    assert saved.hidden_sides == ["opponent"] and public_timer(campaign, saved, game=table_for("magisphere")) is None


def test_a_timers_secrets_are_saved_only_when_set_and_validated(sessions) -> None:
    from gmscreen.campaign import CampaignError, parse_campaign

    session = sessions.open("mir")
    with session.edit("fin du combat") as b:        # an hour-long test waits for the fight's end (R20)
        b.set(("encounter", "round"), 0)
    roll_line(session, "mj loriane investigation 7 heure max4")
    session.save_now()
    text = session.path.read_text(encoding="utf-8")
    assert text.count("gm_only = true") == 1 and load_campaign(session.path).timers[-1].gm_only
    assert "hidden_sides" not in text
    for bad, key in (('gm_only = "oui"', "gm_only"), ('gm_only = true\nhidden_sides = ["npc"]', "hidden_sides[0]")):
        with pytest.raises(CampaignError) as err:
            parse_campaign(text.replace("gm_only = true", bad), "x.toml")
        assert f"timers[2].{key}" in str(err.value.problems[0]), err.value.problems
