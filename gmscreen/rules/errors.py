"""Refused requests as data: a code, the field it names and its parameters.

The rules' contract is English (`str(error)`, `.reason`): the catalog `errors_en.toml` builds
that text from the code, so no one ever reads a message back. Other languages are catalogs of
the same shape outside the rules core (`gmscreen.play.messages`), filled by the same `Catalog`.

A catalog is data: templates in `str.format` syntax plus a few conversions for what words
depend on — `{v!t}` the value's type, `{v!v}` type and value, `{v!q}` / `{v!l}` / `{v!o}` a
list quoted, plain or "a, b or c", `{v!w}` a word from the catalog's `[words]`, `{v!n}` the
Python type name, `{e!m}` a nested error's reason, `{e!e}` an error with its field; and two
specs: `{n:roll|rolls}` (the word for n, by the language's plural rule) and `{flag:?then|else}`.
"""

from __future__ import annotations

import string
import tomllib
from pathlib import Path
from typing import Any, Mapping

ENGLISH_FILE = Path(__file__).with_name("errors_en.toml")


def type_key(value: Any) -> str:
    """The kind of a value as catalogs name it: boolean, integer, float, string, list, table, none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, Mapping):
        return "table"
    return type(value).__name__


class Catalog(string.Formatter):
    """One language's messages: `rules` (request refusals), `line` (quick-roll refusals),
    `fields` / `sides` (request fields as said), `types`, `words`, and the `[language]` rules."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        language = data.get("language", {})
        self.singular = frozenset(language.get("singular", (1,)))
        self.or_word = language.get("or", "or")
        self.separator = language.get("separator", ": ")
        self.rules: dict[str, str] = dict(data.get("rules", {}))
        self.line: dict[str, str] = dict(data.get("line", {}))
        self.fields: dict[str, str] = dict(data.get("fields", {}))
        self.sides: dict[str, str] = dict(data.get("sides", {}))
        self.types: dict[str, str] = dict(data.get("types", {}))
        self.words: dict[str, str] = dict(data.get("words", {}))

    @classmethod
    def load(cls, path: Path) -> "Catalog":
        with open(path, "rb") as handle:
            return cls(tomllib.load(handle))

    def merged(self, data: Mapping[str, Any]) -> "Catalog":
        """This catalog with the tables of `data` added (a language file over the rules' one)."""
        out = Catalog(data)
        for name in ("rules", "line", "fields", "sides", "types", "words"):
            setattr(out, name, {**getattr(self, name), **getattr(out, name)})
        return out

    def text(self, table: str, code: str, params: Mapping[str, Any]) -> str | None:
        """The words of `code` in one table ("rules" or "line"), or None when it is not there."""
        template = getattr(self, table).get(code)
        return None if template is None else self.vformat(template, (), params)

    def reason(self, exc: "RequestError") -> str:
        text = self.text("rules", exc.code, exc.params)
        return exc.reason if text is None else text

    def field(self, name: str) -> str:
        for prefix, side in self.sides.items():
            if name.startswith(prefix) and name[len(prefix):] in self.fields:
                return f"{self.fields[name[len(prefix):]]} ({side})"
        return self.fields.get(name, name)

    def message(self, exc: "RequestError") -> str:
        return f"{self.field(exc.field)}{self.separator}{self.reason(exc)}"

    # string.Formatter hooks ------------------------------------------------------

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion in (None, "r", "s", "a"):
            return super().convert_field(value, conversion)
        if conversion == "t":
            return self.types.get(type_key(value), type(value).__name__)
        if conversion == "v":
            return f"{self.types.get(type_key(value), type(value).__name__)} {value!r}"
        if conversion == "n":
            return type(value).__name__
        if conversion == "q":
            return ", ".join(repr(c) for c in value)
        if conversion == "l":
            return ", ".join(str(c) for c in value)
        if conversion == "o":
            names = [str(c) for c in value]
            return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {self.or_word} {names[-1]}"
        if conversion == "w":
            return self.words.get(str(value), str(value))
        if conversion == "m":
            return self.reason(value)
        if conversion == "e":
            return self.message(value)
        raise ValueError(f"unknown conversion !{conversion}")

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("?"):
            then, _, otherwise = format_spec[1:].partition("|")
            return then if value else otherwise
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            return one if value in self.singular else many
        return super().format_field(value, format_spec)


_english: Catalog | None = None
_added: dict[str, str] = {}


def english() -> Catalog:
    """The rules' own catalog, read on the first refusal that is put into words."""
    global _english
    if _english is None:
        catalog = Catalog.load(ENGLISH_FILE)
        catalog.rules.update(_added)
        _english = catalog
    return _english


def add_messages(messages: Mapping[str, str]) -> None:
    """A third-party system's own codes, in English templates."""
    _added.update(messages)
    if _english is not None:
        _english.rules.update(messages)


class RequestError(ValueError):
    """A request that cannot be resolved: the offending key, a code and its parameters.

    `reason` (and `str()`) is the English text of the code. A code the catalog does not know
    is its own text, so a plugin that raises `RequestError(field, "some words")` still reads.
    """

    def __init__(self, field: str, code: str, /, **params: Any) -> None:
        super().__init__(field, code)
        self.field = field
        self.code = code
        self.params = params
        self._reason: str | None = None

    @property
    def reason(self) -> str:
        if self._reason is None:
            text = english().text("rules", self.code, self.params)
            self._reason = self.code if text is None else text
        return self._reason

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}"

    def __reduce__(self):
        return _rebuild, (self.field, self.code, self.params)


def _rebuild(field: str, code: str, params: dict) -> RequestError:
    return RequestError(field, code, **params)
