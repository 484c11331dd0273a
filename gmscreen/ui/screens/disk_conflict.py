"""The campaign file changed on disk while the screen had unsaved changes: the GM chooses.

Three one-key answers, nothing chosen for them: `t` takes their version (ours is kept in a
side file), `m` keeps mine (theirs is kept in a side file first), `b` keeps both side by
side. No save runs while this screen is open (the session refuses, see
`CampaignSession.save_now`), and escape does not close it: the choice must be made.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from gmscreen.i18n import N_, _

from ..sanitize import literal
from .dialog import Dialog

CHOICES = {"t": "theirs", "m": "mine", "b": "both"}


class DiskConflictScreen(Dialog[str]):
    """Dismissed with "theirs", "mine" or "both"."""

    DEFAULT_CSS = """
    DiskConflictScreen { align: center middle; }
    DiskConflictScreen > #dialog {
        width: 70; max-width: 100%; height: auto; max-height: 100%;
        border: round $warning; background: $surface; padding: 0 1;
    }
    DiskConflictScreen #dialog-title { text-style: bold; }
    DiskConflictScreen .choice { margin-top: 1; }
    DiskConflictScreen #problems { color: $error; margin-top: 1; height: auto; }
    """

    BINDINGS = [
        Binding("t", "choose('theirs')", N_("Take theirs"), id="disk-conflict.theirs"),
        Binding("m", "choose('mine')", N_("Keep mine"), id="disk-conflict.mine"),
        Binding("b", "choose('both')", N_("Keep both"), id="disk-conflict.both"),
    ]

    def __init__(self, path: Path, problems: list[str] | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.problems = list(problems or [])

    def compose(self) -> ComposeResult:
        name = self.path.name
        stem = name[:-5] if name.endswith(".toml") else name
        with Vertical(id="dialog"):
            yield Static(_template(_("{name} changed on disk"), name=literal(name, "bold")), id="dialog-title")
            yield Static(_("Someone (you, an editor, git, a sync tool) changed it while the screen had changes "
                           "not saved yet. Nothing is written before you choose."), markup=False)
            if self.problems:
                yield Static(literal(_("Their version does not load: {problems}").format(
                    problems=_("; ").join(self.problems)), single_line=False), id="problems")
            yield Static(Content.assemble(("t", "bold"), " ", _template(
                _("take theirs — your unsaved changes are kept in {file}"),
                file=literal(f"{name}.mine-<date>", "italic"))), classes="choice")
            yield Static(Content.assemble(("m", "bold"), " ", _template(
                _("keep mine — theirs is first kept in {file}"),
                file=literal(f"{name}.theirs-<date>", "italic"))), classes="choice")
            yield Static(Content.assemble(("b", "bold"), " ", _template(
                _("keep both — yours becomes {file}, theirs stays and is shown"),
                file=literal(f"{stem}.mine-<date>.toml", "italic"))), classes="choice")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


def _template(text: str, **fields: Content) -> Content:
    """A translated sentence whose `{field}`s are styled Content (a file name shown literally)."""
    import string

    parts: list[Content | str] = []
    for literal_text, field, _spec, _conv in string.Formatter().parse(text):
        if literal_text:
            parts.append(literal_text)
        if field is not None:
            parts.append(fields[field])
    return Content.assemble(*parts)
