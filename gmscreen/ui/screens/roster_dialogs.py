"""Small modal dialogs shared by the roster and the initiative queue.

A question, a few typed fields checked before they are accepted, a choice from a list:
keyboard first (enter accepts, escape cancels), every label shown literally.
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

# The fields and their checks are plain data the games build too (re-exported for the widgets).
from gmscreen.i18n import N_, _, pgettext
from gmscreen.play.forms import Field, int_check, nonempty, parse_int  # noqa: F401

from ..sanitize import clean, literal
from .dialog import Dialog

Answer = TypeVar("Answer")

DIALOG_CSS = """
{name} {{
    align: center middle;
}}
{name} > #dialog {{
    width: 64;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: round $accent;
    background: $surface;
    padding: 0 1;
}}
{name} #dialog-title {{
    text-style: bold;
    width: 1fr;
}}
{name} #dialog-error {{
    color: $error;
    height: auto;
}}
{name} .field-label {{
    color: $text-muted;
    margin-top: 1;
}}
{name} #dialog-buttons {{
    height: auto;
    align-horizontal: right;
    margin-top: 1;
}}
{name} #dialog-buttons Button {{
    margin-left: 1;
    min-width: 10;
}}
"""


class DialogScreen(Dialog[Answer]):
    """A dialog box (`#dialog`): its title, the note under it when there is one, then `body()`."""

    def __init__(self, title: str, note: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(literal(self.title_text), id="dialog-title")
            if self.note:
                yield Static(literal(self.note, single_line=False), classes="dialog-note")
            yield from self.body()

    def body(self) -> ComposeResult:
        """What the dialog asks, under its title."""
        yield from ()


class FormScreen(DialogScreen[Answer]):
    """A form: enter in a one-line field or the button `SUBMIT_BUTTON` submits (`action_submit`
    checks the values and dismisses with them), escape or the other button cancels (None)."""

    SUBMIT_BUTTON = "ok"

    def action_submit(self) -> None:
        """Each form checks its own values (an abstract hook: Textual screens take no ABC)."""
        raise NotImplementedError

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == self.SUBMIT_BUTTON:
            self.action_submit()
        else:
            self.action_cancel()


class PromptScreen(FormScreen[dict[str, str] | None]):
    """Ask for a few values; dismisses with {name: text} once every check passes, or None."""

    DEFAULT_CSS = DIALOG_CSS.format(name="PromptScreen") + """
    PromptScreen TextArea { height: 6; }
    """
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel"), id="dialog.cancel"),
        Binding("ctrl+s", "submit", N_("Submit"), id="dialog.submit"),
    ]

    def __init__(self, title: str, fields: Sequence[Field], *, note: str = "", submit: str | None = None) -> None:
        super().__init__(title, note)
        self.fields = list(fields)
        self.submit_label = submit if submit is not None else pgettext("button", "OK")

    def body(self) -> ComposeResult:
        with VerticalScroll(id="dialog-fields", can_focus=False):      # tab goes field to field
            for f in self.fields:
                yield Static(literal(f.label), classes="field-label")
                if f.multiline:
                    yield TextArea(clean(f.value, single_line=False), id=f"field-{f.name}", soft_wrap=True, tab_behavior="focus")
                else:
                    yield Input(clean(f.value), placeholder=f.placeholder, id=f"field-{f.name}", compact=True)
        yield Static("", id="dialog-error", markup=False)
        with Horizontal(id="dialog-buttons"):
            yield Button(_("Cancel"), id="cancel")
            yield Button(self.submit_label, id="ok", variant="primary")

    def on_mount(self) -> None:
        if self.fields:
            first = self.query_one(f"#field-{self.fields[0].name}")
            first.focus()
            if isinstance(first, Input):
                first.select_all()      # typing replaces the proposed value

    def values(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for f in self.fields:
            widget = self.query_one(f"#field-{f.name}")
            out[f.name] = widget.text if isinstance(widget, TextArea) else widget.value  # type: ignore[attr-defined]
        return out

    def action_submit(self) -> None:
        values = self.values()
        errors = []
        for f in self.fields:
            widget = self.query_one(f"#field-{f.name}")
            message = f.check(values[f.name]) if f.check else None
            widget.set_class(message is not None, "-invalid")
            if message:
                errors.append(message)
        if errors:
            self.query_one("#dialog-error", Static).update(literal("\n".join(errors), single_line=False))
            return
        self.dismiss(values)


class ConfirmScreen(DialogScreen[bool]):
    """A yes/no question: y/o or enter confirm, n or escape refuse."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS = [
        Binding("y,o", "answer(True)", N_("Yes"), id="dialog.yes"),
        Binding("n,escape", "answer(False)", N_("No"), id="dialog.no"),
    ]

    def __init__(self, question: str, detail: str = "", *, yes: str | None = None) -> None:
        super().__init__(question, detail)
        self.yes = yes

    def body(self) -> ComposeResult:
        with Horizontal(id="dialog-buttons"):
            yield Button(_("No (n)"), id="no")
            yield Button(_("{yes} (y)").format(yes=self.yes if self.yes is not None else _("Yes")), id="yes",
                         variant="error")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")


