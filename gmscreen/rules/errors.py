"""Refused requests as data: a code, the field it names and its parameters.

The rules' contract is English (`str(error)`, `.reason`): the catalog `errors_en.toml` builds
that text from the code, so no one ever reads a message back. Other languages translate each
English template with gettext (`gmscreen/i18n/po/<lang>/errors.po`, msgctxt `rules:<code>`);
`gmscreen.play.messages` gives the same `Catalog` a translation and it renders what returns.

A catalog is data: templates in `str.format` syntax plus a few conversions for what words
depend on — `{v!t}` the value's type, `{v!v}` type and value, `{v!q}` / `{v!l}` / `{v!o}` a
list quoted, plain or "a, b or c", `{v!w}` a word from the catalog's `[words]`, `{v!n}` the
Python type name, `{e!m}` a nested error's reason, `{e!e}` an error with its field; and two
specs: `{n:roll|rolls}` (the word for n, by the language's plural rule) and `{flag:?then|else}`;
`{n:+d}` is written with a typographic minus, `{name:de}` / `{name:à}` contract in French.
"""

from __future__ import annotations

import string
import tomllib
from pathlib import Path
from typing import Any, Mapping

from gmscreen.i18n.typography import Name, signed

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
    `fields` / `sides` (request fields as said), `types`, `words`, and the `[language]` rules.

    The tables hold the English templates. A catalog given a `translation` (a gettext
    translations object) renders, for each code, the template it returns: the English
    template is the msgid, `rules:<code>` / `line:<code>` its context; the words the
    conversions use are translated the same way. `own` holds a language's templates added
    by a third-party game (used as they are)."""

    def __init__(self, data: Mapping[str, Any], translation: Any = None,
                 singular: tuple[int, ...] | None = None) -> None:
        language = data.get("language", {})
        self.translation = translation
        self.singular = frozenset(singular if singular is not None else language.get("singular", (1,)))
        self.or_word = language.get("or", "or")
        self.separator = language.get("separator", ": ")
        self.rules: dict[str, str] = dict(data.get("rules", {}))
        self.line: dict[str, str] = dict(data.get("line", {}))
        self.fields: dict[str, str] = dict(data.get("fields", {}))
        self.sides: dict[str, str] = dict(data.get("sides", {}))
        self.types: dict[str, str] = dict(data.get("types", {}))
        self.words: dict[str, str] = dict(data.get("words", {}))
        self.own: dict[str, dict[str, str]] = {"rules": {}, "line": {}, "fields": {}}

    def _tr(self, context: str, message: str) -> str:
        return message if self.translation is None else self.translation.pgettext(context, message)

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
        template = self.own.get(table, {}).get(code)
        if template is None:
            template = getattr(self, table).get(code)
            if template is None:
                return None
            template = self._tr(f"{table}:{code}", template)
        return self.vformat(template, (), params)

    def reason(self, exc: "RequestError") -> str:
        text = self.text("rules", exc.code, exc.params)
        return exc.reason if text is None else text

    def _field(self, name: str) -> str | None:
        if name in self.own["fields"]:
            return self.own["fields"][name]
        return self._tr("request field", self.fields[name]) if name in self.fields else None

    def field(self, name: str) -> str:
        for prefix, side in self.sides.items():
            said = self._field(name[len(prefix):]) if name.startswith(prefix) else None
            if said is not None:
                return f"{said} ({self._tr('request side', side)})"
        said = self._field(name)
        return name if said is None else said

    def message(self, exc: "RequestError") -> str:
        if self.translation is None:
            return f"{self.field(exc.field)}{self.separator}{self.reason(exc)}"
        return self._tr("error", "{field}: {reason}").format(field=self.field(exc.field), reason=self.reason(exc))

    # string.Formatter hooks ------------------------------------------------------

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion in (None, "r", "s", "a"):
            return super().convert_field(value, conversion)
        if conversion == "t":
            return self._type(value)
        if conversion == "v":
            return f"{self._type(value)} {value!r}"
        if conversion == "n":
            return type(value).__name__
        if conversion == "q":
            return ", ".join(repr(c) for c in value)
        if conversion == "l":
            return ", ".join(str(c) for c in value)
        if conversion == "o":
            names = [str(c) for c in value]
            if len(names) == 1:
                return names[0]
            if self.translation is None:
                return f"{', '.join(names[:-1])} {self.or_word} {names[-1]}"
            return self._tr("error", "{first} or {last}").format(first=", ".join(names[:-1]), last=names[-1])
        if conversion == "w":
            word = self.words.get(str(value))
            return str(value) if word is None else self._tr("error word", word)
        if conversion == "m":           # a nested refusal (or, from older code, its words)
            return self.reason(value) if isinstance(value, RequestError) else str(value)
        if conversion == "e":
            return self.message(value)
        raise ValueError(f"unknown conversion !{conversion}")

    def _type(self, value: Any) -> str:
        word = self.types.get(type_key(value))
        return type(value).__name__ if word is None else self._tr("value type", word)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("?"):
            then, _, otherwise = format_spec[1:].partition("|")
            return then if value else otherwise
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            return one if value in self.singular else many
        if format_spec == "+d":                     # a shift, a modifier: +2, −1 (typographic minus)
            return signed(value)
        if format_spec in ("de", "à", "le"):        # a name after "de"/"à" in French: du, d', au...
            return format(Name(value), format_spec)
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


def add_english(messages: Mapping[str, str]) -> None:
    """A third-party system's own codes, in English templates: what `str(RequestError)` says.
    A game calls `gmscreen.play.add_messages` (the one door, which calls this for "en")."""
    _added.update(messages)
    if _english is not None:
        _english.rules.update(messages)


add_messages = add_english      # the old name, kept for code written against it


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
