"""Compile the `.po` sources into the `.mo` catalogs gettext reads: `python -m gmscreen.i18n.msgfmt`.

Pure Python (GNU msgfmt need not be installed): a wheel ships the compiled `.mo`, and the test
suite recompiles them to check they match their sources. Each language's `.po` files (one per
area of the code) are merged into one catalog; a message translated twice differently is an
error naming both places.
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

HERE = Path(__file__).parent
PO_DIR = HERE / "po"
LOCALE_DIR = HERE / "locale"
PLURAL_FORMS = {"fr": "nplurals=2; plural=(n > 1);", "en": "nplurals=2; plural=(n != 1);"}


class PoError(ValueError):
    """A .po file that cannot be read: names the file and line."""


@dataclass
class Entry:
    msgid: str
    msgstr: list[str]
    msgctxt: str | None = None
    msgid_plural: str | None = None
    fuzzy: bool = False
    where: str = ""                     # file:line, for errors
    comments: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid


def read_po(path: Path) -> list[Entry]:
    """The entries of one .po file (the header entry, msgid "", left out)."""
    entries: list[Entry] = []
    current: dict[str, object] = {}
    section: tuple[str, int | None] | None = None
    fuzzy = False
    start = 0
    comments: list[str] = []

    def close() -> None:
        nonlocal current, fuzzy, comments
        if "msgid" in current:
            strs = current.get("msgstr", {})
            assert isinstance(strs, dict)
            context, plural = current.get("msgctxt"), current.get("msgid_plural")
            entry = Entry(str(current["msgid"]), [strs[i] for i in sorted(strs)],
                          None if context is None else str(context), None if plural is None else str(plural),
                          fuzzy, f"{path}:{start}", comments)
            if entry.msgid or entry.msgctxt:
                entries.append(entry)
        current, fuzzy, comments = {}, False, []

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if "msgid" in current and section is not None and section[0] == "msgstr":
                close()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            elif line.startswith("#.") or line.startswith("#:"):
                comments.append(line)
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if section is None:
                raise PoError(f"{path}:{number}: a string continues nothing")
            text = _unquote(line, path, number)
            name, index = section
            if name == "msgstr":
                strs = current["msgstr"]
                assert isinstance(strs, dict)
                strs[index] += text
            else:
                current[name] = str(current[name]) + text
            continue
        if keyword in ("msgctxt", "msgid") and (
                "msgstr" in current or (keyword == "msgctxt" and "msgid" in current)):
            close()
        if not current:
            start = number
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            current[keyword] = _unquote(rest, path, number)
            section = (keyword, None)
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            index = 0 if keyword == "msgstr" else int(keyword[7:-1])
            strs = current.setdefault("msgstr", {})
            assert isinstance(strs, dict)
            strs[index] = _unquote(rest, path, number)
            section = ("msgstr", index)
        else:
            raise PoError(f"{path}:{number}: expected msgctxt, msgid, msgid_plural or msgstr, got {line[:40]!r}")
    close()
    return entries


def _unquote(text: str, path: Path, number: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{path}:{number}: expected a quoted string, got {text[:40]!r}")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise PoError(f"{path}:{number}: bad string: {exc}") from None


def catalog(lang: str) -> dict[tuple[str | None, str], Entry]:
    """Every entry of `lang`, merged from its .po files; a conflict is a PoError."""
    merged: dict[tuple[str | None, str], Entry] = {}
    for path in sorted((PO_DIR / lang).glob("*.po")):
        for entry in read_po(path):
            if entry.fuzzy:
                continue
            old = merged.get(entry.key)
            if old is not None and (old.msgstr != entry.msgstr or old.msgid_plural != entry.msgid_plural):
                raise PoError(f"{entry.where}: {entry.msgid!r} is translated differently at {old.where}")
            merged[entry.key] = entry
    return merged


def mo_bytes(lang: str) -> bytes:
    """The GNU .mo file of `lang`, keys sorted (the same sources give the same bytes)."""
    return encode(catalog(lang).values(), lang)


def compile_po(po: Path, mo: Path, lang: str, project: str = "gmscreen") -> None:
    """A game's own catalog: `po` compiled into `mo` (its folders made), as `main` does gmscreen's."""
    mo.parent.mkdir(parents=True, exist_ok=True)
    mo.write_bytes(encode([e for e in read_po(po) if not e.fuzzy], lang, project))


def encode(entries: Iterable[Entry], lang: str, project: str = "gmscreen") -> bytes:
    """The GNU .mo bytes of `entries` in `lang`, keys sorted."""
    header = (f"Project-Id-Version: {project}\nLanguage: {lang}\nMIME-Version: 1.0\n"
              f"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n"
              f"Plural-Forms: {PLURAL_FORMS[lang]}\n")
    pairs = {b"": header.encode()}
    for entry in entries:
        key = entry.msgid if entry.msgid_plural is None else f"{entry.msgid}\0{entry.msgid_plural}"
        if entry.msgctxt is not None:
            key = f"{entry.msgctxt}\x04{key}"
        if any(entry.msgstr):
            pairs[key.encode()] = "\0".join(entry.msgstr).encode()
    keys = sorted(pairs)
    ids = strs = b""
    offsets = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(pairs[k])))
        ids += k + b"\0"
        strs += pairs[k] + b"\0"
    n = len(keys)
    start = 7 * 4 + 16 * n
    table_ids, table_strs = [], []
    for o_id, l_id, o_str, l_str in offsets:
        table_ids += [l_id, start + o_id]
        table_strs += [l_str, start + len(ids) + o_str]
    out = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return out + struct.pack(f"{2 * n}i", *table_ids) + struct.pack(f"{2 * n}i", *table_strs) + ids + strs


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "gmscreen.mo"


def main() -> int:
    for lang in PLURAL_FORMS:
        target = mo_path(lang)
        target.parent.mkdir(parents=True, exist_ok=True)
        data = mo_bytes(lang)
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)
            print(f"wrote {target} ({len(catalog(lang))} messages)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
