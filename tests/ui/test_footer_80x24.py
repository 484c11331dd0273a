"""At 80×24, the keys a GM needs whatever has the focus (`/`, `n`, undo) are always on the
footer, and the odds row never cuts off the difficulty: the other parts give way first."""

from __future__ import annotations

import pytest

from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.tray.odds_fit import fit_label

from _pilot import press, ready, screen_text

SYSTEMS = ("arpeges", "eclats", "magisphere", "mir", "tedeum")

# A long line of each sample and the difficulty its odds row must show whole.
LONG_LINES = {
    "mir": ("alexis force sd4 +1d aide loriane", "SD 4 (Difficile)"),
    "eclats": ("ysaure emp calmer 9", "seuil 9"),
    "tedeum": ("louvensac charme 13 providence", "difficulté 13 (Périlleux)"),
    "arpeges": ("marchand baratin -3", "difficulté −3"),
    "magisphere": ("shady négociation 25 +2 malus 5", "seuil 25 + malus 5"),
}


@pytest.mark.parametrize("system", SYSTEMS)
async def test_the_footer_shows_roll_next_and_undo_whatever_pane_has_the_focus(campaign_file, system) -> None:
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        for pane, name in (("1", "roster"), ("2", "initiative"), ("3", "difficulty"), ("4", "log")):
            await press(pilot, "escape", pane)
            assert app.focused is not None and app.pane(name) in (app.focused, *app.focused.ancestors)
            footer = screen_text(app)[-1]                    # ^z shows (dimmed) with nothing to undo
            for key in ("/ Jet", "n Suivant", "^z Annuler"):
                assert key in footer, (pane, footer)


@pytest.mark.parametrize("system", SYSTEMS)
async def test_the_odds_row_keeps_the_difficulty_whole(campaign_file, system) -> None:
    line, difficulty = LONG_LINES[system]
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "slash")
        tray = app.pane("dice-tray")
        tray.line.insert_text_at_cursor(line[:-1])
        await press(pilot, line[-1])
        assert tray.draft is not None and difficulty in tray.draft.label
        assert difficulty in tray.draft.difficulty_text and tray.draft.difficulty_text in tray.draft.label.split(" · ")
        row = next(r for r in screen_text(app) if "%" in r)
        assert difficulty in row, row
        assert "…" not in row.split(difficulty)[1].split("·")[0]      # not cut right after it either
        assert tray.draft.who.split()[0][:1] in row                     # who rolls still starts the label


def test_a_label_gives_way_everywhere_but_its_difficulty() -> None:
    label = "Maître Gorlois, marchand · Intuition +2 + Manœuvre +1 + Baratin +2 = +5 · difficulté −3"
    fitted = fit_label(label, 50, "difficulté −3", floor=6, shrink_first=False)
    assert fitted.endswith(" · difficulté −3") and fitted.startswith("Maître Gorlois, marchand · ")
    assert len(fitted) <= 50 and "…" in fitted
    tight = fit_label(label, 20, "difficulté −3")
    assert "difficulté −3" in tight and len(tight) <= 20
    assert fit_label("Callia · Infiltration contre Le garde", 10, "") == "Callia · Infiltration contre Le garde"
    assert fit_label(label, 20, "SD 3") == label          # a difficulty the label does not hold: left to the edge
