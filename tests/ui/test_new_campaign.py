"""The first evening on the screen (issue 24): ctrl+o offers a new campaign (which game, which
file: `gmscreen new`'s template, then opened), tab into the path field replaces the old path,
and an empty roster says what to do first."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label, OptionList

from gmscreen.campaign import load_campaign
from gmscreen.campaign.commands import cmd_new
from gmscreen.i18n import _
from gmscreen.rules import registry
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.edit_character import EditCharacterScreen
from gmscreen.ui.screens.new_campaign import NewCampaignScreen
from gmscreen.ui.screens.open_campaign import OpenCampaignScreen
from gmscreen.ui.widgets.roster.pane import RosterPane

from _pilot import press, ready, to_new_campaign, type_keys, until


async def test_ctrl_o_creates_a_campaign_of_the_game_chosen_and_opens_it(campaign_file, tmp_path,
                                                                        monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)               # a short relative name to type, key by key
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await to_new_campaign(app, pilot)
        games = app.screen.query_one("#new-game", OptionList)
        assert games.highlighted_option.id == "game-mir"       # the game of the campaign open
        systems = list(registry.system_ids())
        steps = systems.index("eclats") - systems.index("mir")
        await press(pilot, *(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
        field = app.screen.query_one("#new-path", Input)
        assert field.has_focus
        await type_keys(app, pilot, "soiree", "enter")  # typed over the proposed name, .toml added
        assert await until(app, pilot, lambda: app.session is not None and app.session.path.name == "soiree.toml")
        await ready(app, pilot)
        made = tmp_path / "soiree.toml"
        assert Path(app.session.path).resolve() == made.resolve()
        assert app.session.campaign.system == "eclats"
        assert [c.id for c in app.session.campaign.characters] == ["example"]
        text = made.read_text(encoding="utf-8")
        assert "# " + _("Rule options of this game (the first value is the rules' default).") in text
        assert load_campaign(made).system == "eclats"


async def test_a_new_campaign_over_an_existing_file_is_refused_and_the_file_kept(campaign_file, tmp_path,
                                                                                monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = GMScreenApp(campaign_file("mir"))
    taken = tmp_path / "taken.toml"
    taken.write_text("# mine\n", encoding="utf-8")
    said: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        app.notify = lambda message, **kw: said.append(str(message))    # what the GM is told
        opened = app.session.path
        await to_new_campaign(app, pilot)
        await press(pilot, "enter")                              # the game highlighted
        await press(pilot, *taken.name, "enter")
        assert isinstance(app.screen, NewCampaignScreen)         # still there: choose another name
        assert len(said) == 1 and taken.name in said[0] and "\n" not in said[0]
        await press(pilot, "escape", "escape")
        assert app.session.path == opened
    assert taken.read_text(encoding="utf-8") == "# mine\n"


async def test_tab_into_the_path_field_replaces_the_old_path(campaign_file, tmp_path, monkeypatch) -> None:
    path = campaign_file("mir")
    other = Path(campaign_file("eclats"))
    monkeypatch.chdir(other.parent)
    other = Path(other.name)                  # a short relative name to type, key by key
    app = GMScreenApp(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await press(pilot, "ctrl+o", "tab")
        field = app.screen.query_one("#open-path", Input)
        assert field.has_focus
        await press(pilot, *str(other))
        assert field.value == str(other)
        await press(pilot, "enter")
        await ready(app, pilot)
        assert app.session.campaign.system == "eclats"


async def test_typing_from_the_list_still_starts_the_path(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await press(pilot, "ctrl+o", *"abc")
        assert isinstance(app.screen, OpenCampaignScreen)
        assert app.screen.query_one("#open-path", Input).value == "abc"


async def test_an_empty_roster_says_what_to_do_first(tmp_path) -> None:
    bare = tmp_path / "bare.toml"
    assert cmd_new(bare, registry.FIRST_RUN) == 0          # the bare file: no character at all
    app = GMScreenApp(bare)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        roster = app.pane("roster")
        assert isinstance(roster, RosterPane)
        hint = roster.query_one("#roster-empty", Label)
        assert hint.display and roster.has_class("-empty")
        assert str(hint.render()) == _(RosterPane.EMPTY_HINT)
        await press(pilot, "1", "a")                           # the key it names opens the add form
        assert isinstance(app.screen, EditCharacterScreen)


async def test_a_campaign_that_fails_to_load_offers_a_new_one_too(tmp_path, monkeypatch) -> None:
    """The first evening's hand-edited file broken: the load-error screen creates a fresh one."""
    from _pilot import load_error_shown

    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text("characters = []\n[[characters]]\n", encoding="utf-8")
    app = GMScreenApp(bad)
    async with app.run_test(size=(100, 30)) as pilot:
        await load_error_shown(app, pilot)
        app.screen.query_one("#open-choices", OptionList).focus()
        await to_new_campaign(app, pilot, opening=False)
        await press(pilot, "enter", *"fresh.toml", "enter")
        await ready(app, pilot)
        assert app.session.path.name == "fresh.toml"
        assert app.session.campaign.system == list(registry.system_ids())[0]
    assert bad.read_text(encoding="utf-8") == "characters = []\n[[characters]]\n"
