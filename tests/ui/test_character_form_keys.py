"""The character form, typed in as a GM does: Space in the notes types a space, a key typed
after a Tab left the notes for a button goes on into the notes (Space never presses Save),
Enter on Save saves; and the field with the focus stands out in 256 and 16 colours, on the
16-colour theme and on the default one alike."""

from __future__ import annotations

from rich.color import ColorSystem

from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.edit_character import EditCharacterScreen

from _focus import apart, cells
from _pilot import ready


async def test_space_types_in_the_notes_and_never_presses_save(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("1", "a")                        # a new character: empty notes
        form = app.screen
        assert isinstance(form, EditCharacterScreen)
        # the name, then back past Save and Cancel to the notes (the form's scroll is no stop)
        await pilot.press(*"Ada", "shift+tab", "shift+tab", "shift+tab")
        notes = form.query_one("#f-notes")
        assert app.focused is notes
        await pilot.press("a", "space", "b", "tab", "tab")  # typed, then a Tab twice: Save has the focus
        assert app.focused is form.query_one("#save") and notes.text == "a b"
        await pilot.press("space", "c")                    # still typing: into the notes, nothing saved
        await pilot.pause()
        assert app.screen is form and app.focused is notes and notes.text == "a b c"
        assert [c.name for c in app.session.campaign.characters if c.name == "Ada"] == []
        await pilot.press("tab", "tab", "enter")           # Save, gone to on purpose, and Enter
        await pilot.pause()
        assert not isinstance(app.screen, EditCharacterScreen)
        ada = next(c for c in app.session.campaign.characters if c.name == "Ada")
        assert ada.notes == "a b c"


async def test_the_focused_field_stands_out_in_16_and_256_colours(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"), theme="gmscreen-ansi")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("1", "e")
        form = app.screen
        assert isinstance(form, EditCharacterScreen)
        for theme in ("gmscreen-ansi", "gmscreen-dark"):
            app.theme = theme
            await pilot.pause()
            seen = {}
            # (the field, the one next to it that takes the focus instead)
            for wid, other in (("#f-name", "#f-side"), ("#f-side", "#f-name"),
                               ("#stat-voies-heritage", "#stat-voies-secret")):
                field = form.query_one(wid)
                field.focus()
                await pilot.press("end") if wid != "#f-side" else await pilot.pause()   # typing: no selection
                focused = {system: cells(app, field, system) for system in (ColorSystem.STANDARD,
                                                                             ColorSystem.EIGHT_BIT)}
                form.query_one(other).focus()
                await pilot.pause()
                for system, looked in focused.items():
                    blurred = cells(app, field, system)
                    assert len(looked) == len(blurred) > 0
                    # every cell's background (not the cursor's alone, not a colour on blanks)
                    seen[(wid, system.name)] = all(apart(a[1], b[1]) or a[2] != b[2] for a, b in zip(looked, blurred))
            assert all(seen.values()), (theme, seen)
