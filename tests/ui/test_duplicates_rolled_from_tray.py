"""A duplicated NPC rolled from the tray by its number, the whole screen at 80×24, real keys:
`d` on the roster makes 'Le garde de la porte 2' and '… 3', `/` then `garde 2 …` rolls the copy,
`garde3` + tab completes to a line that rolls the other, the base name alone is refused."""

from __future__ import annotations

from gmscreen.ui import GMScreenApp

from _pilot import press, ready, type_keys


async def test_a_duplicated_npc_is_rolled_from_the_tray_by_its_number(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "1", *["up"] * 8, "down", "down", "down", "d")   # Le garde de la porte
        await press(pilot, "backspace", "2", "enter")
        campaign = app.session.campaign
        assert [c.name for c in campaign.characters if c.name.startswith("Le garde")] == [
            "Le garde de la porte", "Le garde de la porte 2", "Le garde de la porte 3"]
        tray = app.pane("dice-tray")

        await press(pilot, "slash")
        await type_keys(app, pilot, "garde 2 instinct sd2", "enter")
        record = app.session.rolls[-1]
        assert record.who == "Le garde de la porte 2" and record.result["kind"] == "simple"
        assert tray.line.value == ""

        await type_keys(app, pilot, "garde3", "tab")
        assert tray.line.value == "le garde de la porte 3 "
        await type_keys(app, pilot, "instinct sd1", "enter")
        assert app.session.rolls[-1].who == "Le garde de la porte 3"

        count = len(app.session.rolls)
        await type_keys(app, pilot, "garde instinct sd2", "enter")
        assert len(app.session.rolls) == count                 # which garde? nothing rolled
        assert "Le garde de la porte 3" in str(tray.info.render())
