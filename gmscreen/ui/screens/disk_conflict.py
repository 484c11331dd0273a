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

from ..sanitize import literal
from .steady import SteadyModalScreen

CHOICES = {"t": "theirs", "m": "mine", "b": "both"}


class DiskConflictScreen(SteadyModalScreen[str]):
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
        Binding("t", "choose('theirs')", "Prendre la leur", id="disk-conflict.theirs"),
        Binding("m", "choose('mine')", "Garder la mienne", id="disk-conflict.mine"),
        Binding("b", "choose('both')", "Garder les deux", id="disk-conflict.both"),
    ]

    def __init__(self, path: Path, problems: list[str] | None = None) -> None:
        super().__init__()
        self.path = Path(path)
        self.problems = list(problems or [])

    def compose(self) -> ComposeResult:
        name = self.path.name
        stem = name[:-5] if name.endswith(".toml") else name
        with Vertical(id="dialog"):
            yield Static(Content.assemble(literal(name, "bold"), " a changé sur le disque"), id="dialog-title")
            yield Static("Quelqu'un (vous, un éditeur, git, une synchronisation) l'a modifié pendant que "
                         "l'écran avait des changements pas encore enregistrés. Rien n'est écrit avant "
                         "votre choix.", markup=False)
            if self.problems:
                yield Static(literal("Leur version ne se charge pas : " + " ; ".join(self.problems),
                                     single_line=False), id="problems")
            yield Static(Content.assemble(("t", "bold"), " prendre la leur — vos changements non enregistrés "
                                          "sont gardés dans ", literal(f"{name}.mine-<date>", "italic")),
                         classes="choice")
            yield Static(Content.assemble(("m", "bold"), " garder la mienne — la leur est d'abord gardée dans ",
                                          literal(f"{name}.theirs-<date>", "italic")), classes="choice")
            yield Static(Content.assemble(("b", "bold"), " garder les deux — la vôtre devient ",
                                          literal(f"{stem}.mine-<date>.toml", "italic"),
                                          ", la leur reste et s'affiche"), classes="choice")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
