"""The screen in one language at a time: footer, titles, `?` help (Textual's own keys too),
palette (its system commands too), toasts and the status line in French or in English; the
palette switches it live and config.toml remembers it; the palette finds a command by its
French or English title, with or without accents."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import DataTable, Input

from gmscreen import i18n
from gmscreen.ui import GMScreenApp
from gmscreen.ui.binding_words import textual_word
from gmscreen.ui.palette import GMScreenCommands
from gmscreen.ui.screens.keys_help import KeysHelpScreen
from gmscreen.ui.terminal.footer import FooterKey, FooterLabel     # (Textual's, as the footer uses them)

from _pilot import press, ready, type_in_palette, until


def footer_words(app: Any) -> list[str]:
    keys = [str(key.description) for key in app.screen_stack[0].query(FooterKey) if key.description]
    labels = [str(label.render()) for label in app.screen_stack[0].query(FooterLabel)]
    return keys + labels


def titles(app: Any) -> dict[str, str]:
    return {pane_id: str(app.pane(pane_id).border_title) for pane_id in ("roster", "initiative", "difficulty",
                                                                        "log", "dice-tray")}


async def help_rows(app: Any, pilot: Any) -> list[tuple[str, str, str]]:
    app.action_keys()
    await pilot.pause()
    assert isinstance(app.screen, KeysHelpScreen)
    table = app.screen.query_one(DataTable)
    rows = [tuple(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]
    await press(pilot, "escape")
    return rows  # type: ignore[return-value]


async def search(app: Any, query: str) -> list[Any]:
    return [hit async for hit in GMScreenCommands(app.screen_stack[0]).search(query)]


def config_data(dirs: dict[str, Path]) -> dict[str, Any]:
    return tomllib.loads((dirs["config"] / "config.toml").read_text(encoding="utf-8"))


async def test_the_screen_in_english(campaign_file, english) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await ready(app, pilot)
        await press(pilot, "3")         # a pane of few keys: the app's own all have room on the bar
        words = footer_words(app)
        assert {"Roll", "Next", "Prev", "Undo", "Keys", "Quit", "Panes"} <= set(words)
        assert titles(app)["difficulty"] == "Difficulties" and titles(app)["log"] == "Roll log"
        rows = await help_rows(app, pilot)
        actions = {row[1] for row in rows}
        groups = {row[0] for row in rows if not row[1]}
        assert {"Screen", "Dice"} <= groups
        # Textual's own keys, in English: the quick-roll Input's, the tables' (DataTable, OptionList).
        assert {"Delete all to the left", "Page Down", "Cursor down", "Quit"} <= actions
        texts = {hit.text for hit in await search(app, "screenshot")}
        assert "Screenshot" in texts
        app.set_focus(None)
        await press(pilot, "ctrl+p")
        assert app.screen.query_one(Input).placeholder == "Search for commands…"
        await press(pilot, "escape")
        assert not isinstance(app.screen, CommandPalette)
        app.table.undo()
        await pilot.pause()
        assert any(n.message == "nothing to undo" for n in app.notices)
        assert "session 3" in str(app.status.render())


async def test_the_screen_in_french(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await ready(app, pilot)
        await press(pilot, "3")         # a pane of few keys: the app's own all have room on the bar
        words = footer_words(app)
        assert {"Jet", "Suivant", "Précédent", "Annuler", "Touches", "Quitter", "Volets"} <= set(words)
        assert not {"Roll", "Next", "Prev", "Undo", "Keys", "Quit"} & set(words)
        assert titles(app)["difficulty"] == "Difficultés" and titles(app)["log"] == "Journal des jets"
        rows = await help_rows(app, pilot)
        actions = {row[1] for row in rows}
        assert {"Tout effacer à gauche", "Page bas", "Curseur en bas", "Quitter"} <= actions
        assert not {"Delete all to the left", "Page Down", "Cursor down", "Down", "Page Up"} & actions
        texts = {hit.text for hit in await search(app, "capture")}
        assert "Capture d'écran" in texts
        app.set_focus(None)
        await press(pilot, "ctrl+p")
        assert app.screen.query_one(Input).placeholder == "Chercher une commande…"
        await type_in_palette(app, pilot, "zzzqqq")
        hits = app.screen.query_one(CommandList)          # "no matches" is said after a countdown
        assert await until(app, pilot, lambda: hits.option_count > 0 and "Aucune correspondance"
                           in str(hits.get_option_at_index(0).prompt)), hits.option_count
        await press(pilot, "escape")
        app.table.undo()
        await pilot.pause()
        assert any(n.message == "rien à annuler" for n in app.notices)


async def test_every_key_in_the_help_is_translated(campaign_file) -> None:
    """In the pseudo-language every word from the catalog is marked: a key description that
    did not go through it (a new Textual word, a binding not wrapped) shows unmarked."""
    app = GMScreenApp(campaign_file("tedeum"))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        i18n.set_language(i18n.PSEUDO)
        await pilot.pause()
        rows = await help_rows(app, pilot)
        unmarked = [row for row in rows if row[1] and not row[1].startswith(i18n.MARKS[0])]
        assert unmarked == []
        assert all(word.startswith(i18n.MARKS[0]) for word in footer_words(app))
        palette = [hit.text for hit in await search(app, "a")]
        assert palette and all(text.startswith(i18n.MARKS[0]) for text in palette)


async def test_the_palette_switches_the_language_live_and_remembers_it(campaign_file, private_dirs) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert "Journal des jets" == titles(app)["log"]
        hit = next(h for h in await search(app, "langue") if h.text == "Langue : English")
        hit.command()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert i18n.language() == "en"
        assert titles(app)["log"] == "Roll log" and titles(app)["difficulty"] == "Difficulties"
        assert {"Roll", "Next", "Keys"} <= set(footer_words(app))
        assert "round 2" in str(app.status.render())
        assert config_data(private_dirs)["language"] == "en"
        hit = next(h for h in await search(app, "language") if h.text == "Language: français")
        hit.command()
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert i18n.language() == "fr" and titles(app)["log"] == "Journal des jets"
        assert "round 2" in str(app.status.render())
    assert config_data(private_dirs)["language"] == "fr"


async def test_config_language_is_honoured_and_a_bad_one_said_once(campaign_file, private_dirs) -> None:
    private_dirs["config"].mkdir(parents=True)
    config = private_dirs["config"] / "config.toml"
    config.write_text('# my settings\nlanguage = "en"\ntheme = "gmscreen-light"\n', encoding="utf-8")
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert i18n.language() == "en" and titles(app)["log"] == "Roll log"
    assert config.read_text(encoding="utf-8").startswith('# my settings\nlanguage = "en"\n')
    # --lang wins over config.toml.
    app = GMScreenApp(campaign_file("mir"), language="fr")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert i18n.language() == "fr" and titles(app)["log"] == "Journal des jets"
    config.write_text('language = "de"\n', encoding="utf-8")
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await ready(app, pilot)
        said = [n.message for n in app.notices if "language" in n.message]
        assert len(said) == 1 and "« fr » ou « en »" in said[0] and "'de'" in said[0]
        assert i18n.language() == "fr"


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_the_palette_finds_in_either_language_without_accents(campaign_file, lang) -> None:
    i18n.set_language(lang)
    app = GMScreenApp(campaign_file("arpeges"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        theme = "Thème" if lang == "fr" else "Theme"
        for query in ("theme", "thème", "THEME"):
            assert theme in {hit.text for hit in await search(app, query)}, query
        for query in ("journal", "log"):        # the key `4`, by its French or English name
            texts = {hit.text for hit in await search(app, query)}
            assert ("Journal" if lang == "fr" else "Log") in texts, query
        skill = next(title for title in (hit.text for hit in await search(app, "epee")) if "Épée" in title)
        assert skill.startswith("Jet " if lang == "fr" else "Roll ")
        assert skill in {hit.text for hit in await search(app, "roll sibylle epee")}
        assert skill in {hit.text for hit in await search(app, "jet sibylle épée")}


def test_textual_words_have_both_languages() -> None:
    assert textual_word("End") == "Fin"         # the key, not the fight's "Terminer"
    i18n.set_language("en")
    assert textual_word("Page Down") == "Page Down"


@pytest.mark.parametrize("system", ["mir", "tedeum"])
async def test_every_key_description_is_in_the_catalog(campaign_file, system) -> None:
    """The `?` screen, the footer and the palette show binding descriptions: each one (ours, the
    panes', Textual's) must have a French and an English text."""
    from gmscreen.i18n import msgfmt
    from gmscreen.ui.screens.keys_help import binding_table

    french, english = msgfmt.catalog("fr"), msgfmt.catalog("en")
    app = GMScreenApp(campaign_file(system))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(app, pilot)
        missing = set()
        for group, _node, binding, _keys in binding_table(app):
            for message in (group, binding.description):
                if not message:
                    continue
                context = "textual" if textual_word(message) is not None else None
                if (context, message) not in french or (context, message) not in english:
                    missing.add(message)
        assert sorted(missing) == []
