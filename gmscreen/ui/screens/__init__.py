"""Modal and full screens of the app."""
