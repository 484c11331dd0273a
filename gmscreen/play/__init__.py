"""The headless table: what a GM does at the table, with no screen.

The encounter (`encounter`, `turns`, `declarations`, `roster_rules`), timers and extended
tests (`timers`), the quick-roll line (`quickroll`: words, grammar, completion, history,
choices), the roll from Enter to the log (`table_roll`), the odds memo (`chances`), a
result in words (`render`, `logline`) and the catalogs that word every error (`messages`).
What one game means lives in `games/<id>/`, found through `games.table_for`. It imports
`rules` and `campaign`, never Textual: the screen shows it, and `gmscreen line` / `gmscreen
turn` drive it alone.
"""
