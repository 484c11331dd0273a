"""The live table with no screen (`gmscreen.play.Table`): every action a GM takes, and the
events it tells, each with who may see it. Real sample campaigns on disk."""

from __future__ import annotations

import pytest

from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.play import events as ev
from gmscreen.play.joins import NEXT_ROUND, THIS_ROUND
from gmscreen.play.public import Visibility
from gmscreen.play.table import Table


def test_a_typed_line_tells_its_draft_and_who_may_see_it(open_table) -> None:
    table, heard = open_table("mir")
    table.type_line("loriane éloquence sd3")
    (told,) = heard.of(ev.DraftChanged)
    assert told.draft is not None and told.draft.who == "Loriane" and told.error is None
    assert told.visibility is Visibility.PUBLIC
    table.type_line("mj loriane éloquence sd3")
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.SECRET
    table.type_line("loriane éloquence sd3 caché")
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.DIFFICULTY_HIDDEN
    table.type_line("mj zorglub")
    last = heard.of(ev.DraftChanged)[-1]
    assert last.draft is None and last.error is not None and last.visibility is Visibility.SECRET


def test_the_gm_only_flag_makes_the_line_secret_and_is_told(open_table) -> None:
    table, heard = open_table("mir")
    table.type_line("loriane éloquence sd3")
    table.toggle_gm_only()
    assert heard.of(ev.GmOnlyChanged) == [ev.GmOnlyChanged(True)]
    assert heard.of(ev.DraftChanged)[-1].visibility is Visibility.SECRET
    table.submit()
    (shown,) = heard.of(ev.RollShown)
    assert shown.record is not None and shown.record.gm_only and shown.visibility is Visibility.SECRET


def test_submit_logs_the_roll_empties_the_line_and_remembers_it(open_table) -> None:
    table, heard = open_table("mir")
    roll = table.submit("loriane éloquence sd3")
    assert roll is not None and roll.record is not None
    (logged,) = heard.of(ev.RollLogged)
    assert logged.record.seq == roll.record.seq and logged.visibility is Visibility.PUBLIC
    assert [r.seq for r in RollLog.load(rolls_path(table.session.path)).records] == [roll.record.seq]
    assert table.line == "" and table.history == ["loriane éloquence sd3"]
    assert table.last_line == "loriane éloquence sd3"
    assert heard.of(ev.DraftChanged)[-1].draft is None


def test_a_line_that_cannot_roll_tells_why_and_logs_nothing(open_table) -> None:
    table, heard = open_table("mir")
    assert table.submit("zorglub") is None
    assert heard.of(ev.DraftChanged)[-1].error is not None
    assert table.submit("loriane éloquence") is None              # no difficulty yet
    assert heard.of(ev.DraftChanged)[-1].error.code == "missing"
    assert heard.of(ev.RollLogged) == [] and table.session.rolls == []


def test_a_roll_the_game_forbids_now_is_refused_in_its_words(open_table) -> None:
    """MIR R20: a day-long extended test is not started during a fight (the sample is in round 2);
    the table says the game's own words and rolls nothing, as the screen shows them."""
    table, heard = open_table("mir")
    assert table.session.campaign.encounter.round > 0
    assert table.submit("loriane éloquence étendu sd3 jour max3") is None
    error = heard.of(ev.DraftChanged)[-1].error
    assert error.code == "refused" and error.message.startswith("R20 : pendant un combat")
    assert table.roll is None and table.session.rolls == [] and table.session.campaign.timers == \
        open_table("mir")[0].session.campaign.timers


def test_a_choice_is_asked_then_answered_by_its_key(open_table, english) -> None:
    table, heard = open_table("tedeum")
    table.submit("louvensac entregent 6")
    assert table.roll_waiting
    (asked,) = heard.of(ev.PromptOpened)
    assert asked.prompt.options and heard.of(ev.RollLogged) == []
    assert not table.undo()                 # refused while the choice is open
    assert "waiting for a choice" in heard.notices()[-1]
    assert not table.choose("§")            # no such option
    assert table.choose("enter")
    assert not table.roll_waiting and len(heard.of(ev.RollLogged)) == 1


