"""The difficulty table's row put into the line as text (no screen): in place of the one typed,
before the dice read off the table (`= 3 7 12`), or at the end."""

from __future__ import annotations

from gmscreen.play.quickroll.grammar import parse
from gmscreen.play.quickroll.line_edit import with_difficulty


def test_the_chosen_difficulty_replaces_the_one_typed_where_it_was(sessions) -> None:
    campaign = sessions.open("mir").campaign
    text = "loriane éloquence difficile +1d"
    assert with_difficulty(text, parse(text, campaign), "sd2") == "loriane éloquence sd2 +1d"
    text = "loriane éloquence sd3 = 3 7 12 1 4"
    assert with_difficulty(text, parse(text, campaign), "sd5") == "loriane éloquence sd5 = 3 7 12 1 4"


def test_without_a_difficulty_it_goes_before_the_dice_typed_or_at_the_end(sessions) -> None:
    campaign = sessions.open("mir").campaign
    assert with_difficulty("loriane éloquence = 3 7", None, "sd2") == "loriane éloquence sd2 = 3 7"
    assert with_difficulty("= 3 7", None, "sd2") == "sd2 = 3 7"
    assert with_difficulty("loriane éloquence ", parse("loriane éloquence", campaign), "sd4") == \
        "loriane éloquence sd4"
    assert with_difficulty("", None, "sd1") == "sd1"
