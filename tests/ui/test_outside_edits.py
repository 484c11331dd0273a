"""The screen and a campaign file edited by someone else while it is open: taken in and said
when nothing is unsaved; asked about (three one-key choices) when both changed, with no save
while the question is open."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import pytest

from gmscreen.campaign import load_campaign
from gmscreen.ui import GMScreenApp, autosave
from gmscreen.ui.screens.disk_conflict import DiskConflictScreen
from gmscreen.ui.widgets.roster.pane import RosterPane

from _pilot import ready


def roster_names(app) -> str:
    pane = app.pane("roster")
    table = (pane if isinstance(pane, RosterPane) else pane.query_one(RosterPane)).table
    return " ".join(str(table.get_row_at(r)[1]) for r in range(table.row_count))


@pytest.fixture(autouse=True)
def slower_autosave(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests edit the file by hand between a change and its autosave: give that window
    1.5 s rather than 0.5 s, so a busy machine (a key taking half a second) cannot close it."""
    monkeypatch.setattr(autosave, "SAVE_DELAY", 1.5)


def edit_by_hand(path, old: str, new: str) -> bytes:
    text = path.read_text("utf-8")
    assert old in text
    data = ("# modifié à la main\n" + text.replace(old, new, 1)).encode("utf-8")
    path.write_bytes(data)
    return data


@asynccontextmanager
async def screen_on(path) -> AsyncIterator[tuple[GMScreenApp, Any]]:
    """The whole screen on `path`, running, its notifications kept."""
    app = GMScreenApp(path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        yield app, pilot


async def settle(app, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def hand_edit_seen(app, pilot, path, old: str, new: str) -> bytes:
    """Once the screen is up, the file edited by hand and the screen's look at it done."""
    await ready(app, pilot)
    theirs = edit_by_hand(path, old, new)
    await app.disk_watch.look()
    await settle(app, pilot)
    return theirs


def notified(app, words: str, severity: str | None = None) -> bool:
    """A notification saying `words` (of that severity, when one is given) was shown."""
    return any(words in n.message and (severity is None or n.severity == severity) for n in app.notices)


async def test_a_hand_edit_is_taken_in_refreshed_and_said(campaign_file) -> None:
    path = campaign_file("mir")
    async with screen_on(path) as (app, pilot):
        theirs = await hand_edit_seen(app, pilot, path, 'name = "Loriane"', 'name = "Loriane la Sage"')
        assert app.session.campaign.character("loriane").name == "Loriane la Sage"
        assert "Loriane la Sage" in roster_names(app)
        assert notified(app, "modifié sur le disque", "information")
        assert path.read_bytes() == theirs
    assert path.read_bytes() == theirs                   # quitting wrote nothing over it


async def both_changed(app, pilot, path, answer: str) -> tuple[bytes, int]:
    """Our change and a hand edit, the question asked and kept through an autosave, then
    `answer` pressed: the bytes the hand wrote, and the turn our change had made."""
    await ready(app, pilot)
    turn = app.session.campaign.encounter.turn
    await pilot.press("n")                               # our change, saved half a second later
    assert app.session.campaign.encounter.turn != turn and app.session.dirty
    theirs = edit_by_hand(path, 'name = "Loriane"', 'name = "Loriane la Sage"')
    await app.disk_watch.look()
    await pilot.pause()
    assert isinstance(app.screen, DiskConflictScreen)
    await asyncio.sleep(autosave.SAVE_DELAY + 0.3)                # the autosave comes and goes: nothing written
    await settle(app, pilot)
    assert path.read_bytes() == theirs and app.session.dirty
    assert isinstance(app.screen, DiskConflictScreen)
    ours = app.session.campaign.encounter.turn
    await pilot.press(answer)
    await settle(app, pilot)
    return theirs, ours


async def test_both_changed_keep_mine(campaign_file) -> None:
    path = campaign_file("mir")
    async with screen_on(path) as (app, pilot):
        theirs, turn = await both_changed(app, pilot, path, "m")
        assert not isinstance(app.screen, DiskConflictScreen)
        (side,) = path.parent.glob("mir.toml.theirs-*")
        assert side.read_bytes() == theirs
        assert load_campaign(path).encounter.turn == turn and not app.session.dirty
        assert notified(app, "celle du disque est gardée")


async def test_both_changed_take_theirs(campaign_file) -> None:
    path = campaign_file("mir")
    async with screen_on(path) as (app, pilot):
        theirs, _ = await both_changed(app, pilot, path, "t")
        assert not isinstance(app.screen, DiskConflictScreen)
        assert app.session.campaign.character("loriane").name == "Loriane la Sage"
        assert "Loriane la Sage" in roster_names(app)
        (side,) = path.parent.glob("mir.toml.mine-*")
        assert load_campaign(side).encounter.turn != load_campaign(path).encounter.turn
    assert path.read_bytes() == theirs


async def test_both_changed_keep_both(campaign_file) -> None:
    path = campaign_file("mir")
    async with screen_on(path) as (app, pilot):
        theirs, turn = await both_changed(app, pilot, path, "b")
        (side,) = path.parent.glob("mir.mine-*.toml")
        assert load_campaign(side).encounter.turn == turn
        assert app.session.campaign.character("loriane").name == "Loriane la Sage"
    assert path.read_bytes() == theirs


async def test_one_turn_saved_by_the_screen_keeps_every_comment(campaign_file) -> None:
    path = campaign_file("arpeges")
    before = path.read_text("utf-8").splitlines()
    app = GMScreenApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        await pilot.press("n")
        await asyncio.sleep(autosave.SAVE_DELAY + 0.3)
        await settle(app, pilot)
        assert not app.session.dirty
    after = path.read_text("utf-8").splitlines()
    removed = [line for line in before if line not in after]
    added = [line for line in after if line not in before]
    assert removed == ["turn = 1                     # au tour de maître Gorlois"]
    # The turn, and its record for `p` (what it ticked: nothing here) at the end of [encounter]
    # (its `round = 1` line is one the file already has).
    assert sorted(added) == ["[[encounter.ticks]]", 'actor = "gorlois"', 'following = "sibylle"',
                             "revision = 1", "round_after = 1",
                             "turn = 2                     # au tour de maître Gorlois"]
    at = after.index("[[encounter.ticks]]")
    assert after[at:at + 5] == ["[[encounter.ticks]]", "round = 1", 'actor = "gorlois"', "round_after = 1",
                                'following = "sibylle"']
    assert [line for line in before if line.lstrip().startswith("#")] == \
        [line for line in after if line.lstrip().startswith("#")]


async def test_a_conflict_found_by_the_autosave_is_asked_at_the_next_look(campaign_file) -> None:
    path = campaign_file("eclats")
    async with screen_on(path) as (app, pilot):
        await ready(app, pilot)
        await pilot.press("n")
        theirs = edit_by_hand(path, "session = ", "session = 1")
        for _ in range(200):                                 # the autosave looks first, and stops
            await asyncio.sleep(0.05)
            if app.session.disk_conflict is not None:
                break
        await settle(app, pilot)
        assert path.read_bytes() == theirs and app.session.disk_conflict is not None
        await app.disk_watch.look()
        await pilot.pause()
        assert isinstance(app.screen, DiskConflictScreen)
        await pilot.press("escape", "q")                     # not an answer: the question stays
        assert isinstance(app.screen, DiskConflictScreen)
        await pilot.press("b")
        await settle(app, pilot)
        assert not isinstance(app.screen, DiskConflictScreen)
    (side,) = path.parent.glob("eclats.mine-*.toml")
    assert path.read_bytes() == theirs and load_campaign(side).session != load_campaign(path).session


async def test_a_hand_edit_that_does_not_load_is_said_and_left_alone(campaign_file) -> None:
    path = campaign_file("tedeum")
    async with screen_on(path) as (app, pilot):
        broken = await hand_edit_seen(app, pilot, path, "session = ", "session = [")
        assert notified(app, "ne se charge pas", "error")
        assert not isinstance(app.screen, DiskConflictScreen)
    assert path.read_bytes() == broken


async def test_opening_and_quitting_the_screen_without_a_change_writes_nothing(campaign_file) -> None:
    path = campaign_file("magisphere")
    log = path.with_name("magisphere.rolls.toml")
    log.write_bytes(b"format = 1\n\n[[roll]]\nseq = 1\ntime = \"2025-")        # torn by a crash
    folder = path.parent
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}
    app = GMScreenApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        await app.disk_watch.look()
        await settle(app, pilot)
        await pilot.press("q")
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.is_file()}
    assert after == before


