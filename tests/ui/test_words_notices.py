"""Issue 24: a condition effect the game cannot read is told on the screen by the names the GM
knows ("Callia · Fièvre grise: …"), not by the file's absolute path and a TOML key path."""

from __future__ import annotations

from gmscreen.ui import GMScreenApp

from _pilot import ready, until


async def test_an_unread_effect_is_told_by_the_characters_and_conditions_names(campaign_file) -> None:
    path = campaign_file("mir")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name = "Fièvre grise"\neffect = "−1 dé"', 'name = "Fièvre grise"\neffect = "sneezes"'),
                    encoding="utf-8")
    app = GMScreenApp(path, language="en")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await ready(app, pilot)
        await until(app, pilot, lambda: any("sneezes" in n.message for n in app.notices))
        [said] = [n.message for n in app.notices if "sneezes" in n.message]
        owner = next(c.name for c in app.session.campaign.characters
                     if any(k.name == "Fièvre grise" for k in c.conditions))
        assert said.startswith(f"{owner} · Fièvre grise: “sneezes” is not an effect MIR can apply"), said
        assert str(path) not in said and "characters[" not in said and "conditions[" not in said


async def test_a_hand_edit_warned_of_at_opening_is_told_by_names(campaign_file) -> None:
    """A control character typed by hand into a note: the notice names the character."""
    path = campaign_file("eclats")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('notes = "Sensible à la magie', 'notes = "\\u0007Sensible à la magie', 1),
                    encoding="utf-8")
    app = GMScreenApp(path, language="en")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await ready(app, pilot)
        await until(app, pilot, lambda: any("U+0007" in n.message for n in app.notices))
        [said] = [n.message for n in app.notices if "U+0007" in n.message]
        assert said.startswith("Ysaure · notes: control character U+0007"), said
        assert str(path) not in said and "characters[" not in said
