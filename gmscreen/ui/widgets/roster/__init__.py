"""The roster pane: the party and its sheets at a glance."""
