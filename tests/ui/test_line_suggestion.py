"""The quick-roll line's inline suggestion: the rest of the word being typed, as the line reads
it. A character is found by any word of their name ("louv" → Mlle de Louvensac), and case
and accents do not matter ("elo" → Éloquence); → (or End) takes the suggestion."""

from __future__ import annotations

import pytest
from _pilot import press, ready, suggestion_of, until

from gmscreen.ui import GMScreenApp
from gmscreen.ui.widgets.tray.line_completion import rest_of


async def _suggested(app, pilot, *keys: str) -> str:
    await press(pilot, "slash", *keys)
    line = app.pane("dice-tray").line
    await until(app, pilot, lambda: bool(suggestion_of(line)))
    return suggestion_of(line)


@pytest.mark.parametrize(("system", "keys", "suggestion", "who"), [
    ("tedeum", "louv", "louvensac", "Mlle de Louvensac"),     # a later word of the name
    ("mir", "al", "alexis", "Alexis"),                        # the name's first word, as typed
])
async def test_a_character_is_suggested_from_any_word_of_their_name(campaign_file, system, keys, suggestion,
                                                                     who) -> None:
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert (await _suggested(app, pilot, *keys)).casefold() == suggestion
        await press(pilot, "right")                      # taken: the line reads it as that character
        tray = app.pane("dice-tray")
        assert tray.line.value.casefold() == suggestion
        assert await until(app, pilot, lambda: tray.error is not None)
        assert f"pour {who} ?" in str(tray.error)        # "quelle compétence pour … ?": found, a skill next


async def test_accents_and_case_aside(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        app.pane("dice-tray").line.insert_text_at_cursor("alexis el")
        assert (await _suggested(app, pilot, "o")).casefold() == "alexis eloquence"


def test_rest_of_a_choice() -> None:
    assert rest_of("Mlle de Louvensac", "louv") == "ensac"
    assert rest_of("Mlle de Louvensac", "mll") == "e de Louvensac"       # the whole name first
    assert rest_of("Éloquence", "elo") == "quence"
    assert rest_of("Éloquence", "Éloquence") is None                     # nothing left to add
    assert rest_of("Manœuvre", "manoe") is None                          # (œ folds to two letters)
    assert rest_of("Alexis", "bo") is None
