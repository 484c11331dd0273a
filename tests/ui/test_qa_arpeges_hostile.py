"""QA: the Arpèges sample through real keys (declared actions), hostile text, themes and --ascii."""

from __future__ import annotations

import random

from gmscreen.ui.widgets.tray.dice_tray import DiceTray
from gmscreen.ui.widgets.initiative.pane import InitiativePane

from _pilot import ready


async def test_declared_actions_apply_to_the_quick_roll(pane_host, open_sample):
    """Actions declared in the queue (`d`) take −3 each on the actor's roll (R12), without `x2`."""
    session = open_sample("arpeges")
    app = pane_host(session, lambda: InitiativePane(id="initiative"),
                    lambda: DiceTray(id="dice-tray", rng=random.Random(3)))
    async with app.run_test(size=(80, 24)) as pilot:
        tray = app.query_one(DiceTray)
        for line in ("thibault baratin -3", "marchand baratin -3", "thibault baratin -3 x1",
                     "thibault baratin -3 vs marchand baratin", "thibault baratin vs marchand baratin"):
            tray.focus_line()
            tray.line.value = line
            await pilot.press("enter")
            await pilot.pause()
            if tray.flow is not None:                       # a parry asked: let it through
                await pilot.press("n")
                await pilot.pause()
        requests = [r.request for r in session.rolls]
        assert requests[0]["simultaneous_actions"] == 2     # the sample declares two for Thibault
        assert requests[0]["skill_level"] == 4 and session.rolls[0].result["final_difficulty"] == -2
        assert "simultaneous_actions" not in requests[1]     # Gorlois declared nothing
        assert "simultaneous_actions" not in requests[2]     # `x1` overrides the declaration
        assert requests[3]["simultaneous_actions"] == 2      # a confrontation too
        assert requests[4]["kind"] == "opposed_one_roll"     # an opposition is not refused


async def test_edit_form_shows_escapes_neutralised_and_keeps_them(pane_host, open_sample):
    """An ESC in a name, note or skill from the file never reaches the terminal through the form's
    fields, and saving an untouched field keeps its characters as they were in the file."""
    from gmscreen.campaign.model import Character
    from gmscreen.ui.screens.edit_character import EditCharacterScreen
    from gmscreen.ui.widgets.roster.pane import RosterPane

    session = open_sample("arpeges")
    name, notes, skill = "Bob\x1b]2;pwn\x07", "[red]x[/red]\x1b[2J", "Lame\x1b]2;x\x07"
    session.campaign.characters.insert(0, Character(
        id="bob", name=name, side="npc", notes=notes,
        sheet={"caracteristiques": {"corps": 1, "agilite": 0, "intuition": 0, "intelligence": 0},
               "moyens": {"puissance": 0, "resistance": 0, "manoeuvre": 0, "precision": 0},
               "skills": {skill: 2, "[b]Épée[/b]": 1}}))
    app = pane_host(session, lambda: RosterPane(id="roster"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.select_character("bob")
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EditCharacterScreen)
        fields = [form.query_one("#f-name").value, form.query_one("#f-notes").text,
                  form.query_one("#group-skills").text]
        assert not any("\x1b" in f or "\x07" in f for f in fields)
        assert fields[0] == "Bob\ufffd]2;pwn\ufffd" and "[b]Épée[/b] = 1" in fields[2]
        form.query_one("#stat-caracteristiques-corps").value = "2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EditCharacterScreen)
        bob = session.campaign.character("bob")
        assert bob.name == name and bob.notes == notes
        assert bob.sheet["skills"] == {skill: 2, "[b]Épée[/b]": 1}
        assert bob.sheet["caracteristiques"]["corps"] == 2


async def test_palette_roll_line_for_a_name_with_an_escape_parses(campaign_file):
    """"Roll <name> <skill>" puts the names as shown (ESC → U+FFFD); the line must still parse."""
    from gmscreen.ui import GMScreenApp
    from gmscreen.ui.palette import GMScreenCommands
    from gmscreen.ui.widgets.tray.dice_tray import DiceTray

    path = campaign_file("arpeges")
    text = path.read_text(encoding="utf-8")
    text = text.replace('name = "Thibault"', 'name = "Bob\\u001b]2;pwn\\u0007"', 1)
    text = text.replace("Baratin = -1", '"Bara\\u001btin" = -1', 1)
    path.write_text(text, encoding="utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        hits = [h async for h in GMScreenCommands(app.screen).search("Roll Bob Bara")]
        hit = next(h for h in hits if h.text == "Roll Bob\ufffd]2;pwn\ufffd Bara\ufffdtin")
        hit.command()
        await pilot.pause()
        tray = app.query_one(DiceTray)
        assert tray.line.value == "Bob\ufffd]2;pwn\ufffd Bara\ufffdtin "
        tray.line.value += "-3"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        record = app.session.rolls[-1]
        assert record.who == "Bob\x1b]2;pwn\x07" and record.request["skill_level"] == 4


def _contrast(a, b) -> float:
    def lum(c) -> float:
        def ch(v: int) -> float:
            v = v / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


async def test_light_theme_frames_of_unfocused_panes_are_visible(campaign_file):
    """At 80×24 with the line focused, the main pane's frame must still show on the light theme."""
    from textual.color import Color
    from gmscreen.ui import GMScreenApp

    app = GMScreenApp(campaign_file("arpeges"), theme="gmscreen-light")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("slash")
        await pilot.pause()
        roster = app.query_one("#roster")
        assert not roster.has_focus_within
        frame = roster.styles.border_top[1]
        behind = roster.styles.background if roster.styles.background.a else Color.parse(
            app.current_theme.background)
        assert _contrast(frame.rgb, behind.rgb) >= 2.5


async def test_ascii_mode_shows_the_quick_roll_line_and_no_box_drawing(campaign_file):
    """--ascii: the one-line quick-roll field keeps its text visible (an ASCII border on a
    compact Input hid it) and no box-drawing or arrow glyph is left in the chrome."""
    import re

    from gmscreen.ui import GMScreenApp

    app = GMScreenApp(campaign_file("arpeges"), ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("slash", "s", "i", "b")
        await pilot.pause()
        line = app.query_one("#quick-roll")
        assert line.value == "sib" and line.content_region.height == 1 and line.styles.border_top[0] in ("", "none")
        texts = []
        for pane in ("1", "2", "3", "4"):
            await pilot.press("escape", pane)
            await pilot.pause()
            texts.append(app.export_screenshot())
        shown = "\n".join(texts)
        assert not re.search("[\u2190-\u21ff\u2500-\u259f\u23ce\u25b6\u29d7]", shown), \
            sorted(set(re.findall("[\u2190-\u21ff\u2500-\u259f\u23ce\u25b6\u29d7]", shown)))
        assert "·" not in app.query_one("#dice-tray").border_title
