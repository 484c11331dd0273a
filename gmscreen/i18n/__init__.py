"""Every string a person reads, in the one language chosen.

The stdlib's gettext, with a message catalog per language: the sources are the `.po` files in
`gmscreen/i18n/po/<lang>/` (one file per area of the code, so that each stays short), compiled
into `gmscreen/i18n/locale/<lang>/LC_MESSAGES/gmscreen.mo` by `python -m gmscreen.i18n.msgfmt`
(pure Python: nothing to install; `tests/test_i18n.py` fails when a `.mo` is out of date).
Message ids are the English text; `fr` and `en` both translate every one of them.

This package sits under every layer (it imports nothing of ours): the rules word their results
with it, the campaign its problems, the table its notices, the screen and the CLI the rest.

    from gmscreen.i18n import _, ngettext, N_
    _("Undo: {what}").format(what=label)

The language is chosen once (`choose`: --lang, then config.toml, then the environment, then
French; the screen asks when none of them says) and may change live (`set_language`;
`on_change` callbacks redraw what was shown). What other code writes in English whatever the
language is said from the catalog too: the system's refusals (`os_reason`), the TOML and JSON
parsers' errors (`parsers`), argparse's words (`gmscreen.cli.argwords`), all through `reread`.
The game's own vocabulary (skills, Voies, difficulty labels, names the GM typed) is never
passed through `_`: it stays as the rules and the campaign write it.
"""

from __future__ import annotations

import errno
import gettext
import io
import os
import re
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

from . import game_catalogs

if TYPE_CHECKING:
    from gettext import _TranslationsReader       # (typeshed's: what `_parse` is given)

DOMAIN = "gmscreen"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("fr", "en")
DEFAULT = "fr"
# A pseudo-language for tests: every translated string comes out between these marks, so a
# test can find on screen any text that did not come from the catalog.
PSEUDO = "xx"
MARKS = ("⟦", "⟧")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = ""
_listeners: list[Callable[[str], None]] = []


# Pseudo-language letters: each ASCII letter as a look-alike no French or English word has, so a
# translated word stays recognisable on screen even cut by a column or wrapped over two lines.
_PSEUDO_LETTERS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "ȧƀċḋėḟġḣıĵķŀṁṅȯṗʠṙṡṫůṿẇẋẏżȦḂĊḊĖḞĠḢİĴĶĿṀṄȮṖǪṘṠṪŮṾẆẊẎŻ")
# Left as they are: format fields ({name}, {n:+d}) and printf ones (%s, %(type)s); but the words
# of a plural or conditional field ({n:roll|rolls}, {flag:?then {x}|else}) are the message's own.
_PRINTF = re.compile(r"%\([a-z_]+\)[a-z]|%[a-z]")


