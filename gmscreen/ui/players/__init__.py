"""The players' view (`gmscreen players`, `gmscreen serve --players`): a second screen that
follows the GM's session from its files, read-only. The model is `gmscreen.play.player_view`;
here are its app and its widgets, one a module. Textual is loaded only when it runs."""

from __future__ import annotations

from pathlib import Path


def run(path: Path, *, ascii: bool = False, theme: str | None = None, language: str | None = None) -> int:
    """Open the campaign (CampaignError when it cannot be read: nothing is shown), then run the
    view until a player quits; returns the exit status. `language`: --lang; None, and none in
    config.toml nor the environment: the view asks which (`PlayersApp`)."""
    from gmscreen import i18n
    from gmscreen.play.player_view import CampaignWatch

    if language is not None:
        i18n.set_language(language)
    watch = CampaignWatch(path)
    watch.open()
    from .app import PlayersApp

    app = PlayersApp(watch, ascii=ascii, theme=theme, language=language, environment=True)
    try:
        app.run()
    finally:
        watch.close()
    return app.return_code or 0