def test_cancel_before_any_die_logs_nothing(open_table) -> None:
    table, heard = open_table("tedeum")
    table.submit("louvensac entregent 6")
    assert table.roll_waiting and heard.of(ev.PromptOpened)[-1].result is None
    table.cancel_roll()
    (ended,) = heard.of(ev.RollEnded)
    assert ended.record is None and not ended.kept
    assert table.session.rolls == [] and not table.roll_waiting


def test_close_settles_a_roll_whose_dice_were_shown(open_table) -> None:
    table, heard = open_table("magisphere")
    table.submit("shady négo 25 = 20")          # a natural 20: a reward is asked, the die shown
    assert table.roll_waiting and heard.of(ev.RollShown)[-1].pending
    path = table.session.path
    table.close()
    assert len(RollLog.load(rolls_path(path)).records) == 1


def test_undo_and_redo_tell_the_change_and_its_words(open_table) -> None:
    table, heard = open_table("mir")
    assert table.change("Note", lambda b: b.set(("notes",), "x"))
    assert heard.of(ev.CampaignChanged)[-1] == ev.CampaignChanged("change", "Note")
    assert table.undo() and heard.of(ev.CampaignChanged)[-1].how == "undo"
    assert table.redo() and heard.of(ev.CampaignChanged)[-1].how == "redo"
    assert table.session.campaign.notes == "x"
    assert not table.redo() and heard.notices()[-1]


def test_a_mistake_in_a_change_is_raised_not_hidden(open_table) -> None:
    table, _heard = open_table("mir")
    with pytest.raises(TypeError):
        table.change("Broken", lambda b: b.set(("notes",), 1 + "x"))    # type: ignore[operator]


def test_next_and_previous_turn_move_the_fight_and_select_the_actor(open_table) -> None:
    table, heard = open_table("mir")
    enc = table.session.campaign.encounter
    before = (enc.round, enc.turn)
    move = table.next_turn()
    assert move is not None and move.moved
    assert (enc.round, enc.turn) != before
    current = enc.entries[enc.turn]
    if current.character:
        assert table.selected == current.character
        assert heard.of(ev.SelectionChanged)[-1].char_id == current.character
    back = table.previous_turn()
    assert back is not None and back.undone and (enc.round, enc.turn) == before


def test_an_empty_fight_is_not_moved_and_people_can_join(open_table) -> None:
    table, heard = open_table("mir")
    table.change("End", lambda b: __import__("gmscreen.play.encounter", fromlist=["end_fight"]).end_fight(
        b, table.session.campaign))
    assert table.fight_empty
    move = table.next_turn()
    assert move is not None and not move.moved and move.problem
    groups = dict(table.join_groups())
    assert "party" in groups
    joiners = table.roll_joiners("party", start=True)
    assert joiners is not None and not joiners.needs_when
    table.add_joiners(joiners)
    enc = table.session.campaign.encounter
    assert enc.round == 1 and len(enc.entries) == len(groups["party"])
    assert len(heard.of(ev.RollLogged)) == len(groups["party"])       # each initiative logged


def test_a_late_joiner_asks_when_and_giving_up_adds_nobody(open_table) -> None:
    table, heard = open_table("mir")
    table.next_turn()
    enc = table.session.campaign.encounter
    first = enc.entries[0].initiative
    late = table.joiners([("Renfort", None, first + 50)])
    if not late.needs_when:                 # the sample's turn is on the first: move on once
        table.next_turn()
        late = table.joiners([("Renfort", None, first + 50)])
    assert late.needs_when and late.late == ["Renfort"]
    count = len(enc.entries)
    assert table.add_joiners(late, None) is None and len(enc.entries) == count
    assert table.add_joiners(late, THIS_ROUND) is not None
    assert enc.entries[enc.turn + 1].name == "Renfort"
    other = table.joiners([("Second", None, first + 60)])
    table.add_joiners(other, NEXT_ROUND)
    assert any("Second" in text for text in heard.notices())


def _hide(table: Table, char_id: str) -> str:
    """Keep a character from the players (as `H` does); their name."""
    characters = table.session.campaign.characters
    index = next(i for i, ch in enumerate(characters) if ch.id == char_id)
    assert table.change("Hidden", lambda b: b.set(("characters", index, "hidden"), True))
    return characters[index].name


