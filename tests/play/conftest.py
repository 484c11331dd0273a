"""Shared setup of the play core's tests: real sample campaigns copied on disk, opened by a
session, and opened again as a restart would; a live `Table` on one, and what it tells."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Callable, Iterator

import pytest

from gmscreen.campaign import open_session, sample_path
from gmscreen.campaign.session import CampaignSession
from gmscreen.play import events as ev
from gmscreen.play.table import Table


class Sessions:
    """`open(system)`: a session on a private copy of that system's sample; `reopen(session)`:
    saved, closed, and the file opened anew. Every one is closed after the test."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._opened: list[CampaignSession] = []

    def open(self, system: str) -> CampaignSession:
        path = self._folder / f"{system}.toml"
        shutil.copyfile(sample_path(system), path)
        return self._track(open_session(path))

    def reopen(self, session: CampaignSession) -> CampaignSession:
        session.save_now()
        session.close()
        return self._track(open_session(session.path))

    def _track(self, session: CampaignSession) -> CampaignSession:
        self._opened.append(session)
        return session

    def close_all(self) -> None:
        for session in self._opened:
            if not session.closed:
                session.close()


@pytest.fixture
def sessions(tmp_path: Path) -> Iterator[Sessions]:
    opened = Sessions(tmp_path)
    yield opened
    opened.close_all()



class Heard(list):
    """The events a table told, in order."""

    def of(self, kind: type) -> list:
        return [e for e in self if isinstance(e, kind)]

    def notices(self) -> list[str]:
        return [e.text for e in self.of(ev.Notice)]


@pytest.fixture
def open_table(sessions: Sessions) -> Callable[..., tuple[Table, Heard]]:
    """`open_table(system, seed=…)`: a Table on a copy of that system's sample (its dice drawn
    from `random.Random(seed)`, as the tray's `rng=`), and what it tells."""

    def make(system: str, seed: int = 1) -> tuple[Table, Heard]:
        table = Table(sessions.open(system), rng=random.Random(seed))
        heard = Heard()
        table.subscribe(heard.append)
        return table, heard

    return make
