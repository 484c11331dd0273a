"""Two copies of an NPC ("Garde du Louvre", "Garde du Louvre 2") who rolled read apart in the
roll log's name column at 80 columns: the copy's number is kept where the name is cut."""

from __future__ import annotations

from gmscreen.ui import GMScreenApp

from _pilot import press, ready, screen_text, type_keys


async def test_two_copies_read_apart_in_the_log_at_80_columns(campaign_file) -> None:
    path = campaign_file("mir")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name = "Le garde de la porte"', 'name = "Garde du Louvre"'), encoding="utf-8")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "1", "end", "up", "d", "enter")     # the guard, copied once
        names = [c.name for c in app.session.campaign.characters]
        assert "Garde du Louvre 2" in names
        await press(pilot, "end", "up")                         # the copy (rows: …, guard, copy, gaoler)
        assert app.selected_id != "garde"
        await press(pilot, "slash")
        await type_keys(app, pilot, "instinct secret sd2", "enter", "escape", "1", "up")
        assert app.selected_id == "garde"
        await press(pilot, "slash")
        await type_keys(app, pilot, "instinct secret sd2", "enter", "escape", "4")
        assert [r.who for r in app.session.rolls[-2:]] == ["Garde du Louvre 2", "Garde du Louvre"]
        rows = [r for r in screen_text(app) if " instinct secret sd2 " in r]     # the log's two rows
        assert len(rows) == 2, screen_text(app)
        # the name column: between the GM-only mark (an NPC's roll) and the test
        shown = [r.split("\u25c6 ", 1)[1].split(" instinct", 1)[0].strip() for r in rows]
        assert shown[0] != shown[1] and shown[0].endswith(" 2") and not shown[1].endswith(" 2"), shown
        assert all(name.startswith("Garde du") for name in shown), shown
