"""Shared setup of the play core's tests: real sample campaigns copied on disk, opened by a
session, and opened again as a restart would."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest

from gmscreen.campaign import open_session, sample_path
from gmscreen.campaign.session import CampaignSession


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

