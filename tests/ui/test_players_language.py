"""`gmscreen players` with no language chosen anywhere (no --lang, no config.toml `language`,
LANG=C.UTF-8 as on a server) asks the GM's question on its first screen — the same screen,
each choice in its own language — speaks the answer at once and remembers it in the same
config.toml, so neither view asks again; with a language chosen, nothing is asked."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from textual.widgets import OptionList

from gmscreen import cli, i18n
from gmscreen.play.player_view import CampaignWatch
from gmscreen.ui import GMScreenApp
from gmscreen.ui.players.app import PlayersApp
from gmscreen.ui.screens.language_question import LanguageQuestion

from _focus import SYSTEMS, cells, inside, stands_out
from _language import language_chosen_by, saved_language
from _pilot import press, ready, screen_text, until


@pytest.fixture
def watch(campaign_file) -> Iterator[CampaignWatch]:
    opened = CampaignWatch(campaign_file("mir"))
    opened.open()
    yield opened
    opened.close()


async def shown(app: Any, pilot: Any) -> str:
    assert await until(app, pilot, lambda: app.shown is not None)
    return "\n".join(screen_text(app))


async def test_asked_answered_with_e_spoken_at_once_and_remembered(watch, private_dirs, no_language) -> None:
    app = PlayersApp(watch, environment=True)            # as `gmscreen players` starts it
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown(app, pilot)
        assert isinstance(app.screen, LanguageQuestion)
        assert "Langue de l'écran / Language of the screen" in text
        assert "English — the screen and its messages in English" in text
        # The players' view has no palette: it says where the language is changed.
        assert "remembered; --lang to change it" in text and "ctrl+p" not in text
        await press(pilot, "e")
        assert not isinstance(app.screen, LanguageQuestion) and i18n.language() == "en"
        text = "\n".join(screen_text(app))
        assert "Turn order" in text and "Quit" in text           # the view and its footer in English
        assert "Ordre du tour" not in text
        assert await until(app, pilot, lambda: saved_language(private_dirs) == "en")
    i18n.set_language("fr")                     # a new process: nothing spoken yet but the default
    again = PlayersApp(watch, environment=True)
    async with again.run_test(size=(100, 30)) as pilot:
        await shown(again, pilot)
        assert not isinstance(again.screen, LanguageQuestion)
    gm = GMScreenApp(watch.path, environment=True)          # the GM's screen reads the same answer
    async with gm.run_test(size=(80, 24)) as pilot:
        await ready(gm, pilot)
        assert not isinstance(gm.screen, LanguageQuestion) and i18n.language() == "en"


async def test_f_answers_french_and_the_choice_shows_its_focus(watch, private_dirs, no_language) -> None:
    app = PlayersApp(watch, environment=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await shown(app, pilot)
        question = app.screen
        assert isinstance(question, LanguageQuestion)
        choices = question.query_one(OptionList)
        assert app.focused is choices
        looked = {s: cells(app, choices, s, region=inside(choices)) for s in SYSTEMS}
        question.set_focus(None)
        await pilot.pause()
        assert all(stands_out(choices, looked[s], cells(app, choices, s, region=inside(choices))) for s in SYSTEMS)
        choices.focus()
        await press(pilot, "f")
        assert not isinstance(app.screen, LanguageQuestion) and i18n.language() == "fr"
        assert "Ordre du tour" in "\n".join(screen_text(app))
        assert await until(app, pilot, lambda: saved_language(private_dirs) == "fr")


@pytest.mark.parametrize("chosen", ["option", "config", "environment"])
async def test_nothing_asked_when_a_language_was_chosen(watch, private_dirs, no_language, monkeypatch,
                                                         chosen: str) -> None:
    language = language_chosen_by(chosen, "en", private_dirs, monkeypatch)
    app = PlayersApp(watch, environment=True, language=language)
    async with app.run_test(size=(100, 30)) as pilot:
        await shown(app, pilot)
        await pilot.pause()
        assert not isinstance(app.screen, LanguageQuestion)
    assert saved_language(private_dirs) == ("en" if chosen == "config" else None)   # nothing written


@pytest.mark.parametrize("argv, told", [
    (["players", "CAMPAIGN"], None),
    (["--lang", "en", "players", "CAMPAIGN"], "en"),
    (["players", "CAMPAIGN", "--lang=fr"], "fr"),
])
def test_the_command_hands_its_lang_to_the_view(campaign_file, monkeypatch, argv, told) -> None:
    """--lang anywhere on the command line reaches the view (which then asks nothing)."""
    from gmscreen.ui import players

    path = str(campaign_file("mir"))
    seen: dict[str, Any] = {}
    monkeypatch.setattr(players, "run", lambda campaign, **kwargs: seen.update(kwargs) or 0)
    assert cli.main([path if word == "CAMPAIGN" else word for word in argv]) == 0
    assert seen["language"] == told
