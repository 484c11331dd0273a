"""No language chosen anywhere (no --lang, no config.toml `language`, LANG=C.UTF-8 as on a
server): the first screen asks, each choice in its own language, answered from the keyboard;
the answer is spoken at once and remembered in config.toml, so the next start asks nothing."""

from __future__ import annotations


import pytest

from gmscreen import i18n
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.language_question import LanguageQuestion

from _language import language_chosen_by, saved_language
from _pilot import press, ready, screen_text, until


async def test_asked_once_then_remembered_across_two_runs(campaign_file, private_dirs, no_language) -> None:
    path = campaign_file("mir")
    app = GMScreenApp(path, environment=True)          # as `gmscreen` starts it
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert isinstance(app.screen, LanguageQuestion)
        shown = "\n".join(screen_text(app))
        assert "Langue de l'écran / Language of the screen" in shown
        assert "Français — l'écran et ses messages en français" in shown
        assert "English — the screen and its messages in English" in shown
        await press(pilot, "down", "enter")
        assert not isinstance(app.screen, LanguageQuestion)
        assert i18n.language() == "en"
        assert "Roll" in "\n".join(screen_text(app))             # the footer in English at once
        assert await until(app, pilot, lambda: saved_language(private_dirs) == "en")
    i18n.set_language("fr")                     # a new process: nothing spoken yet but the default
    again = GMScreenApp(path, environment=True)
    async with again.run_test(size=(80, 24)) as pilot:
        await ready(again, pilot)
        assert not isinstance(again.screen, LanguageQuestion)
        assert i18n.language() == "en"


async def test_a_letter_answers_and_french_is_remembered_too(campaign_file, private_dirs, no_language) -> None:
    app = GMScreenApp(campaign_file("tedeum"), environment=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await press(pilot, "f")
        assert not isinstance(app.screen, LanguageQuestion) and i18n.language() == "fr"
        assert await until(app, pilot, lambda: saved_language(private_dirs) == "fr")


@pytest.mark.parametrize("chosen", ["option", "environment", "config"])
async def test_nothing_asked_when_a_language_was_chosen(campaign_file, private_dirs, no_language, monkeypatch,
                                                         chosen: str) -> None:
    language = language_chosen_by(chosen, "fr", private_dirs, monkeypatch)
    app = GMScreenApp(campaign_file("mir"), environment=True, language=language)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert not isinstance(app.screen, LanguageQuestion)
        assert i18n.language() == ("en" if chosen == "environment" else "fr")


async def test_the_question_s_words_come_from_the_catalog(campaign_file) -> None:
    """In the pseudo-language every word of the question is marked (key names aside)."""
    import re

    from textual.widgets import OptionList, Static

    from gmscreen.ui.screens.language_question import ask_language

    i18n.set_language(i18n.PSEUDO)
    letters = set(i18n.pseudo("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")[1:-1])
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        ask_language(app)
        assert await until(app, pilot, lambda: isinstance(app.screen, LanguageQuestion) and app.screen.query(OptionList))
        question = app.screen
        texts = [str(widget.render()) for widget in question.query(Static)]
        choices = question.query_one(OptionList)
        texts += [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]
        words = [w for text in texts for w in re.findall(r"[^\W\d_]{2,}", text)]
        assert len(words) > 10
        assert [w for w in words if not letters & set(w) and w != "ctrl"] == []
        await press(pilot, "e")
        assert i18n.language() == "en" and not isinstance(app.screen, LanguageQuestion)
