"""The game master's screen (Textual). `GMScreenApp` and `run` load Textual only when used,
so the command-line tools that import this package stay quick to start."""

from __future__ import annotations

import gc
import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import GMScreenApp


def __getattr__(name: str) -> Any:
    if name == "GMScreenApp":
        from .app import GMScreenApp

        return GMScreenApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run(path: Path | None, *, new_system: str | None = None, ascii: bool = False, theme: str | None = None,
        language: str | None = None, gc_paused: bool = False) -> int:
    """`gmscreen [CAMPAIGN.toml]`: run the screen until the GM quits; returns the exit status.
    `language`: --lang ("fr", "en"); None: config.toml's, else the environment's, else French (the
    first screen asks when none of them says, see `screens.language_question`).
    `gc_paused`: the entry point paused the collector already (to be resumed all the same)."""
    from gmscreen import i18n
    from gmscreen.i18n import _

    if language is not None:            # chosen by the command line (--lang, config.toml, LANG)
        i18n.set_language(language)
    if new_system is not None:
        if path is None:
            print(_("gmscreen: --new: a CAMPAIGN.toml file to create is required"), file=sys.stderr)
            return 2
        from gmscreen.campaign.commands import cmd_new
        from gmscreen.play.tables import table_for
        from gmscreen.play.template import campaign_template

        status = cmd_new(path, new_system, out=io.StringIO(), err=sys.stderr,
                         template=lambda campaign: campaign_template(campaign, table_for(campaign.system)))
        if status:
            return status
    # Start-up allocates a few hundred thousand objects that live all session (Textual's
    # styles, the campaign, the rules tables): collecting them while they are being built
    # costs a sixth of the start. The app freezes them and turns the collector back on once
    # the first frame is on screen.
    collecting = gc.isenabled() or gc_paused
    gc.disable()
    try:
        from .app import GMScreenApp

        app = GMScreenApp(path, theme=theme, ascii=ascii, resume_gc=collecting, language=language, environment=True)
        result = app.run()
    finally:
        if collecting:
            gc.enable()
    from .lifecycle import exit_words

    said = exit_words(app)
    if said:
        print(said, file=sys.stderr)
    if isinstance(result, int):
        return result
    return app.return_code or 0
