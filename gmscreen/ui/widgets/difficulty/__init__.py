"""The difficulty pane: the game's difficulty table and the chance of each row."""
