"""`@record` behaves as `@dataclass` for every shape our code declares: the same signature,
fields, defaults, equality, hashing, repr, freezing, `replace` and `asdict`. Each shape is
declared twice, once with each decorator, and both are driven with the same values."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import KW_ONLY, FrozenInstanceError, dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gmscreen.rules.records import record


def _shapes(decorate: Any, frozen_decorate: Any) -> dict[str, type]:
    @decorate
    class Plain:
        """Two required fields, two defaults."""

        name: str
        value: int
        note: str = ""
        rounds: int | None = None

    @decorate
    class Factories:
        """Fresh containers per instance, metadata kept, a field left out of compare and repr."""

        id: str
        items: list[int] = field(default_factory=list)
        table: dict[str, int] = field(default_factory=dict, metadata={"omit_empty": True})
        cache: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @decorate
    class KeywordOnly:
        path: str
        _: KW_ONLY
        exists: bool = False
        size: int = 0

    @decorate
    class PostInit:
        base: int
        double: int = field(init=False, default=0)
        seen: list[int] = field(init=False, default_factory=list)

        def __post_init__(self) -> None:
            self.double = self.base * 2

    @frozen_decorate
    class Frozen:
        """Frozen, hashable, a tuple and a callable default."""

        key: str
        lo: int = 0
        choices: tuple[int, ...] = ()
        text: Any = field(default=str, compare=False)

    @decorate
    class Empty:
        pass

    shapes = {"plain": Plain, "factories": Factories, "keyword_only": KeywordOnly, "post_init": PostInit,
              "frozen": Frozen, "empty": Empty}
    for cls in shapes.values():                 # found by name, as pickle looks for them
        cls.__qualname__ = cls.__qualname__.rpartition(".")[2]
    return shapes


DATACLASSES = _shapes(dataclass, dataclass(frozen=True))
RECORDS = _shapes(record, record(frozen=True))
for _name, _cls in RECORDS.items():
    globals()[_cls.__qualname__] = _cls

ARGS = {
    "plain": [(("a", 1), {}), (("a", 1, "n"), {"rounds": 3}), ((), {"name": "b", "value": 2, "note": "x"})],
    "factories": [(("x",), {}), (("x", [1, 2]), {"table": {"a": 1}, "cache": {"c": 0}})],
    "keyword_only": [(("p",), {}), (("p",), {"exists": True, "size": 3})],
    "post_init": [((4,), {}), ((), {"base": -1})],
    "frozen": [(("k",), {}), (("k", 1, (2, 3)), {"text": repr})],
    "empty": [((), {})],
}


def _pairs() -> list[tuple[str, tuple, dict]]:
    return [(shape, args, kwargs) for shape, calls in ARGS.items() for args, kwargs in calls]


@pytest.mark.parametrize("shape", sorted(DATACLASSES))
def test_the_same_signature_and_fields(shape: str) -> None:
    want, got = DATACLASSES[shape], RECORDS[shape]
    assert str(inspect.signature(got)) == str(inspect.signature(want))
    assert dataclasses.is_dataclass(got)
    assert [(f.name, f.default, f.default_factory, f.init, f.repr, f.compare, dict(f.metadata), f.kw_only)
            for f in dataclasses.fields(got)] == [
        (f.name, f.default, f.default_factory, f.init, f.repr, f.compare, dict(f.metadata), f.kw_only)
        for f in dataclasses.fields(want)]
    assert got.__match_args__ == want.__match_args__


@pytest.mark.parametrize(("shape", "args", "kwargs"), _pairs())
def test_the_same_instances(shape: str, args: tuple, kwargs: dict) -> None:
    want = DATACLASSES[shape](*args, **kwargs)
    got = RECORDS[shape](*args, **kwargs)
    assert repr(got) == repr(want)
    assert dataclasses.asdict(got) == dataclasses.asdict(want)
    assert got == RECORDS[shape](*args, **kwargs) and got != want      # by value, within its own class
    assert dataclasses.replace(got) == got and dataclasses.replace(got) is not got
    assert pickle.loads(pickle.dumps(got)) == got


def test_factories_make_a_fresh_value_for_each_instance() -> None:
    a, b = RECORDS["factories"]("a"), RECORDS["factories"]("b")
    a.items.append(1)
    assert b.items == [] and a.items is not b.items


def test_compare_false_is_left_out_of_equality_and_repr_false_out_of_repr() -> None:
    make = RECORDS["factories"]
    assert make("a", cache={"x": 1}) == make("a", cache={"y": 2})
    assert "cache" not in repr(make("a", cache={"x": 1}))


def test_post_init_runs_and_init_false_fields_take_their_defaults() -> None:
    made = RECORDS["post_init"](5)
    assert (made.double, made.seen) == (10, [])


def test_frozen_refuses_changes_and_hashes_by_value() -> None:
    make = RECORDS["frozen"]
    item = make("k", 1)
    with pytest.raises(FrozenInstanceError):
        item.lo = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del item.lo  # type: ignore[misc]
    assert hash(item) == hash(make("k", 1)) and {item, make("k", 1)} == {item}
    assert dataclasses.replace(item, lo=3).lo == 3 and item.lo == 1


def test_mutable_records_are_unhashable_as_dataclasses_are() -> None:
    with pytest.raises(TypeError):
        hash(RECORDS["plain"]("a", 1))
    with pytest.raises(TypeError):
        hash(DATACLASSES["plain"]("a", 1))


def test_eq_false_keeps_identity() -> None:
    @record(eq=False)
    class Handle:
        path: str

    a = Handle("x")
    assert a != Handle("x") and a == a and hash(a) == hash(a)


def test_a_record_writing_its_own_init_is_refused() -> None:
    with pytest.raises(TypeError, match="__init__"):
        @record
        class Own:
            x: int

            def __init__(self) -> None:
                self.x = 0


def test_the_same_errors_for_wrong_calls() -> None:
    for shape in ("plain", "keyword_only", "frozen"):
        for args, kwargs in (((), {}), (("a", 1, "n", 2, 9), {}), (("a",), {"nope": 1})):
            with pytest.raises(TypeError):
                DATACLASSES[shape](*args, **kwargs)
            with pytest.raises(TypeError):
                RECORDS[shape](*args, **kwargs)


values = st.one_of(st.integers(), st.text(max_size=5), st.none(), st.lists(st.integers(), max_size=3))


@given(values, values, values, values)
def test_equality_and_order_of_fields_as_dataclasses(a: Any, b: Any, c: Any, d: Any) -> None:
    want = DATACLASSES["plain"](a, b, c, d) == DATACLASSES["plain"](a, b, d, c)
    assert (RECORDS["plain"](a, b, c, d) == RECORDS["plain"](a, b, d, c)) == want
    assert repr(RECORDS["plain"](a, b, c, d)) == repr(DATACLASSES["plain"](a, b, c, d))
