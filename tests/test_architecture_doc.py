"""The architecture notes (`gmscreen/docs/architecture.md`) name files, events and the table's
actions: each one named exists, so the notes cannot drift from the code unnoticed."""

from __future__ import annotations

import re
from pathlib import Path

import gmscreen
from gmscreen.play import events
from gmscreen.play.table import Table

ROOT = Path(gmscreen.__file__).parent
REPO = Path(__file__).resolve().parents[1]          # (the tests the notes name)
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_file_the_notes_name_exists() -> None:
    named = set(re.findall(r"`((?:[a-z_]+/)+[a-z_]+\.(?:py|md))`", DOC))
    assert named
    for path in named:
        found = [base / path for base in (ROOT, ROOT / "ui", REPO) if (base / path).exists()]
        assert found, path


def test_every_event_and_table_action_the_notes_name_exists() -> None:
    for name in re.findall(r"`([A-Z][A-Za-z]+(?:Changed|Opened|Shown|Logged|Revealed|Ended|Chosen))`", DOC):
        assert hasattr(events, name), name
    for name in re.findall(r"`Table\.([a-z_]+)", DOC):
        assert callable(getattr(Table, name, None)), name
