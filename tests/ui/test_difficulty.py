"""Difficulty reference pane: rows, per-row odds of the draft, choosing a row."""

from __future__ import annotations

import pytest

from gmscreen.i18n import _
from gmscreen.rules import SYSTEMS, get_system, odds
from gmscreen.play import chances
from gmscreen.play import events as ev
from gmscreen.ui.widgets.difficulty.pane import DifficultyPane, chance_text

from _pilot import GM_COLOURS


def _host(pane_host, session):
    class Host(pane_host):
        def get_theme_variable_defaults(self):
            return {**super().get_theme_variable_defaults(), **GM_COLOURS}

    host = Host(session, lambda: DifficultyPane(id="difficulty"))
    host.chosen = []            # the rows the GM chose, as the table tells them
    host.table.subscribe(lambda e: host.chosen.append(e.value) if isinstance(e, ev.DifficultyChosen) else None)
    return host


def _prompts(pane: DifficultyPane) -> list[str]:
    return [str(option.prompt) for option in pane.rows.options]


def test_chance_text():
    assert chance_text(None) == "—"
    assert chance_text(0.6012) == "60\u202f%"
    assert chance_text(0.5954) == "59,5\u202f%"        # a half is not rounded away
    assert chance_text(0.001) == "0,1\u202f%"          # not "0 %": it may happen
    assert chance_text(0.999) == "99,9\u202f%"         # not "100 %": it may fail
    assert chance_text(0.125) == "12,5\u202f%"         # not "12 %"
    assert chance_text(1.0) == "100\u202f%"
    assert chance_text(0.0) == "0\u202f%"


def test_chance_text_in_english(english):
    assert chance_text(0.6012) == "60%"
    assert chance_text(0.001) == "0.1%"
    assert chance_text(0.125) == "12.5%"


@pytest.mark.parametrize("system", tuple(SYSTEMS))
async def test_rows_are_the_system_table(pane_host, open_sample, system):
    app = _host(pane_host, open_sample(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.query_one(DifficultyPane)
        prompts = _prompts(pane)
        table = get_system(system).difficulties
        for row in table:
            assert any(row.label in p and str(row.value).lstrip("+").replace("-", "\u2212") in p
                       for p in prompts), row
        # no draft yet: no chance shown
        assert all("%" not in p for p in prompts)
        for title, extra in get_system(system).extra_tables:
            assert any(_(title) in p for p in prompts)
            assert all(any(_(r.label) in p for p in prompts) for r in extra)


async def test_per_row_odds_equal_rules_odds_and_current_row_marked(pane_host, open_sample):
    app = _host(pane_host, open_sample("mir"))
    draft = {"system": "mir", "kind": "simple", "pool": 5, "difficulty": 3}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.query_one(DifficultyPane).show_draft(draft, "Loriane éloquence")
        await pilot.pause()
        pane = app.query_one(DifficultyPane)
        prompts = _prompts(pane)
        for row, prompt in zip(get_system("mir").difficulties, prompts):
            expected = odds({**draft, "difficulty": row.value})["chance"]
            assert chance_text(expected) in prompt, (row, prompt)
        marked = [p for p in prompts if p.startswith("▶")]
        assert len(marked) == 1 and "Moyenne" in marked[0]
        assert chance_text(odds(draft)["chance"]) == "59,5\u202f%" and "59,5\u202f%" in marked[0]
        assert pane.rows.highlighted == 3
        # the same draft again computes nothing new
        computed = chances.computed
        app.query_one(DifficultyPane).show_draft(dict(draft), "Loriane éloquence")
        app.query_one(DifficultyPane).show_draft({**draft, "difficulty": 4}, "Loriane éloquence")
        await pilot.pause()
        assert chances.computed == computed
        assert [p for p in _prompts(pane) if p.startswith("▶")][0].count("Difficile") == 1


async def test_opposed_draft_shows_dash(pane_host, open_sample):
    app = _host(pane_host, open_sample("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.query_one(DifficultyPane).show_draft({"system": "mir", "kind": "opposed", "actor_pool": 5, "opponent_pool": 4}, "callia vs garde")
        await pilot.pause()
        pane = app.query_one(DifficultyPane)
        prompts = _prompts(pane)[: len(get_system("mir").difficulties)]
        assert all("—" in p and "%" not in p for p in prompts)
        assert "opposition" in str(pane.query_one("#difficulty-test").render())


async def test_enter_on_a_row_chooses_its_value(pane_host, open_sample):
    app = _host(pane_host, open_sample("tedeum"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.query_one(DifficultyPane).show_draft({"system": "tedeum", "kind": "simple", "die": 8, "skill": 2, "negative_die": 6,
                       "difficulty": 7}, "louvensac charme")
        await pilot.pause()
        app.query_one(DifficultyPane).focus()
        await pilot.pause()
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.chosen == [13]          # Par défaut (7) highlighted, two down: Périlleux 13
        await pilot.press("up", "up", "up", "enter")
        await pilot.pause()
        assert app.chosen == [13, 5]


async def test_reference_rows_are_not_chosen(pane_host, open_sample):
    app = _host(pane_host, open_sample("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.query_one(DifficultyPane)
        pane.focus()
        await pilot.press("end", "enter")
        await pilot.pause()
        assert app.chosen == []
        await pilot.press("home", "enter")
        await pilot.pause()
        assert app.chosen == [0]


async def test_hostile_draft_label_is_literal(pane_host, open_sample):
    app = _host(pane_host, open_sample("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for label in ("[/]", "[@click=app.quit]", "Orc [A]", "Bob\x1b]2;pwn\x07"):
            app.query_one(DifficultyPane).show_draft({"system": "mir", "kind": "simple", "pool": 3, "difficulty": 2}, label)
            await pilot.pause()
            shown = str(app.query_one("#difficulty-test").render())
            assert label.split("\x1b")[0] in shown
            assert "\x1b" not in shown and "\x07" not in shown
        assert app.is_running
