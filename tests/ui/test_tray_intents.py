"""The tray's parts post what the GM asks as messages, as Textual's `Input` does: the line's
`Changed` (held back for the first key), `Submitted` and `GrammarAsked`, its own Tab and ↑ ↓;
the prompt's `Picked` and `Cancelled`. Each part alone in a bare app, real keys pressed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from textual.app import App, ComposeResult
from textual.content import Content
from textual.message import Message

from gmscreen.play.exchange import Option, Prompt
from gmscreen.play.quickroll.completion import Completion
from gmscreen.ui.widgets.tray.choice_prompt import ChoicePrompt
from gmscreen.ui.widgets.tray.quick_roll_line import QuickRollLine


class Owner:
    """What the line asks of its tray: a history, completions, a hint shown."""

    table = None

    def __init__(self) -> None:
        self.history = ["alexis éloquence sd2", "loriane vol sd3"]
        self.hints: list[tuple[str, ...]] = []
        self.candidates: tuple[str, ...] = ("loriane",)

    def completion_for(self, value: str, cursor: int) -> Completion | None:
        start = value.rfind(" ", 0, cursor) + 1
        found = tuple(c for c in self.candidates if c.startswith(value[start:cursor]))
        return Completion(start, cursor, found)

    def hint(self, candidates: tuple[str, ...]) -> None:
        self.hints.append(candidates)


class Heard(App[None]):
    """Holds one part and keeps every message of the kinds it posts."""

    def __init__(self, part: Any) -> None:
        super().__init__()
        self.part = part
        self.heard: list[Message] = []

    def compose(self) -> ComposeResult:
        yield self.part

    def on_quick_roll_line_changed(self, event: QuickRollLine.Changed) -> None:
        self.heard.append(event)

    def on_quick_roll_line_submitted(self, event: QuickRollLine.Submitted) -> None:
        self.heard.append(event)

    def on_quick_roll_line_grammar_asked(self, event: QuickRollLine.GrammarAsked) -> None:
        self.heard.append(event)

    def on_choice_prompt_picked(self, event: ChoicePrompt.Picked) -> None:
        self.heard.append(event)

    def on_choice_prompt_cancelled(self, event: ChoicePrompt.Cancelled) -> None:
        self.heard.append(event)

    def of(self, kind: type) -> list[Any]:
        return [m for m in self.heard if isinstance(m, kind)]


async def test_the_line_tells_what_it_reads_once_its_first_key_is_out_then_every_key() -> None:
    owner = Owner()
    app = Heard(QuickRollLine(owner, id="quick-roll"))
    async with app.run_test() as pilot:
        app.part.focus()
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("b", "c")
        await pilot.pause()
        assert app.part.read_once
        assert [m.value for m in app.of(QuickRollLine.Changed)][-1] == "abc"
        assert all(m.value != "" for m in app.of(QuickRollLine.Changed))
        await pilot.press("enter")
        await pilot.pause()
        assert [m.value for m in app.of(QuickRollLine.Submitted)] == ["abc"]


async def test_a_question_mark_alone_asks_for_the_grammar_and_leaves_the_line_empty() -> None:
    app = Heard(QuickRollLine(Owner(), id="quick-roll"))
    async with app.run_test() as pilot:
        app.part.focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert len(app.of(QuickRollLine.GrammarAsked)) == 1 and app.part.value == ""


async def test_up_and_down_walk_the_owners_history_and_typing_starts_it_again() -> None:
    owner = Owner()
    app = Heard(QuickRollLine(owner, id="quick-roll"))
    async with app.run_test() as pilot:
        app.part.focus()
        await pilot.press("up", "up")
        await pilot.pause()
        assert app.part.value == "alexis éloquence sd2"
        await pilot.press("down")
        await pilot.pause()
        assert app.part.value == "loriane vol sd3"
        await pilot.press("down")
        await pilot.pause()
        assert app.part.value == ""
        await pilot.press("x", "up")
        await pilot.pause()
        assert app.part.value == "loriane vol sd3"        # typed: ↑ from the newest again


async def test_tab_completes_one_candidate_and_lists_several() -> None:
    owner = Owner()
    app = Heard(QuickRollLine(owner, id="quick-roll"))
    async with app.run_test() as pilot:
        app.part.focus()
        await pilot.press("l", "o", "tab")
        await pilot.pause()
        assert app.part.value == "loriane " and app.part.cursor_position == 8     # and the next word
        owner.candidates = ("vigilance", "vol")
        await pilot.press("v", "tab")
        await pilot.pause()
        assert app.part.value == "loriane v" and owner.hints == [("vigilance", "vol")]


async def test_a_slash_typed_again_in_the_line_is_not_taken() -> None:
    app = Heard(QuickRollLine(Owner(), id="quick-roll"))
    async with app.run_test() as pilot:
        app.part.focus()
        await pilot.press("slash", "m")
        await pilot.pause()
        assert app.part.value == "m"


def _flow(result: dict | None) -> SimpleNamespace:
    prompt = Prompt("Relancer ?", (Option("r", "relancer", "reroll"), Option("g", "garder", "keep")), default="g")
    return SimpleNamespace(prompt=prompt, result=result)


async def test_the_prompt_posts_the_key_picked_and_escape() -> None:
    owner = SimpleNamespace(flow=_flow({"dice": [3]}))
    prompt = ChoicePrompt(owner, id="tray-choice")
    app = Heard(prompt)
    async with app.run_test() as pilot:
        prompt.open(owner.flow.prompt, Content("Relancer ?"))
        await pilot.pause()
        assert prompt.has_class("-active") and app.focused is prompt
        await pilot.press("r", "enter", "x", "escape")
        await pilot.pause()
        assert [m.key for m in app.of(ChoicePrompt.Picked)] == ["r", "enter"]     # "x" is no option
        assert len(app.of(ChoicePrompt.Cancelled)) == 1       # the tray decides (dice cast: it stays)
        prompt.close()
        assert not prompt.has_class("-active")
