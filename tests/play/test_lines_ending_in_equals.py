"""`=` with no face after it, in every game: "no die typed". The rules either refuse the line
(nothing logged), or take it (Éclats: no die, the skill alone) and the roll is logged. The log
writes no null field, so what a kind gave as None (`kept_die`) comes back without that key: the
logged roll must still read, on every surface, exactly as the fresh result did."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from gmscreen.campaign import open_session, sample_path
from gmscreen.campaign.export import export_markdown
from gmscreen.campaign.rolllog import RollLog, rolls_path
from gmscreen.cli.common import roll_lines as _roll_lines
from gmscreen.play.logline import log_line
from gmscreen.play.player_view import public_roll
from gmscreen.play.quickroll import QuickRollError
from gmscreen.play.tables import table_for
from gmscreen.play.table_roll import roll_line
from gmscreen.rules import SYSTEMS, get_system


def _lines(system_id: str) -> list[str]:
    """Each example of the game's `?` help that types no faces, with `=` and nothing after."""
    return [f"{example} =" for example, meaning in table_for(system_id).line.help_examples
            if meaning and "=" not in example]


@pytest.mark.parametrize("system_id", list(SYSTEMS))
def test_a_line_ending_in_equals_is_refused_or_reads_from_the_log_as_it_was_rolled(tmp_path: Path,
                                                                                  system_id: str) -> None:
    path = tmp_path / f"{system_id}.toml"
    shutil.copyfile(sample_path(system_id), path)
    system = get_system(system_id)
    logged = 0
    with open_session(path) as session:
        for line in _lines(system_id):
            try:
                roll = roll_line(session, line)
            except QuickRollError:
                assert len(RollLog.load(rolls_path(path)).records) == logged, line     # refused: nothing logged
                continue
            logged += 1
            record = RollLog.load(rolls_path(path)).records[-1]       # as the file gives it back
            fresh = dataclasses.replace(record, result=dict(roll.result))
            assert record.line == line
            kind = system.kinds[record.request["kind"]]
            assert _roll_lines(system, kind, record.request, record.result) == \
                _roll_lines(system, kind, record.request, fresh.result), line
            game = table_for(session.campaign.system)
            assert log_line(record, system, campaign=session.campaign, game=game) == \
                log_line(fresh, system, campaign=session.campaign, game=game), line
            assert public_roll(record, session.campaign) == public_roll(fresh, session.campaign)
            assert export_markdown(session.campaign, [record]) == export_markdown(session.campaign, [fresh])
    if system_id == "eclats":               # the game where no die is a roll: the skill alone
        assert logged == len(_lines(system_id)) > 0
