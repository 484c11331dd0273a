"""The campaign form (ctrl+e, issue 24): name, notes, initiative dice and rule options, checked
as the file is when it loads; a refused value is one line and nothing changes; accepted, one
undoable change."""

from __future__ import annotations

import inspect

from textual.widgets import Input, Static

from gmscreen.campaign.paths import journal_path
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.campaign_form import CampaignFormScreen

from _pilot import press, ready, type_keys


async def _form(app, pilot) -> CampaignFormScreen:
    await press(pilot, "ctrl+e")
    assert isinstance(app.screen, CampaignFormScreen)
    return app.screen


async def test_the_form_changes_name_initiative_and_a_rule_in_one_undoable_change(campaign_file) -> None:
    path = campaign_file("eclats")
    app = GMScreenApp(path)
    async with app.run_test(size=(100, 40)) as pilot:
        await ready(app, pilot)
        before = app.session.campaign
        name, initiative, rules = before.name, before.initiative, dict(before.rules)
        form = await _form(app, pilot)
        assert form.query_one("#field-name", Input).has_focus
        await type_keys(app, pilot, "La nuit des lames", "tab", "ctrl+u")
        await type_keys(app, pilot, "1d10+2")
        form.query_one("#field-rule-single_zero", Input).focus()
        await press(pilot, "ctrl+u")
        await type_keys(app, pilot, "automatic_failure", "enter")
        assert not isinstance(app.screen, CampaignFormScreen)
        campaign = app.session.campaign
        assert (campaign.name, campaign.initiative) == ("La nuit des lames", "1d10+2")
        assert campaign.rules["single_zero"] == "automatic_failure"
        assert "La nuit des lames" in journal_path(path).read_text(encoding="utf-8")    # kept on disk
        await press(pilot, "ctrl+z")                       # one change: one undo takes it all back
        campaign = app.session.campaign
        assert (campaign.name, campaign.initiative, campaign.rules) == (name, initiative, rules)


async def test_a_value_the_file_would_refuse_is_said_once_and_nothing_changes(campaign_file) -> None:
    path = campaign_file("eclats")
    app = GMScreenApp(path)
    async with app.run_test(size=(100, 40)) as pilot:
        await ready(app, pilot)
        revision = app.session.campaign.revision
        files = {p: p.read_bytes() for p in (path, journal_path(path)) if p.exists()}
        form = await _form(app, pilot)
        form.query_one("#field-initiative", Input).focus()
        await press(pilot, "ctrl+u", *"3d", "enter")
        assert isinstance(app.screen, CampaignFormScreen)  # still open: fix it or escape
        error = str(form.query_one("#dialog-error", Static).render())
        assert error.startswith("initiative:") and "\n" not in error
        assert form.query_one("#field-initiative", Input).has_class("-invalid")
        form.query_one("#field-initiative", Input).value = "1d10"
        form.query_one("#field-rule-level3_second_zero", Input).focus()
        await press(pilot, "ctrl+u")
        await type_keys(app, pilot, "sometimes", "enter")
        error = str(form.query_one("#dialog-error", Static).render())
        assert "rules.level3_second_zero" in error and "automatic_failure" in error
        assert form.query_one("#field-rule-level3_second_zero", Input).has_class("-invalid")
        assert not form.query_one("#field-initiative", Input).has_class("-invalid")
        await press(pilot, "escape")
        assert app.session.campaign.revision == revision
        assert {p: p.read_bytes() for p in (path, journal_path(path)) if p.exists()} == files


async def test_the_game_without_rule_options_asks_only_the_campaign_fields(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(100, 40)) as pilot:
        await ready(app, pilot)
        form = await _form(app, pilot)
        assert [f.name for f in form.fields] == ["name", "initiative", "notes"]
        await press(pilot, "ctrl+u", "enter")              # an empty name: the file's own refusal
        assert isinstance(app.screen, CampaignFormScreen)
        assert str(form.query_one("#dialog-error", Static).render()).startswith("name:")


async def test_the_palette_opens_the_form_in_either_language(campaign_file) -> None:
    from gmscreen.ui.palette import GMScreenCommands

    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(100, 40)) as pilot:
        await ready(app, pilot)
        provider = GMScreenCommands(app.screen)
        for words in ("Campaign settings", "Réglages de la campagne"):
            hits = [hit async for hit in provider.search(words)]
            assert hits, words
        hit = next(h for h in [hit async for hit in provider.search("Réglages de la campagne")])
        ran = hit.command()
        if inspect.isawaitable(ran):
            await ran
        await pilot.pause()
        assert isinstance(app.screen, CampaignFormScreen)