def _swap(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            depth, j = 1, i + 1
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            field = text[i + 1:j - 1]
            name, colon, spec = field.partition(":")
            if "|" in spec or spec.startswith("?"):
                spec = _swap(spec)
            out.append("{" + name + colon + spec + "}")
            i = j
        elif ch == "%" and (match := _PRINTF.match(text, i)):
            out.append(match.group())
            i = match.end()
        else:
            out.append(ch.translate(_PSEUDO_LETTERS))
            i += 1
    return "".join(out)


def pseudo(text: str) -> str:
    """`text` in the pseudo-language: between MARKS, its letters swapped for look-alikes."""
    return f"{MARKS[0]}{_swap(text)}{MARKS[1]}"


class _Marked(gettext.NullTranslations):
    """The English catalog in the pseudo-language (see `pseudo`)."""

    _fallback: gettext.NullTranslations | None   # set by add_fallback; typeshed leaves it out

    def __init__(self, inner: gettext.NullTranslations) -> None:
        super().__init__()
        self._inner = inner

    def gettext(self, message: str) -> str:
        return pseudo(self._inner.gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(self._inner.ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(self._inner.pgettext(context, message))


_ABSENT_KEPT = 4096            # messages remembered as not in a catalog (a bound: ids are constants)


class _Messages:
    """A compiled catalog's messages, each decoded the first time it is asked for.

    Reading a `.mo` whole with the stdlib decodes its 1,500 messages and their translations,
    2 ms of every start for the few dozen words a first frame shows. Here the file is indexed
    by its raw msgids once (slices, no decoding; a plural under its singular and a NUL);
    `gettext.GNUTranslations` looks messages up in it as in its own dict (`get`, `[]`, with
    (msgid, form) keys for plurals)."""

    def __init__(self, data: bytes, index: dict[bytes, tuple[int, int]]) -> None:
        self._data, self._index = data, index
        self._decoded: dict[object, str] = {}
        self._absent: set[object] = set()             # asked for and not there (the English id then)

    def __getitem__(self, key: object) -> str:
        found = self._decoded.get(key)
        if found is not None:
            return found
        msgid, form = key if isinstance(key, tuple) else (key, None)
        try:
            start, end = self._index[msgid.encode() + (b"" if form is None else b"\0")]
        except (KeyError, UnicodeEncodeError, AttributeError):
            raise KeyError(key) from None
        raw = self._data[start:end]
        if form is not None:
            forms = raw.split(b"\0")
            if not 0 <= form < len(forms):
                raise KeyError(key)
            raw = forms[form]
        found = self._decoded[key] = raw.decode()
        return found

    def get(self, key: object, default: object = None) -> object:
        found = self._decoded.get(key)
        if found is not None:
            return found
        if key in self._absent:
            return default
        try:
            return self[key]
        except KeyError:
            if len(self._absent) < _ABSENT_KEPT:
                self._absent.add(key)
            return default


class _Compiled(gettext.GNUTranslations):
    """A little-endian UTF-8 `.mo` (what `msgfmt` writes) read lazily; anything else is read
    by the stdlib as before."""

    _catalog: dict[object, str] | _Messages     # (the stdlib's own dict when it read the file)
    _decoded: dict[object, str]

    def _parse(self, fp: _TranslationsReader) -> None:
        data = fp.read()
        header = struct.unpack_from("<5I", data) if len(data) >= 20 else (0,) * 5
        magic, version, count, ids, strs = header
        if magic != self.LE_MAGIC or version >> 16 not in self.VERSIONS:
            return self._read_whole(data)
        try:
            lengths_ids = struct.unpack_from(f"<{2 * count}I", data, ids)
            lengths_strs = struct.unpack_from(f"<{2 * count}I", data, strs)
        except struct.error:
            return self._read_whole(data)                    # (the stdlib says what is wrong)
        index: dict[bytes, tuple[int, int]] = {}
        for i in range(0, 2 * count, 2):
            length, at = lengths_ids[i], lengths_ids[i + 1]
            singular, plural_id, _forms = data[at:at + length].partition(b"\0")
            msgid = singular + plural_id                      # a plural: its singular and a NUL
            index[msgid] = (lengths_strs[i + 1], lengths_strs[i + 1] + lengths_strs[i])
        head = index.get(b"")
        if head is None:
            return self._read_whole(data)
        self._info = {}
        self.plural = lambda n: int(n != 1)
        for line in data[head[0]:head[1]].decode().splitlines():
            key, colon, value = line.partition(":")
            if colon:
                self._info[key.strip().lower()] = value.strip()
        self._charset = self._info.get("content-type", "").partition("charset=")[2] or None
        if (self._charset or "").lower().replace("-", "") != "utf8":
            return self._read_whole(data)
        plural = self._info.get("plural-forms", "").partition("plural=")[2].rstrip(";").strip()
        if plural:
            self.plural = _PLURALS.get(plural) or gettext.c2py(plural)
        messages = _Messages(data, index)
        self._catalog, self._decoded = messages, messages._decoded

    def _read_whole(self, data: bytes) -> None:
        super()._parse(io.BytesIO(data))
        assert isinstance(self._catalog, dict)              # (what the stdlib reads into)
        self._decoded = self._catalog

    def gettext(self, message: str) -> str:
        found = self._decoded.get(message)                   # (a plain dict lookup once decoded)
        return found if found is not None else super().gettext(message)


# The plural rules of the languages spoken, as msgfmt writes them (any other: gettext reads it).
_PLURALS: dict[str, Callable[[int], int]] = {"(n > 1)": lambda n: int(n > 1), "n > 1": lambda n: int(n > 1),
                                             "(n != 1)": lambda n: int(n != 1), "n != 1": lambda n: int(n != 1)}


def catalog_for(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (the English ids when it has none: a broken install)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with open(path, "rb") as handle:
            return _Compiled(handle)
    except OSError:
        return gettext.NullTranslations()


def _load(lang: str) -> gettext.NullTranslations:
    if lang == PSEUDO:
        return _Marked(_load("en"))
    catalog = catalog_for(lang)
    _with_games(catalog, lang)
    return catalog


def _with_games(catalog: gettext.NullTranslations, lang: str) -> None:
    """The games' own catalogs (`game_catalogs.add_game_catalog`) after gmscreen's: a message gmscreen's
    has not is looked up in them (no cost for the messages gmscreen's has)."""
    setattr(catalog, "_fallback", None)   # gettext keeps the chain there; typeshed omits it
    if game_catalogs.any_registered():
        for extra in game_catalogs.catalogs(lang):
            catalog.add_fallback(_Copy(extra))


class _Copy(gettext.NullTranslations):
    """A game's catalog as a fallback (add_fallback chains through the catalog itself: a copy
    keeps one game's catalog from carrying gmscreen's, or another game's, behind it)."""

    def __init__(self, inner: gettext.NullTranslations) -> None:
        super().__init__()
        self._inner = inner

    def _next(self) -> gettext.NullTranslations | None:
        found: gettext.NullTranslations | None = getattr(self, "_fallback", None)
        return found

    def gettext(self, message: str) -> str:
        if message in getattr(self._inner, "_catalog", {}):
            return self._inner.gettext(message)
        after = self._next()
        return after.gettext(message) if after else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if (singular, 0) in getattr(self._inner, "_catalog", {}):
            return self._inner.ngettext(singular, plural, n)
        after = self._next()
        if after:
            return after.ngettext(singular, plural, n)
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        if f"{context}\x04{message}" in getattr(self._inner, "_catalog", {}):
            return self._inner.pgettext(context, message)
        after = self._next()
        return after.pgettext(context, message) if after else message


def _refresh_fallbacks() -> None:
    """A game's catalog was added or removed: the language spoken reads it from now on."""
    if _language and _language != PSEUDO:
        _with_games(_translation, _language)


game_catalogs.on_change(_refresh_fallbacks)


def set_language(lang: str) -> None:
    """Speak `lang` ("fr", "en", or the test pseudo-language) from now on."""
    global _translation, _language
    if lang not in LANGUAGES and lang != PSEUDO:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    if lang == _language:
        return
    _translation, _language = _load(lang), lang
    for listener in list(_listeners):
        listener(lang)


def language() -> str:
    """The language spoken now (French until one is chosen)."""
    if not _language:
        set_language(DEFAULT)
    return _language


def on_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call `listener(lang)` after each change of language; returns what removes it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for, as gettext reads it (LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG: the first set), when it is one we speak; else None."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        for part in value.split(":"):            # LANGUAGE may list several: the first we speak
            code = part.strip().lower()[:2]
            if code in LANGUAGES:
                return code
        return None
    return None


def choose(option: str | None = None, configured: str | None = None,
           environ: Mapping[str, str] | None = None) -> str:
    """--lang, else config.toml's `language`, else the environment, else French; set and returned."""
    for candidate in (option, configured):
        if candidate in LANGUAGES:
            set_language(candidate)
            return candidate
    lang = from_environment(environ) or DEFAULT
    set_language(lang)
    return lang


def _(message: str) -> str:
    """`message` (its English text, the msgid) in the language spoken."""
    if not _language:
        language()
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    if not _language:
        language()
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A message whose English is ambiguous alone ("Roll" the noun, "Roll" the verb)."""
    if not _language:
        language()
    return _translation.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a constant for the catalog; it is translated with `_` where it is shown."""
    return message


# The system's usual refusals, said from the catalog: Python gives the C library's English
# whatever the language (it never sets LC_MESSAGES), so "cannot read: No such file or directory"
# came out in a French sentence.
_OS_REASONS = {
    errno.ENOENT: N_("no such file or directory"), errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"), errno.EISDIR: N_("is a directory"),
    errno.ENOTDIR: N_("not a directory"), errno.EROFS: N_("read-only file system"),
    errno.ENOSPC: N_("no space left on device"), errno.EEXIST: N_("file exists"),
    errno.ELOOP: N_("too many levels of symbolic links"), errno.EDQUOT: N_("disk quota exceeded"),
    errno.EIO: N_("input/output error"), errno.EBUSY: N_("device or resource busy"),
    errno.ENAMETOOLONG: N_("file name too long"), errno.EFBIG: N_("file too large"),
    errno.EADDRINUSE: N_("address already in use"), errno.EADDRNOTAVAIL: N_("cannot assign requested address"),
}


def os_reason(exc: BaseException) -> str:
    """Why the system refused (an OSError's reason) in the language spoken: the C library's
    text of a usual error from the catalog; a reason of gmscreen's own (already worded) and
    any other as it is."""
    code, text = getattr(exc, "errno", None), getattr(exc, "strerror", None)
    if code in _OS_REASONS and (not text or text == os.strerror(code)):
        return _(_OS_REASONS[code])
    return str(text or exc)
