"""Every dialog shows where the focus is, in 16 and in 256 colours (issue: a faint focus over
SSH). Each is opened with the keys a GM uses and gone round with tab: the field, the button or
the list line with the focus is drawn otherwise than without it, on the 16-colour theme and on
the default one, as both kinds of terminal show them. The look is written once (`Dialog`)."""

from __future__ import annotations

import pytest

from gmscreen.ui import GMScreenApp, autosave
from gmscreen.ui.screens.dialog import Dialog
from gmscreen.ui.screens.disk_conflict import DiskConflictScreen
from gmscreen.ui.screens.edit_character import EditCharacterScreen

from _focus import faint_focus, focused_in_turn
from _pilot import load_error_shown, press, ready, to_new_campaign


@pytest.mark.parametrize("keys, dialog, stops", [
    (("1", "d"), "PromptScreen", ["Input#field-count", "Button#cancel", "Button#ok"]),
    (("1", "x"), "ConfirmScreen", ["Button#no", "Button#yes"]),
    (("1", "c"), "ConditionScreen", ["Input#field-name", "Input#field-effect", "Input#field-rounds",
                                     "OptionList#presets", "Button#cancel", "Button#ok"]),
    (("2", "a"), "ChoiceScreen", ["OptionList#choices"]),
    (("ctrl+e",), "CampaignFormScreen", None),
    (("ctrl+o",), "OpenCampaignScreen", ["Input#open-path", "OptionList#open-choices"]),
], ids=lambda v: v if isinstance(v, str) else None)
async def test_tab_round_each_dialog_the_focus_stands_out(campaign_file, keys, dialog, stops) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, *keys)
        assert type(app.screen).__name__ == dialog and isinstance(app.screen, Dialog)
        turn = focused_in_turn(app)
        if stops is not None:
            assert turn == stops                   # tab goes field to field, never to a blank stop
        assert await faint_focus(app, pilot, ["tab"] * len(turn)) == []


async def test_the_character_form_s_last_fields_and_buttons_stand_out(campaign_file) -> None:
    """The first fields are the character form's own test (test_character_form_keys); here back
    from the name with shift+tab: Save, Cancel, the notes — and the scroll of the form is no stop."""
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "1", "e")
        assert isinstance(app.screen, EditCharacterScreen)
        assert focused_in_turn(app)[0] == "Input#f-name"
        await press(pilot, "shift+tab")
        assert app.focused.id == "save"
        assert await faint_focus(app, pilot, ["shift+tab", "shift+tab", "tab"]) == []


async def test_the_new_campaign_dialog_stands_out(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await to_new_campaign(app, pilot)
        assert focused_in_turn(app) == ["OptionList#new-game", "Input#new-path"]
        assert await faint_focus(app, pilot, ["tab", "tab"]) == []


async def test_the_load_error_screen_stands_out(campaign_file) -> None:
    path = campaign_file("mir")
    path.write_text(path.read_text(encoding="utf-8").replace('system = "mir"', 'system = 3'), encoding="utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await load_error_shown(app, pilot)
        turn = focused_in_turn(app)
        assert set(turn) == {"VerticalScroll#problems", "Input#open-path", "OptionList#open-choices"}
        assert await faint_focus(app, pilot, ["tab"] * len(turn)) == []


async def test_the_disk_conflict_has_no_stop_to_lose_the_focus_in(campaign_file, monkeypatch) -> None:
    """Its answers are letters (t, m, b): no field nor button, tab reaches nothing, and should a
    widget come, the dialog's look shows its focus (a `Dialog` too)."""
    monkeypatch.setattr(autosave, "SAVE_DELAY", 60.0)          # our change stays unsaved
    path = campaign_file("mir")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "n")
        assert app.session.dirty
        path.write_text(path.read_text(encoding="utf-8").replace('name = "Loriane"', 'name = "Lo"', 1),
                        encoding="utf-8")
        await app.disk_watch.look()
        await press(pilot, "tab")
        assert isinstance(app.screen, DiskConflictScreen) and isinstance(app.screen, Dialog)
        assert focused_in_turn(app) == [] and app.focused is None
        await press(pilot, "m")
        assert not isinstance(app.screen, DiskConflictScreen)
