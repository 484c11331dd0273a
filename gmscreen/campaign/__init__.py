"""Campaigns: the model, its TOML files, and the session that is their only writer.

Files of a campaign `X.toml`: `X.toml` (the state, saved atomically; `X.toml.bak` the
previous version), `X.rolls.toml` (append-only roll log), `X.journal.toml` (changes since
the last full save, replayed after a crash) and `X.toml.lock` (one writer at a time).
"""

from typing import TYPE_CHECKING, Any

# Names resolved on first use (PEP 562): `gmscreen roll --campaign` or `validate` import only
# the modules they need, which keeps the command line quick to start.
_WHERE = {
    "changes": ("Change", "ChangeError", "Op", "apply_change", "delete_op", "insert_op", "move_op", "set_op"),
    "errors": ("CampaignError", "CampaignLocked", "Problem"),
    "model": ("FORMAT", "Campaign", "Character", "Condition", "Declaration", "Encounter", "Entry", "RollRecord",
              "Timer", "from_data", "to_data"),
    "samples": ("sample_path",),
    "session": ("CampaignSession", "EditBuilder", "ReadOnlyError", "open_session"),
    "store": ("load_campaign", "save_campaign"),
    "validate": ("new_campaign", "parse_campaign", "validate_file"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

if TYPE_CHECKING:
    from .changes import Change, ChangeError, Op, apply_change, delete_op, insert_op, move_op, set_op
    from .errors import CampaignError, CampaignLocked, Problem
    from .model import (FORMAT, Campaign, Character, Condition, Declaration, Encounter, Entry, RollRecord, Timer,
                        from_data, to_data)
    from .samples import sample_path
    from .session import CampaignSession, EditBuilder, ReadOnlyError, open_session
    from .store import load_campaign, save_campaign
    from .validate import new_campaign, parse_campaign, validate_file


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE_OF))


__all__ = [
    "FORMAT",
    "Campaign",
    "CampaignError",
    "CampaignLocked",
    "CampaignSession",
    "Change",
    "ChangeError",
    "Character",
    "Condition",
    "Declaration",
    "EditBuilder",
    "Encounter",
    "Entry",
    "Op",
    "Problem",
    "ReadOnlyError",
    "RollRecord",
    "Timer",
    "apply_change",
    "delete_op",
    "from_data",
    "insert_op",
    "load_campaign",
    "move_op",
    "new_campaign",
    "open_session",
    "parse_campaign",
    "sample_path",
    "save_campaign",
    "set_op",
    "to_data",
    "validate_file",
]
