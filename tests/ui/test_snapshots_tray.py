"""The dice tray's states as recorded, reached by real key presses at 80×24: a line typed with its
odds, a result after Enter, a choice waiting (Magisphère reroll, Te Deum Providence), the grammar
help, and a dialog.

Snapshots are SVG files under tests/ui/__snapshots__/test_snapshots_tray/ (pytest-textual-snapshot).
The dice are seeded, so a roll is the same every run. How to review and rewrite them: see the
docstring of test_snapshots.py (`pytest --snapshot-update tests/ui/test_snapshots*.py`).
Lines are typed short (names and skills by their start, as a GM does): every key press costs.
"""

from __future__ import annotations


def test_typed_line_shows_its_odds(snap_screen) -> None:
    assert snap_screen("mir", "slash", *"al for sd4 +1d")


def test_result_after_enter(snap_screen) -> None:
    assert snap_screen("mir", "slash", *"al for sd3", "enter", seed=1)


def test_magisphere_reroll_prompt(snap_screen) -> None:
    """Only a natural 20 succeeds against 35: spend 1 Impulsion to reroll, or keep."""
    assert snap_screen("magisphere", "slash", *"sh discr 35", "enter", seed=3)


def test_tedeum_providence_prompt(snap_screen) -> None:
    assert snap_screen("tedeum", "slash", *"lo cha 13", "enter", seed=1)


def test_grammar_help(snap_screen) -> None:
    assert snap_screen("eclats", "slash", "question_mark")


def test_add_character_dialog(snap_screen) -> None:
    assert snap_screen("mir", "a")
