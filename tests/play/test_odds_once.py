"""Odds are computed once per distinct request while a line is typed: parsing (and its rules
check) computes none; the tray's odds, its before-the-modifier odds and the difficulty table's
rows ask the memo, which computes each distinct request once. Counted at the kinds' own odds
functions, for every example line of every registered game, typed one key at a time."""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import replace

import pytest

from gmscreen.campaign import load_campaign, sample_path
from gmscreen.play import chances
from gmscreen.play.games import table_for
from gmscreen.play.quickroll import QuickRollError, parse
from gmscreen.rules import SYSTEMS, RequestError, get_system


@pytest.fixture
def odds_calls(monkeypatch) -> Counter:
    """Every kind's odds function of every system, wrapped to count its calls per request; the
    memo starts empty."""
    calls: Counter = Counter()
    for system_id in SYSTEMS:
        kinds = get_system(system_id).kinds
        for name, kind in list(kinds.items()):
            def counted(reader, _odds=kind.odds):
                calls[repr(sorted(reader.request.items()))] += 1
                return _odds(reader)
            monkeypatch.setitem(kinds, name, replace(kind, odds=counted))
    monkeypatch.setattr(chances, "_memo", OrderedDict())
    return calls


def _drafts_typed(line: str, campaign) -> list:
    """The draft after each key of `line` (None where the line does not read yet)."""
    drafts = []
    for end in range(1, len(line) + 1):
        try:
            drafts.append(parse(line[:end], campaign))
        except QuickRollError:
            drafts.append(None)
    return drafts


def _shown(draft, system) -> None:
    """What the screen asks for one draft: the tray's odds (and before the modifier), and the
    difficulty table's chance at every row (the pane's own way: the draft at that value)."""
    for request in (draft.odds_request, draft.baseline):
        if request is not None:
            try:
                chances.chance(request)
            except RequestError:
                pass
    kind = system.kinds[draft.kind]
    if any(spec.name == system.difficulty_field for spec in kind.fields):
        for row in system.difficulties:
            if row.value is not None:
                try:
                    chances.chance({**draft.odds_request, system.difficulty_field: row.value})
                except RequestError:
                    pass


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_typing_a_line_computes_each_requests_odds_once(system_id: str, odds_calls: Counter) -> None:
    campaign = load_campaign(sample_path(system_id))
    system = get_system(system_id)
    lines = [line for line, _ in table_for(system_id).line.help_examples if not line.startswith("=")]
    typed = [(line, _drafts_typed(line, campaign)) for line in lines]
    assert odds_calls == Counter(), "parsing computed odds"
    read = [draft for _, drafts in typed for draft in drafts if draft is not None and not draft.forced]
    assert read, f"no example of {system_id} reads"
    for draft in read:
        _shown(draft, system)          # every keystroke shows the tray and the table again
        _shown(draft, system)
    assert odds_calls, "nothing was priced"
    assert max(odds_calls.values()) == 1, [r for r, n in odds_calls.items() if n > 1]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_refused_line_computes_no_odds(system_id: str, odds_calls: Counter) -> None:
    """A line refused for a difficulty past the table's end (by the grammar or by the rules'
    check) computes no odds."""
    campaign = load_campaign(sample_path(system_id))
    system = get_system(system_id)
    example = table_for(system_id).line.help_examples[0][0]
    start, end = parse(example, campaign).difficulty_span
    too_hard = max(row.value for row in system.difficulties if row.value is not None) + 1000
    with pytest.raises(QuickRollError) as caught:
        parse(example[:start] + str(too_hard) + example[end:], campaign)
    assert caught.value.position >= start
    assert odds_calls == Counter()
