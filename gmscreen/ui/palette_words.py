"""The words a GM looks a command up by (ctrl+p), besides its title: "condition" finds "Add
condition", "aide" finds the keys screen.

Each entry is one msgid of phrases separated by commas, by a key's id (as a keymap names it) or
by a system command's title msgid; each language's catalog gives its own phrases, and the palette
matches every phrase of every language. A command without an entry is found by its title alone.
"""

from __future__ import annotations

from gmscreen.i18n import N_

SEARCH_WORDS = {
    # the screen
    "app.quick-roll": N_("quick roll, dice, test, line"),
    "app.next-turn": N_("next turn, turn, round, next"),
    "app.previous-turn": N_("previous turn, back, turn"),
    "app.undo": N_("undo, cancel, take back, mistake"),
    "app.redo": N_("redo, again"),
    "app.pane-roster": N_("characters, party, roster, npcs"),
    "app.pane-initiative": N_("initiative, fight, combat, turn order"),
    "app.pane-difficulty": N_("difficulty, table, threshold"),
    "app.pane-log": N_("log, history, rolls"),
    "app.gm-only": N_("hidden roll, secret, behind the screen"),
    "app.repeat-roll": N_("repeat, again, reroll"),
    "app.search-log": N_("search, find, log"),
    "app.zoom": N_("zoom, maximize, full screen"),
    "app.theme": N_("theme, colours, colors, dark, light"),
    "app.open": N_("open, load, campaign, file"),
    "app.luck": N_("luck, statistics, dice luck"),
    "app.keys": N_("help, keys, shortcuts, keyboard"),
    "app.quit": N_("quit, exit, close, leave"),
    # the roster
    "roster.sheet": N_("sheet, character sheet, stats"),
    "roster.edit": N_("edit, change, rename, modify"),
    "roster.add": N_("new character, create, add"),
    "roster.duplicate": N_("copy, duplicate, clone"),
    "roster.remove": N_("delete, remove, kill"),
    "roster.resource-up": N_("resource, points, gain, more"),
    "roster.resource-down": N_("resource, points, spend, less"),
    "roster.add-condition": N_("condition, status, effect, wound"),
    "roster.remove-condition": N_("condition, status, effect, heal, cure"),
    "roster.to-initiative": N_("initiative, fight, join the fight"),
    "roster.new-session": N_("new session, next session, session"),
    "roster.hide": N_("hide, secret, players"),
    # the initiative
    "initiative.next-turn": N_("next turn, turn, next"),
    "initiative.set-initiative": N_("initiative, score, value"),
    "initiative.delay": N_("wait, delay, hold, come back"),
    "initiative.declare": N_("declare, action, intent"),
    "initiative.add": N_("add, join the fight"),
    "initiative.add-group": N_("add everyone, party, npcs"),
    "initiative.roll-all": N_("roll initiative, everyone"),
    "initiative.sort": N_("sort, order"),
    "initiative.remove": N_("delete, remove, leave the fight"),
    "initiative.roll-timer": N_("timer, countdown, extended test"),
    "initiative.new-timer": N_("timer, countdown, extended test, clock"),
    "initiative.start": N_("start, fight, combat, begin"),
    "initiative.end": N_("end, fight, combat, stop"),
    # the log and the tray
    "log.search": N_("search, find"),
    "log.reveal": N_("reveal, show, hidden roll, secret"),
    "log.watching": N_("players, watching, audience, public"),
    "dice-tray.gm-only": N_("hidden roll, secret, behind the screen"),
    "dice-tray.repeat": N_("repeat, again, reroll"),
    # Textual's system commands, by their title
    "Theme": N_("theme, colours, colors, dark, light"),
    "Quit": N_("quit, exit, close, leave"),
    "Keys": N_("help, keys, shortcuts, keyboard"),
    "Screenshot": N_("screenshot, picture, image, svg"),
    "Save now": N_("save, write, backup, store"),
}