class ChoiceScreen(DialogScreen[str | None]):
    """Pick one item of a list (enter), or escape. Options are (id, label) pairs."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ChoiceScreen") + """
    ChoiceScreen OptionList { height: auto; max-height: 16; }
    """
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="dialog.cancel")]

    def __init__(self, title: str, options: Sequence[tuple[str, str | Content]]) -> None:
        super().__init__(title)
        self.options = list(options)

    def body(self) -> ComposeResult:
        yield OptionList(*[Option(label if isinstance(label, Content) else literal(label), id=oid)
                           for oid, label in self.options], id="choices", markup=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConditionScreen(PromptScreen):
    """The new-condition form with the game's short list under it: type a condition, or ↓ to
    the list and enter to take one as it is (its name, effect and length). Under the fields,
    as the GM types the effect, `hint` says what the game makes of it ("applies: −1 die", "a reminder
    only"), so an effect the rules cannot read is seen before it is saved."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConditionScreen") + """
    ConditionScreen #presets { height: auto; max-height: 6; border: none; }
    ConditionScreen #effect-hint { color: $text-muted; height: auto; }
    """
    # Priority: ↓ reaches the list even when the fields scroll (a short terminal, the hint shown).
    BINDINGS = [Binding("down", "presets", N_("Conditions of the game"), id="dialog.presets", show=False,
                        priority=True)]

    def __init__(self, title: str, fields: Sequence[Field], presets: Sequence[tuple[str, dict[str, str]]], *,
                 note: str = "", hint: Callable[[str], str] | None = None) -> None:
        super().__init__(title, fields, note=note)
        self.presets = list(presets)          # (label shown, the fields' values)
        self.hint = hint                      # the effect typed -> what the game makes of it

    def on_mount(self) -> None:
        super().on_mount()
        effect = self.query("#field-effect")
        if self.hint is not None and effect:
            hint = Static(id="effect-hint")
            self.query_one("#dialog").mount(hint, after="#dialog-fields")
            self._show_hint(effect.first(Input).value)
        if self.presets:
            self.query_one("#dialog").mount(
                Static(literal(_("Or one of the game's (↓, enter):")), classes="preset-label"),
                OptionList(*[Option(literal(label), id=str(n)) for n, (label, _v) in enumerate(self.presets)],
                           id="presets", markup=False),
                before="#dialog-error")

    def _show_hint(self, effect: str) -> None:
        """The hint for `effect` as typed; no line at all while there is nothing to say."""
        said = self.hint(effect) if self.hint is not None else ""
        for hint in self.query("#effect-hint").results(Static):
            hint.update(literal(said))
            hint.display = bool(said)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "field-effect":
            self._show_hint(event.value)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """↓ goes to the list from the fields; once in the list it moves there as usual."""
        if action == "presets":
            lists = self.query("#presets")
            return bool(lists) and not lists.first().has_focus
        return super().check_action(action, parameters)

    def action_presets(self) -> None:
        if self.presets:
            self.query_one("#presets", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        values = self.presets[int(event.option_id or 0)][1]
        for name, value in values.items():
            field = self.query(f"#field-{name}")
            if field:
                field.first(Input).value = value
        self.action_submit()