async def test_nothing_is_taken_in_while_a_dialog_is_open(campaign_file) -> None:
    path = campaign_file("mir")
    app = GMScreenApp(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert len(app.screen_stack) > 1
        edit_by_hand(path, 'name = "Loriane"', 'name = "Loriane la Sage"')
        await app.disk_watch.look()
        await settle(app, pilot)
        assert app.session.campaign.character("loriane").name == "Loriane"
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.screen_stack) == 1
        await app.disk_watch.look()
        await settle(app, pilot)
        assert app.session.campaign.character("loriane").name == "Loriane la Sage"


async def test_a_campaign_swapped_for_a_link_keep_mine_never_writes_through_it(campaign_file, tmp_path) -> None:
    """git or a zip turned the open campaign into `mir.toml -> ../bashrc`: the GM is asked, and `m`
    keeps the link aside as it is and writes the campaign in its place; the target is untouched."""
    import os

    path = campaign_file("mir")
    sentinel = tmp_path / "bashrc"
    sentinel.write_bytes(b"export KEEP=1\n")
    async with screen_on(path) as (app, pilot):
        await ready(app, pilot)
        await pilot.press("n")
        turn = app.session.campaign.encounter.turn
        path.unlink()
        path.symlink_to(os.path.relpath(sentinel, path.parent))
        await app.disk_watch.look()
        await pilot.pause()
        assert isinstance(app.screen, DiskConflictScreen)
        await pilot.press("m")
        await settle(app, pilot)
        (side,) = path.parent.glob("mir.toml.theirs-*")
        assert side.is_symlink() and not path.is_symlink()
        assert load_campaign(path).encounter.turn == turn
    assert sentinel.read_bytes() == b"export KEEP=1\n"
