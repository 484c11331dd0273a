"""Where a campaign's files are: the campaign itself (a link followed), and each side file
beside it. It imports none of the modules that write those files, so each of them (and
`sidefile.CampaignFiles`, which names them all) can find the others' files without a circle."""

from __future__ import annotations

import os
from pathlib import Path


def real_path(path: str | Path) -> Path:
    """A symlinked campaign is saved, locked and logged beside the file it points to, so an
    atomic replace never turns the link into a copy and every name shares one lock."""
    p = Path(path)
    return p.resolve() if p.is_symlink() else p


def beside(campaign_path: str | Path, suffix: str) -> Path:
    """`X.toml` -> `X<suffix>` beside the real file (a name without `.toml` just gains the
    suffix): where a campaign's roll log, journal and pending rolls live."""
    p = real_path(campaign_path)
    stem = p.name[:-5] if p.name.endswith(".toml") else p.name
    return p.with_name(stem + suffix)


def lock_path(campaign_path: str | Path) -> Path:
    p = real_path(campaign_path)
    return p.with_name(p.name + ".lock")


def journal_path(campaign_path: str | Path) -> Path:
    return beside(campaign_path, ".journal.toml")


def rolls_path(campaign_path: str | Path) -> Path:
    """`X.toml` -> `X.rolls.toml` (a name without `.toml` just gains the suffix)."""
    return beside(campaign_path, ".rolls.toml")


def history_path(campaign_path: str | Path) -> Path:
    return beside(campaign_path, ".history.toml")


def pending_path(campaign_path: str | Path) -> Path:
    """`X.toml` -> `X.pending.toml` (a name without `.toml` just gains the suffix)."""
    return beside(campaign_path, ".pending.toml")


def backup_path(path: str | Path) -> Path:
    p = real_path(path)
    return p.with_name(p.name + ".bak")


def fsync_dir(path: Path) -> None:
    """Make a new or renamed directory entry durable."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
