"""The dice tray: the quick-roll line, its odds, completion and help, the result and the
choices a roll asks."""
