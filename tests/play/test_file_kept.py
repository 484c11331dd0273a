"""The GM's file kept whole through the real flows of play: a late joiner, the end of a fight,
a condition that expires, a new session, timers and characters coming and going. Each save
keeps every comment except those of an item that went (a comment belongs to what follows
it), keeps the bytes of every value that did not change, and loads as the session holds."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gmscreen.rules
from _toml_comments import annotated, comments, expected_comments, key_lines, kept_lines, statements
from gmscreen.campaign import load_campaign, open_session, sample_path
from gmscreen.campaign.model import Condition, Timer
from gmscreen.play.encounter import end_fight, next_turn, previous_turn, unique_slug, wait_turn
from gmscreen.play.games import table_for
from gmscreen.play.joins import EVERYONE, NEXT_ROUND, THIS_ROUND, candidates, join
from gmscreen.play.roster_rules import remove_character, start_session
from gmscreen.play import Table
from gmscreen.play.turns import sort_fairly

SYSTEMS = tuple(gmscreen.rules.SYSTEMS)


def saved(session) -> str:
    """Save now; the file's text, checked to hold exactly what the session holds. The file was
    patched in place (a save written whole says so)."""
    assert session.save_now() is None
    text = session.path.read_text("utf-8")
    assert load_campaign(session.path) == session.campaign
    return text


def assert_kept(before: str, after: str) -> None:
    """`after` is a faithful save over `before`: the comments of what is still there, no other,
    and the lines of unchanged values byte for byte."""
    assert Counter(comments(after)) == expected_comments(before, after)
    assert not kept_lines(before, after) - key_lines(after)


def headers(text: str) -> list[str]:
    return [s.text for s in statements(text) if s.kind in ("table", "aot")]


def late_joiner(session, when: str = THIS_ROUND) -> None:
    """`a`, a character not yet in the fight (else an ad hoc name), an initiative whose slot
    has passed, and « Ce round »."""
    campaign = session.campaign
    initiative = max((e.initiative for e in campaign.encounter.entries), default=0) + 1
    free = candidates(campaign, EVERYONE)
    who = (free[0].name, free[0].id) if free else ("Renfort", None)
    result = join(Table(session), session, [(who[0], who[1], initiative)], when)
    assert not result.problem


def fight_over(session) -> None:
    with session.edit("Fin du combat") as b:
        end_fight(b, session.campaign)


@pytest.fixture
def opened(tmp_path):
    made = []

    def open_copy(system: str, text: str | None = None):
        path = tmp_path / f"{system}.toml"
        if text is None:
            shutil.copyfile(sample_path(system), path)
        else:
            path.write_text(text, "utf-8")
        made.append(open_session(path))
        return made[-1]

    yield open_copy
    for session in made:
        session.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_late_joiner_this_round_then_the_end_of_the_fight_keep_the_file(opened, system):
    original = sample_path(system).read_text("utf-8")
    session = opened(system)
    late_joiner(session)
    joined = saved(session)
    assert_kept(original, joined)
    fight_over(session)
    after = saved(session)
    assert_kept(joined, after)
    assert_kept(original, after)
    # Nothing rewritten from scratch: the same headers in the same order, but the fight's.
    fight = ("[[encounter.entries]]", "[[encounter.declared]]")
    assert headers(after) == [h for h in headers(original) if h not in fight]
    assert [s.text for s in statements(after) if s.kind == "key" and len(s.keys) == 1][:4] == \
        [s.text for s in statements(original) if s.kind == "key" and len(s.keys) == 1][:4]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_end_of_the_fight_keeps_what_follows_it(opened, system):
    original = sample_path(system).read_text("utf-8")
    session = opened(system)
    fight_over(session)
    after = saved(session)
    assert_kept(original, after)
    timers = next(line for line in original.splitlines() if line.startswith("# ---") and "minuteurs" in line)
    # The heading of the timers and the comments on the first timer stay just before it.
    lead = original[original.index(timers):original.index("[[timers]]")]
    assert lead in after and after.index(lead) + len(lead) == after.index("[[timers]]")
    assert "[[encounter.entries]]" not in after and "entries = []" in after


@pytest.mark.parametrize("system", [s for s in SYSTEMS if s != "mir"])
def test_a_condition_that_expires_keeps_the_heading_after_it(opened, system):
    original = sample_path(system).read_text("utf-8")
    session = opened(system)
    campaign = session.campaign
    bearer = next(c for c in campaign.characters if any(k.rounds for k in c.conditions))
    gone = next(k.name for k in bearer.conditions if k.rounds)
    before = original
    for _ in range(40):
        next_turn(session)
        after = saved(session)
        assert_kept(before, after)
        before = after
        if all(k.name != gone for k in session.campaign.character(bearer.id).conditions):
            break
    else:
        pytest.fail("the condition never expired")
    npcs = next(line for line in original.splitlines() if line.startswith("# ---") and "PNJ" in line)
    assert after.count(npcs) == 1
    assert after[after.index(npcs):].startswith(npcs + "\n\n[[characters]]")
    assert headers(after).count("[[characters.conditions]]") == headers(original).count("[[characters.conditions]]") - 1


CONDITIONS = """\
mir = 1

# ---- ce qui gêne Alexis

# la lanterne du geôlier
[[characters.conditions]]
name = "Ébloui par la lanterne"
effect = "−1 dé"
rounds = 1

# Le garde l'a frappé au round 1 :
[[characters.conditions]]
name = "Sonné"             # coup de matraque
effect = "−1 dé"
rounds = 2

