"""The initiative pane: the order of the fight, its rounds, delays, declarations and timers."""
