"""Conditions that bite, on the screen at 80×24 from the keyboard: the odds row names the
condition applied with the chance before and after it (the difficulty still shown), `sans X`
leaves it out for one roll, a reminder shows instead of an effect the game cannot read (and a
notice says so when the campaign opens), and a condition is added from the game's list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.roster_dialogs import ConditionScreen

from _pilot import press, ready, screen_strips


def on_screen(app: Any, widget: Any) -> str:
    """The row(s) of `widget` as the terminal shows them (the compositor's lines, cropped)."""
    strips = screen_strips(app)
    region = widget.region
    return "\n".join("".join(seg.text for seg in strips[y].crop(region.x, region.right))
                     for y in range(max(0, region.y), min(region.bottom, len(strips))))


async def _type(pilot: Any, text: str) -> None:
    """`/` from a pane, then the line: its start inserted, its last keys real presses."""
    tray = pilot.app.pane("dice-tray")
    if not tray.line.has_focus:
        await press(pilot, "slash")
    tray.line.insert_text_at_cursor(text[:-3])
    await press(pilot, *text[-3:])


async def test_mir_odds_row_names_the_condition_and_its_cost_and_sans_leaves_it_out(campaign_file) -> None:
    path = campaign_file("mir")
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await _type(pilot, "alexis tir sd2")
        tray = app.pane("dice-tray")
        row = on_screen(app, tray.info)
        # Narrow: the condition by its first word, its effect, the chance without → with it.
        assert "Ébloui −1 dé : 91\u202f% → 84\u202f%" in row, row
        assert "SD 2" in row                                     # the difficulty is never cut off
        assert app.table.draft is not None and app.table.draft.odds_request["modifier"] == -1     # the lantern: situation dice (R3)
        await press(pilot, "enter")
        record = app.session.rolls[-1]
        assert record.result["conditions"] == {"applied": ["Alexis · Ébloui par la lanterne: −1 dé"]}
        assert record.result["dice_rolled"] == 5

        await _type(pilot, "alexis tir sd2 sans ébloui")
        row = on_screen(app, tray.info)
        assert row.startswith("91\u202f% réussite") and "SD 2" in row and "→" not in row, row
        assert app.table.draft is not None and "modifier" not in app.table.draft.odds_request
        await press(pilot, "enter")
        record = app.session.rolls[-1]
        assert record.result["conditions"] == {"left_out": ["Alexis · Ébloui par la lanterne: −1 dé"]}
        assert record.result["dice_rolled"] == 6

        # Tab after `sans` offers the roller's conditions.
        await _type(pilot, "alexis tir sd2 sans éb")
        await press(pilot, "tab")
        assert tray.line.value == "alexis tir sd2 sans ébloui par la lanterne "


async def test_an_effect_the_game_cannot_read_is_a_notice_and_a_reminder(tmp_path: Path, campaign_file) -> None:
    path = campaign_file("eclats")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('effect = "FOR −1 (un lancer de moins)"', 'effect = "claque des dents"'),
                    encoding="utf-8")
    app = GMScreenApp(path)
    notes: list[str] = []
    app.warn = lambda message, severity="warning": notes.append(message)   # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        berthe = app.session.campaign.characters[2]                    # by names, not by key path (issue 24)
        said = [n for n in notes if n.startswith(f"{berthe.name} · {berthe.conditions[0].name} : ")]
        assert len(said) == 1 and "claque des dents" in said[0] and "FOR −1" in said[0]
        assert not any("characters[2]" in n or str(path) in n for n in notes)
        await _type(pilot, "berthe for intimider 9")
        assert app.table.draft is not None and app.table.draft.odds_request["characteristic"] == 3     # not applied
        row = on_screen(app, app.pane("dice-tray").info)
        assert "seuil 9" in row


async def test_a_condition_is_added_from_the_games_list_with_keys(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "1")                        # the roster
        loriane = app.session.campaign.characters[1]
        app.pane("roster").table.move_cursor(row=1)
        await pilot.pause()
        await press(pilot, "c")
        dialog = app.screen
        assert isinstance(dialog, ConditionScreen)
        labels = [str(o.prompt) for o in dialog.query_one("#presets").options]
        assert labels[0] == "Ébloui par la lanterne : −1 dé (1 round)" and "Dans le noir : −2 dés" in labels
        # The seed's own: prejudices (R4), torrential rain (R3).
        assert "Préjugés : préjugé −1 dé" in labels and "Pluie torrentielle : −1 dé" in labels
        await press(pilot, "down", "down", "down", "enter")     # to the list, third entry: Blessé
        assert not app.screen.is_modal
        added = app.session.campaign.character(loriane.id).conditions[-1]
        assert (added.name, added.effect, added.rounds) == ("Blessé", "blessure −1 dé", None)
        await _type(pilot, "loriane éloquence sd3")              # the sample's fight runs: the wound bites (R4)
        row = on_screen(app, app.pane("dice-tray").info)
        assert "Blessé blessure −1 dé" in row and "SD 3" in row, row


def test_at_80_columns_the_condition_is_said_and_the_difficulty_kept(campaign_file) -> None:
    """The odds row of each sample's conditioned roll, at the tray's width at 80×24: the
    condition named in front; the difficulty whole whenever the roll's own words fit the row."""
    from gmscreen.campaign.store import load_campaign
    from gmscreen.play.quickroll import parse
    from gmscreen.ui.widgets.tray.roll_odds import odds_content

    width = 76
    for system, line, condition, difficulty in [
        ("mir", "alexis tir sd2", "Ébloui −1 dé : 91\u202f% → 84\u202f%", "SD 2 (Facile)"),
        ("magisphere", "shady négociation 25", "Ivre Malus 3 : 87,5\u202f% → 72,5\u202f%", "seuil 25"),
        ("eclats", "berthe for intimider 9", "Transie FOR −1 : 78\u202f% → 64\u202f%", "seuil 9"),
        ("tedeum", "louvensac charme 13", "Essoufflée Malus", None),      # its label alone is wider
        ("arpeges", "sibylle épée -3", "Étourdie −2", None),
    ]:
        draft = parse(line, load_campaign(campaign_file(system)))
        row = odds_content(draft, gm_only=False, ascii=False, width=width).plain[:width]
        assert row.startswith(condition), row
        if difficulty is not None:
            assert difficulty in row, row
