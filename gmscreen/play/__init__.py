"""The headless table: what a GM does at the table, with no screen.

The quick-roll line (`quickroll`: words, grammar, completion, history, the roll flow with
its choices), turns and their ticks (`turns`, `encounter`, `declarations`), timers and
extended tests (`timers`), the odds memo (`chances`) and a roll as text (`logline`). It
imports `rules` and `campaign`, never Textual: the screen shows it, and the command line
can drive it alone.
"""
