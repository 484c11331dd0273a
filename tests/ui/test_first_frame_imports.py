"""The first frame, started as the GM starts it (`gmscreen CAMPAIGN.toml`), imports only what it
shows: not the installed packages' entry points (read when every system is listed, by --help
or an unknown id), nor the tray's help, odds and result modules (imported at the first key
typed, `?` or roll), nor a game the campaign does not use."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from gmscreen.rules import SYSTEMS

# What the first frame does without; each is imported where it is first used.
DEFERRED = (
    "importlib.metadata",                        # the registry's discovery of third-party systems
    "gmscreen.rules.mir",                        # the first-run game, named by --help only
    "gmscreen.ui.widgets.tray.grammar_help",     # `?`
    "gmscreen.ui.widgets.tray.odds_pricing",     # the odds of a line being typed
    "gmscreen.ui.widgets.tray.roll_odds",
    "gmscreen.ui.widgets.tray.odds_fit",
    "gmscreen.play.chances",
    "gmscreen.play.choice_odds",
    "gmscreen.ui.widgets.tray.roll_result",      # a roll shown in the tray
    "gmscreen.play.encounter",                   # the roster's actions (at 80x24 the initiative pane is not drawn)
    "gmscreen.play.roster_rules",
    "json", "tomli_w",                           # the roll log's fast reader, saving: after the first frame
    "gmscreen.ui.terminal.quick_switch",                  # a worker thread's: none shares the interpreter with the first frame
    "gmscreen.play.effects",                     # the conditions' effects: on a roll; unread ones warned of after
    "gmscreen.play.effect_rules",
    "_hashlib",                                  # OpenSSL: a file's version is told apart by Python's own hash
)

FIRST_FRAME_MODULES = textwrap.dedent('''
    import functools
    import sys
    import textual.app as textual_app
    from gmscreen.cli import main

    shown = textual_app.App._display
    seen = []

    def display(self, screen, update):
        shown(self, screen, update)
        if not seen:
            seen.extend(sorted(sys.modules))
            self.exit()

    textual_app.App._display = display
    textual_app.App.run = functools.partialmethod(textual_app.App.run, headless=True, size=(80, 24))
    main([sys.argv[1]])
    print("MODULES", " ".join(seen))
''')


def _first_frame_modules(path, tmp_path) -> set[str]:
    """Every module imported when `gmscreen PATH` draws its first frame (in a fresh process)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
               GMSCREEN_CONFIG_DIR=str(tmp_path / "config"), GMSCREEN_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-c", FIRST_FRAME_MODULES, str(path)], env=env, capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split("MODULES", 1)[1].split())


def test_the_first_frame_from_the_command_line_imports_none_of_the_deferred_modules(campaign_file, tmp_path):
    modules = _first_frame_modules(campaign_file("eclats"), tmp_path)
    assert "gmscreen.ui.widgets.tray.dice_tray" in modules and "gmscreen.rules.eclats" in modules
    assert modules.isdisjoint(DEFERRED), sorted(modules & set(DEFERRED))


def test_the_first_frame_imports_only_the_campaigns_own_game(campaign_file, tmp_path):
    modules = _first_frame_modules(campaign_file("eclats"), tmp_path)
    games = {name.split(".")[2] for name in modules
             if name.startswith(("gmscreen.rules.", "gmscreen.play.games."))} & set(SYSTEMS)
    assert games == {"eclats"}, sorted(modules)