@pytest.mark.parametrize("watching", [True, False])
def test_a_turn_moved_while_players_watch_never_names_a_hidden_character(open_table, english, watching) -> None:
    """What `n` says is decided at the table, for every front end: while the players watch, a
    notice naming a character hidden from them is masked; else it is told, marked secret."""
    table, heard = open_table("mir")
    name = _hide(table, "alexis")           # Ébloui par la lanterne expires at the end of their turn
    table.watch(watching)
    for _turn in range(3):                  # the guard, Alexis, the dog: round 3
        table.next_turn()
    told = heard.of(ev.Notice)
    named = [n for n in told if name in n.text]
    assert "Round 3" in [n.text for n in told]          # naming nobody hidden: as it is, public
    assert all(n.visibility is Visibility.PUBLIC for n in told if name not in n.text)
    if watching:
        assert named == [] and "(a change the players do not see)" in [n.text for n in told]
    else:
        assert named and all(n.visibility is Visibility.SECRET for n in named)


def test_a_hidden_late_joiner_is_not_named_while_players_watch(open_table) -> None:
    table, heard = open_table("mir")
    name = _hide(table, "geolier")
    table.watch(True)
    late = table.joiners([(name, "geolier", 8)])     # the guard (7) plays: the slot after Callia (9) has passed
    assert late.needs_when
    assert table.add_joiners(late, NEXT_ROUND) is not None
    assert "geolier" in [e.character for e in table.session.campaign.encounter.entries]
    assert heard.notices() and not any("Anselme" in text for text in heard.notices())


def test_people_already_rolled_join_at_their_place_with_no_question(open_table) -> None:
    """The roster's `i` and the initiative pane's `a` roll first, then add through the table."""
    table, heard = open_table("mir")
    enc = table.session.campaign.encounter
    current = enc.entries[enc.turn].id
    joiners = table.joiners([("Renfort", None, 1)])  # after everyone: the turn still reaches them
    assert not joiners.needs_when and joiners.late == []
    result = table.add_joiners(joiners)
    assert result is not None and not result.problem and enc.entries[-1].name == "Renfort"
    assert enc.entries[enc.turn].id == current and "nobody added" not in " ".join(heard.notices())


def test_p_right_after_n_waits_for_the_roll_waiting(open_table, english) -> None:
    """`p` right after `n` is an undo: a roll waiting for a choice blocks it, said, nothing moved."""
    table, heard = open_table("tedeum")
    enc = table.session.campaign.encounter
    assert table.next_turn() is not None
    after = (enc.round, enc.turn)
    table.submit("louvensac entregent 6")
    assert table.roll_waiting
    selected = table.selected
    move = table.previous_turn()
    assert move is not None and not move.moved and not move.undone      # told as it is: nothing moved
    assert (enc.round, enc.turn) == after and table.selected == selected
    assert "waiting for a choice" in heard.notices()[-1]
    table.cancel_roll()
    assert table.previous_turn() is not None and (enc.round, enc.turn) != after


def test_watching_and_selection_are_told_once(open_table) -> None:
    table, heard = open_table("mir")
    table.watch()
    table.watch(True)
    table.select("loriane")
    table.select("loriane")
    assert heard.of(ev.WatchingChanged) == [ev.WatchingChanged(True)]
    assert heard.of(ev.SelectionChanged) == [ev.SelectionChanged("loriane")]


def test_a_read_only_table_refuses_changes_and_says_why(open_table, english) -> None:
    table, heard = open_table("mir")
    table.session.read_only = True
    assert table.next_turn() is None
    assert "read-only" in heard.notices()[-1]


def test_history_keeps_typed_lines_newest_after_a_restart(open_table) -> None:
    table, _heard = open_table("mir")
    table.remember("alexis force sd4")
    table.take_history(["loriane éloquence sd3", "alexis force sd4"])
    assert table.history == ["loriane éloquence sd3", "alexis force sd4"]
    assert table.last_line == "alexis force sd4"


def test_a_reveal_is_told_with_the_roll_now_public(open_table) -> None:
    table, heard = open_table("mir")
    table.set_gm_only(True)
    roll = table.submit("loriane éloquence sd3")
    assert roll is not None and roll.record is not None
    assert table.reveal(roll.record.seq)
    (revealed,) = heard.of(ev.RollRevealed)
    assert revealed.record.revealed and revealed.visibility is Visibility.PUBLIC
