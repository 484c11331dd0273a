"""A decision inside a roll (reroll or keep, Providence, parry…): the prompt under the
quick-roll line, whose keys are the options."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from gmscreen.i18n import N_, _
from gmscreen.ui.sanitize import literal
from gmscreen.ui.terminal.bindings import has_binding, set_bindings

if TYPE_CHECKING:
    from gmscreen.play.quickroll import Prompt, RollFlow


class ChoiceOwner(Protocol):
    """What the prompt reads of the tray that holds it: the roll under way (its prompt)."""

    @property
    def flow(self) -> RollFlow | None: ...


class ChoicePrompt(Static, can_focus=True):
    """A decision inside a roll; its keys are the options (shown in the footer)."""

    BINDINGS = [
        # English ids (N_): the footer and the keys help translate them where they are shown.
        Binding("enter", "pick('enter')", N_("default"), id="dice-tray.choice-default"),
        Binding("escape", "cancel", N_("abandon"), id="dice-tray.choice-cancel"),
    ]

    class Picked(Message):
        """The GM answered: `key` is the option's key ("enter": the default)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    class Cancelled(Message):
        """Escape: give the roll up (refused by the tray once dice are on the table)."""

    def __init__(self, tray: ChoiceOwner, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self.tray = tray

    def ask(self, prompt: Prompt) -> None:
        """The keys are the prompt's options' own, with their own words in the footer: any key
        an option declares picks it."""
        options = [Binding(o.key, f"pick({o.key!r})", o.label, id=f"dice-tray.choice-{o.key}")
                   for o in prompt.options if o.key != "enter"]
        shown = {o.key for o in prompt.options}
        also = [Binding(key, f"pick({key!r})", o.label, show=False, id=f"dice-tray.choice-also-{key}")
                for o in prompt.options for key in o.also if key not in shown]     # (the French key in English)
        set_bindings(self, [*options, *also, *self.BINDINGS])

    def open(self, prompt: Prompt, content: Content) -> None:
        """Shown (`content`: the question as the players may see it), its keys live, focused."""
        self.ask(prompt)
        self.update(content)
        self.add_class("-active")
        self.focus()

    def close(self) -> None:
        """No choice open: hidden, and the prompt keeps Enter and Escape only."""
        set_bindings(self, self.BINDINGS)
        self.remove_class("-active")
        self.update("")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        flow = self.tray.flow
        if flow is None or flow.prompt is None:
            return action not in ("pick", "cancel")
        if action == "pick":
            key = str(parameters[0]) if parameters else ""
            return key == "enter" or flow.prompt.option(key) is not None
        if action == "cancel" and flow.result is not None:
            return None         # dice on the table: shown dimmed, escape only says so
        return True

    def on_key(self, event: events.Key) -> None:
        """While a choice is pending, a key that is not one of its options does nothing else
        (an app key such as `p` or `n` must not move the initiative behind the prompt)."""
        flow = self.tray.flow
        if flow is None or flow.prompt is None:
            return
        if event.key == "escape":
            if flow.result is not None:             # the binding is dimmed: say why here
                event.stop()
                event.prevent_default()
                self.action_cancel()
            return
        if event.key == "enter" or flow.prompt.option(event.key) is not None:
            return
        if event.is_printable or has_binding(self, event.key):
            event.stop()
            event.prevent_default()
            self.app.bell()

    def action_pick(self, key: str) -> None:
        self.post_message(self.Picked(key))

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())


def prompt_content(prompt: Prompt, *, with_default: bool = True) -> Content:
    """"Relancer ?  r relancer  g garder (Entrée : garder)": the question and its keys (and
    Enter's choice unless `with_default` is False: it is the choice the odds assume, which
    would tell a hidden difficulty)."""
    options = [Content.assemble((f" {o.key} ", "bold reverse"), " ", literal(o.text))
               for o in prompt.options]
    default = prompt.option("enter") if with_default else None
    tail = " " + _("(Enter: {option})").format(option=default.label) if default else ""
    return Content.assemble(literal(prompt.question), "  ", *_join(options, "  "), (tail, "$text-muted"))


def _join(items: list[Content], sep: str) -> list[Any]:
    out: list[Any] = []
    for n, item in enumerate(items):
        if n:
            out.append(sep)
        out.append(item)
    return out
