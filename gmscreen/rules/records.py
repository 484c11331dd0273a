"""Plain-data classes that cost one small compile each, for every layer's records.

`@record` and `@record(frozen=True)` make a dataclass: `dataclasses.fields`, `replace`,
`asdict` and `is_dataclass` see it as one, and it compares, hashes (frozen) and prints as a
dataclass does. Why not `@dataclass` itself: on Python 3.11 it compiles six methods per frozen
class, one by one, and the first frame imports some forty of these classes (16 ms of it, for a
screen that otherwise starts in 210 ms). Here only `__init__` is compiled, since instances are
made in bulk (a roster, a roll log); equality, hashing, `repr` and refusing changes are shared
functions reading the fields through one `attrgetter`.

Supported: defaults, `field(default_factory=..., repr=False, compare=False, init=False,
metadata=...)`, `KW_ONLY`, `__post_init__`, `frozen`, `eq`. Not supported: `order`, `slots`,
`InitVar`, and a class writing its own `__init__` (refused).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import MISSING, FrozenInstanceError
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, TypeVar, cast

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["record"]

T = TypeVar("T")


class _Factory:
    """The default of a field with a factory ("not given: make one"), shown as dataclasses does."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


@typing.dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T] | None = None, /, *, frozen: bool = False, eq: bool = True) -> Any:
    """`@dataclass`, `@dataclass(frozen=True)` or `@dataclass(eq=False)`, made cheaply; a type
    checker reads it as one (`dataclass_transform`)."""
    def wrap(cls: type[T]) -> type[T]:
        return _make(cls, frozen=frozen, eq=eq)

    return wrap if cls is None else wrap(cls)


def _make(cls: type[T], *, frozen: bool, eq: bool) -> type[T]:
    if "__init__" in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: a record's __init__ is made from its fields")
    if not cls.__dict__.get("__doc__"):
        cls.__doc__ = cls.__name__          # (else dataclasses works out a signature for it)
    dataclasses.dataclass(cls, init=False, repr=False, eq=False)      # the fields, the defaults
    fields = dataclasses.fields(cast("type[DataclassInstance]", cls))  # (it is one now)
    # The methods are set as dataclasses sets them (setattr): they are made here, not patched.
    setattr(cls, "__init__", _init(cls, fields, frozen))
    shown = _getter(f.name for f in fields if f.repr)
    shown_names = [f.name for f in fields if f.repr]

    def __repr__(self: Any) -> str:
        values = shown(self)
        return f"{type(self).__qualname__}(" + ", ".join(
            f"{name}={value!r}" for name, value in zip(shown_names, values)) + ")"

    setattr(cls, "__repr__", __repr__)
    if eq:
        key = _getter(f.name for f in fields if f.compare)

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented

        setattr(cls, "__eq__", __eq__)
        if frozen:
            setattr(cls, "__hash__", lambda self: hash(key(self)))
        elif "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
            setattr(cls, "__hash__", None)    # mutable and compared by value
    if frozen:
        setattr(cls, "__setattr__", _refuse_set)
        setattr(cls, "__delattr__", _refuse_delete)
    return cls


def _getter(names: Any) -> Callable[[Any], tuple]:
    """The values of `names` as one tuple (C speed: `attrgetter`)."""
    names = tuple(names)
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return attrgetter(*names)


def _refuse_set(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _init(cls: type, fields: tuple[dataclasses.Field, ...], frozen: bool) -> Callable[..., None]:
    """`__init__` for `fields`, in the order and with the keyword-only marks dataclasses uses."""
    scope: dict[str, Any] = {"_FACTORY": _FACTORY, "_set": object.__setattr__}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.init:
            if f.default is not MISSING:
                scope[f"_default_{f.name}"] = f.default
                param = f"{f.name}=_default_{f.name}"
            elif f.default_factory is not MISSING:
                param = f"{f.name}=_FACTORY"
            else:
                param = f.name
            (keyword if f.kw_only else positional).append(param)
        if f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            value = f"_factory_{f.name}() if {f.name} is _FACTORY else {f.name}" if f.init else f"_factory_{f.name}()"
        elif f.init:
            value = f.name
        elif f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
            value = f"_default_{f.name}"
        else:
            continue                        # init=False, no default: set by __post_init__
        body.append(f"    _set(self, {f.name!r}, {value})" if frozen else f"    self.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = f"def __init__({params}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(compile(source, f"<record {cls.__module__}.{cls.__qualname__}>", "exec", dont_inherit=True), scope)
    init = scope["__init__"]
    init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init