[[characters]]
id = "loriane"
"""


def test_a_comment_on_a_condition_stays_with_it(opened):
    text = sample_path("mir").read_text("utf-8")
    old = text[text.index("mir = 1\n"):text.index('id = "loriane"\n') + len('id = "loriane"\n')]
    assert old.count("[[characters.conditions]]") == 1
    text = text.replace(old, CONDITIONS, 1)
    session = opened("mir", text)
    before = text
    seen = []
    for _ in range(30):
        next_turn(session)
        after = saved(session)
        assert_kept(before, after)
        before = after
        names = [k.name for k in session.campaign.character("alexis").conditions]
        seen.append(names)
        if names == ["Sonné"]:
            # The other one expired: Sonné keeps the comment above it and the one after its name.
            assert "# Le garde l'a frappé au round 1 :\n[[characters.conditions]]\n" \
                   'name = "Sonné"             # coup de matraque\n' in after
            assert "# la lanterne du geôlier" not in after and "# ---- ce qui gêne Alexis\n" in after
        if not names:
            break
    else:
        pytest.fail("the conditions never expired")
    assert ["Sonné"] in seen
    assert "# ---- ce qui gêne Alexis\n" in after and "coup de matraque" not in after
    assert "# Le garde" not in after


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_new_session_and_joiners_next_round_keep_the_file(opened, system):
    original = sample_path(system).read_text("utf-8")
    session = opened(system)
    late_joiner(session, NEXT_ROUND)
    fight = table_for(session.system.id).fight
    with session.edit("Session") as b:
        start_session(b, fight, session.campaign)
    after = saved(session)
    assert_kept(original, after)
    assert headers(after).count("[[encounter.entries]]") == headers(original).count("[[encounter.entries]]") + 1


@pytest.mark.parametrize("system", SYSTEMS)
def test_timers_conditions_and_characters_added_and_removed_keep_the_file(opened, system):
    original = sample_path(system).read_text("utf-8")
    session = opened(system)
    with session.edit("Minuteur") as b:
        b.insert(("timers",), None, Timer(id="ronde", label="Ronde", kind="countdown", rounds=2))
    with session.edit("Condition") as b:
        b.insert(("characters", 0, "conditions"), None, Condition("À terre", "", 1))
    added = saved(session)
    assert_kept(original, added)
    assert headers(added).count("[[timers]]") == headers(original).count("[[timers]]") + 1
    notices: list[str] = []
    first = session.campaign.characters[0].id
    with session.edit("Départ") as b:
        remove_character(b, session.campaign, first, notices)
    with session.edit("Minuteur") as b:
        b.delete(("timers",), 0)
    after = saved(session)
    assert_kept(added, after)
    assert_kept(original, after)
    # The heading of the party stays where it was, above whoever is first now.
    party = next(line for line in original.splitlines() if line.startswith("# ---"))
    assert after.count(party + "\n") == 1


# ---------------------------------------------------------------- any sequence of the flows


def _act(session, action: int, pick: int) -> None:
    campaign = session.campaign
    enc = campaign.encounter
    if action == 0:
        next_turn(session)
    elif action == 1:
        previous_turn(session)
    elif action == 2:
        late_joiner(session, THIS_ROUND if pick % 2 else NEXT_ROUND)
    elif action == 3:
        fight_over(session)
    elif action == 4:
        with session.edit("Session") as b:
            start_session(b, table_for(session.system.id).fight, campaign)
    elif action == 5 and enc.entries:
        wait_turn(session, pick % len(enc.entries))
    elif action == 6:
        with session.edit("Tri") as b:
            sort_fairly(b, campaign)
    elif action == 7 and campaign.characters:
        index = pick % len(campaign.characters)
        with session.edit("Condition") as b:
            b.insert(("characters", index, "conditions"), 0 if pick % 2 else None,
                     Condition(f"État {pick}", "", 1 + pick % 3))
    elif action == 8 and campaign.timers:
        with session.edit("Minuteur") as b:
            b.delete(("timers",), pick % len(campaign.timers))
    elif action == 9:
        with session.edit("Minuteur") as b:
            b.insert(("timers",), pick % (len(campaign.timers) + 1),
                     Timer(id=unique_slug(f"t{pick}", {t.id for t in campaign.timers}), label="Ronde",
                           kind="countdown", rounds=2))
    elif action == 10 and len(campaign.characters) > 1:
        with session.edit("Départ") as b:
            remove_character(b, campaign, campaign.characters[pick % len(campaign.characters)].id, [])
    elif action == 11:
        for i, ch in enumerate(campaign.characters):
            if ch.conditions:
                with session.edit("Fin de condition") as b:
                    b.delete(("characters", i, "conditions"), pick % len(ch.conditions))
                break


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(system=st.sampled_from(SYSTEMS), more=st.booleans(),
       steps=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 99)), min_size=1, max_size=8))
def test_any_sequence_of_the_flows_keeps_the_file(tmp_path_factory, system, more, steps):
    path = tmp_path_factory.mktemp("flows") / f"{system}.toml"
    text = sample_path(system).read_text("utf-8")
    path.write_text(annotated(text) if more else text, "utf-8")
    original = before = path.read_text("utf-8")
    with open_session(path) as session:
        for action, pick in steps:
            _act(session, action, pick)
            after = saved(session)
            assert_kept(before, after)
            before = after
    assert not Counter(comments(after)) - Counter(comments(original))      # nothing invented
