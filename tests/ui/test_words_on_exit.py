"""Issue 24: the screen ended by its input says "campaign saved" only when a save wrote the file;
with nothing changed it says nothing was written (real keys through Pilot; the driver's end of
input is `on_input_eof`, as the terminal driver calls it)."""

from __future__ import annotations

from gmscreen.ui import GMScreenApp
from gmscreen.ui.lifecycle import exit_words

from _pilot import press, ready, until


async def test_nothing_changed_nothing_said_saved(campaign_file) -> None:
    path = campaign_file("mir")
    before = path.read_bytes()
    app = GMScreenApp(path, language="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        app.on_input_eof()
        await until(app, pilot, lambda: not app.is_running or app.exit_saved)
    assert path.read_bytes() == before
    assert exit_words(app) == "gmscreen: standard input closed; nothing had changed, nothing written"


async def test_a_change_saved_at_the_end_of_input_is_said_saved(campaign_file) -> None:
    path = campaign_file("mir")
    before = path.read_bytes()
    app = GMScreenApp(path, language="fr")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(app, pilot)
        await press(pilot, "escape", "1", "H")            # hide the first character: a change
        assert app.session.dirty
        app.on_input_eof()
        await until(app, pilot, lambda: not app.is_running or app.exit_saved)
    assert path.read_bytes() != before
    assert exit_words(app) == "gmscreen : entrée standard fermée ; campagne enregistrée"


def test_the_gm_quitting_says_nothing() -> None:
    class Quit:
        exit_reason = ""
        exit_saved = "saved"

    assert exit_words(Quit()) == ""
