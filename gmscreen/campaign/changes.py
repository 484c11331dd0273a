"""Changes to a campaign as small reversible operations.

Every edit the screen makes is a `Change`: a label the GM reads in the status line
("Blessure → Alexis") and a list of `Op`s on paths into the model. A change can be
inverted (undo), re-applied (redo, replay of the journal after a crash) and written to
TOML. Values inside ops are plain data; the model type at the path rebuilds them.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import field
from typing import Any

from gmscreen.rules.records import record

from .model import Campaign, from_data, to_data, type_at

OPS = ("set", "insert", "delete", "move")


@record
class Op:
    """One step. `path` leads to the value (set) or to the list (insert/delete/move).

    set:    old -> new at path
    insert: value inserted at index of the list at path
    delete: value (old) removed from index of the list at path
    move:   item moved from index to `to` in the list at path
    """

    op: str
    path: tuple
    index: int | None = None
    to: int | None = None
    old: Any = None
    new: Any = None

    def inverse(self) -> "Op":
        if self.op == "set":
            return Op("set", self.path, old=self.new, new=self.old)
        if self.op == "insert":
            return Op("delete", self.path, index=self.index, old=self.new)
        if self.op == "delete":
            return Op("insert", self.path, index=self.index, new=self.old)
        return Op("move", self.path, index=self.to, to=self.index)

    def to_data(self) -> dict:
        out: dict[str, Any] = {"op": self.op, "path": list(self.path)}
        if self.index is not None:
            out["index"] = self.index
        if self.to is not None:
            out["to"] = self.to
        # Plain data; a None value is written as an absent key (TOML has no null).
        if self.old is not None:
            out["old"] = to_data(self.old)
        if self.new is not None:
            out["new"] = to_data(self.new)
        return out

    @classmethod
    def from_data(cls, data: dict) -> "Op":
        return cls(
            data["op"], tuple(data["path"]), data.get("index"), data.get("to"),
            data.get("old"), data.get("new"),
        )


@record
class Change:
    label: str
    ops: list[Op] = field(default_factory=list)
    # Made by a roll the players may not see (a GM-only roll's spending): its label is not shown
    # while they watch (`gmscreen.play.public.public_label`). Kept in memory, not in the journal.
    secret: bool = field(default=False, compare=False)

    def inverse(self) -> "Change":
        return Change(self.label, [op.inverse() for op in reversed(self.ops)], self.secret)

    def to_data(self) -> dict:
        return {"label": self.label, "ops": [op.to_data() for op in self.ops]}

    @classmethod
    def from_data(cls, data: dict) -> "Change":
        return cls(data["label"], [Op.from_data(o) for o in data.get("ops", [])])


class ChangeError(ValueError):
    """An op that does not fit the campaign (bad path, index out of range). `path`: the value
    refused, when the refusal is about one (a counter past its range), so that the screen can
    say it by names; `reason`: the refusal without that path."""

    def __init__(self, message: str = "", *, path: tuple = (), reason: str = "") -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason or message


def _walk(campaign: Campaign, path: tuple) -> Any:
    obj: Any = campaign
    for step in path:
        try:
            if dataclasses.is_dataclass(obj):
                obj = getattr(obj, step)
            else:
                obj = obj[step]
        except (AttributeError, KeyError, IndexError, TypeError) as exc:
            raise ChangeError(f"no value at {'.'.join(map(str, path))}") from exc
    return obj


def get(campaign: Campaign, path: tuple) -> Any:
    return _walk(campaign, tuple(path))


def _build(campaign_type: type, path: tuple, value: Any) -> Any:
    """Plain data -> model object for the declared type at `path`."""
    if value is None:
        return None
    return from_data(type_at(campaign_type, path), copy.deepcopy(to_data(value)))


def apply_op(campaign: Campaign, op: Op) -> None:
    path = tuple(op.path)
    if op.op == "set":
        parent = _walk(campaign, path[:-1])
        key = path[-1]
        value = _build(Campaign, path, op.new)
        if dataclasses.is_dataclass(parent):
            setattr(parent, key, value)
        elif isinstance(parent, dict):
            if value is None:
                parent.pop(key, None)
            else:
                parent[key] = value
        else:
            parent[key] = value
        return
    target = _walk(campaign, path)
    if not isinstance(target, list):
        raise ChangeError(f"{'.'.join(map(str, path))} is not a list")
    if op.op == "insert":
        index = len(target) if op.index is None else op.index
        if not 0 <= index <= len(target):
            raise ChangeError(f"index {index} out of range")
        target.insert(index, _build(Campaign, path + (index,), op.new))
    elif op.op == "delete":
        if op.index is None or not 0 <= op.index < len(target):
            raise ChangeError(f"index {op.index} out of range")
        del target[op.index]
    elif op.op == "move":
        if op.index is None or op.to is None or not (0 <= op.index < len(target) and 0 <= op.to < len(target)):
            raise ChangeError("move out of range")
        item = target.pop(op.index)
        target.insert(op.to, item)
    else:
        raise ChangeError(f"unknown op {op.op!r}")


def apply_change(campaign: Campaign, change: Change) -> None:
    for op in change.ops:
        apply_op(campaign, op)


# ---------------------------------------------------------------- builders that read the old value


def set_op(campaign: Campaign, path: tuple, new: Any) -> Op:
    path = tuple(path)
    parent = _walk(campaign, path[:-1])
    if isinstance(parent, dict):
        old = parent.get(path[-1])
    else:
        old = _walk(campaign, path)
    return Op("set", path, old=copy.deepcopy(to_data(old)), new=to_data(new))


def insert_op(campaign: Campaign, path: tuple, index: int | None, value: Any) -> Op:
    target = _walk(campaign, tuple(path))
    return Op("insert", tuple(path), index=len(target) if index is None else index, new=to_data(value))


def delete_op(campaign: Campaign, path: tuple, index: int) -> Op:
    target = _walk(campaign, tuple(path))
    return Op("delete", tuple(path), index=index, old=copy.deepcopy(to_data(target[index])))


def move_op(path: tuple, index: int, to: int) -> Op:
    return Op("move", tuple(path), index=index, to=to)
