"""The roll log pane."""
