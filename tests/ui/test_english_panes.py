"""English, all of it (issue 24), on the screen: the panes' descriptions around the game's own
words (difficulty names, Temporalité, Opposition brève stay as the rules write them)."""

from __future__ import annotations

import pytest

from gmscreen import i18n
from gmscreen.ui.widgets.difficulty.pane import DifficultyPane

from _pilot import GM_COLOURS


def _prompts(app) -> str:
    return "\n".join(str(option.prompt) for option in app.query_one(DifficultyPane).rows.options)


def _host(pane_host, session):
    class Host(pane_host):
        def get_theme_variable_defaults(self):
            return {**super().get_theme_variable_defaults(), **GM_COLOURS}

    return Host(session, lambda: DifficultyPane(id="difficulty"))


@pytest.mark.parametrize(("lang", "system", "present", "absent"), [
    ("en", "mir", ("automatic success", "Simple (extended skill test) · a round",
                   "Très compliquée (preparation needed, rare ingredients) · a week", "Temporalité", "Triviale"),
     ("Réussite automatique", "nécessite", "1 tour")),
    ("fr", "mir", ("Réussite automatique", "Simple (test de Compétence étendu) · 1 tour",
                   "Compliquée (préparation ou matériel spécifique) · 1 journée"), ("automatic", "a round")),
    ("en", "magisphere", ("Extended oppositions (successes to reach)", "Opposition brève · 2"), ("réussites",)),
    ("fr", "magisphere", ("Oppositions étendues (réussites à atteindre)",), ("Extended",)),
    ("en", "eclats", ("tie a simple knot", "pick a lock", "Très facile"), ("crocheter",)),
    ("fr", "eclats", ("nouer un nœud simple", "crocheter une serrure"), ("pick a lock",)),
])
async def test_the_difficulty_pane_describes_in_the_language_spoken(pane_host, open_sample, french, lang, system,
                                                                    present, absent):
    i18n.set_language(lang)
    app = _host(pane_host, open_sample(system))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = _prompts(app)
        for words in present:
            assert words in shown, (words, shown)
        for words in absent:
            assert words not in shown, (words, shown)
