"""The catalogs: every message the code asks for has a French and an English text with the same
placeholders, the compiled catalogs match their sources, and the language is chosen as the
README says (--lang, config.toml, the environment, French)."""

from __future__ import annotations

import ast
import functools
import string
from pathlib import Path

import pytest

from gmscreen import i18n
from gmscreen.i18n import msgfmt
from gmscreen.i18n.typography import Name, percent, signed

PACKAGE = Path(__file__).resolve().parents[1] / "gmscreen"
CALLS = {"_": (0,), "N_": (0,), "ngettext": (0, 1), "pgettext": (1,)}


@functools.cache
def _asked() -> dict[tuple[str | None, str], str]:
    """Every literal message the code passes to _, N_, ngettext or pgettext -> where (the code
    read once for both languages; only read)."""
    found: dict[tuple[str | None, str], str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.func.id not in CALLS:
                continue
            args = node.args
            context = None
            if node.func.id == "pgettext" and args and isinstance(args[0], ast.Constant):
                context = args[0].value
            first = CALLS[node.func.id][0]
            if len(args) > first and isinstance(args[first], ast.Constant) and isinstance(args[first].value, str):
                found.setdefault((context, args[first].value), f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def _fields(text: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_asked_for_is_in_the_catalog(lang: str) -> None:
    catalog = msgfmt.catalog(lang)
    missing = [f"{where}: {key[1]!r}" for key, where in _asked().items() if key not in catalog]
    assert missing == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_translation_keeps_the_placeholders_of_its_message(lang: str) -> None:
    wrong = []
    for key, entry in msgfmt.catalog(lang).items():
        expected = _fields(entry.msgid) | _fields(entry.msgid_plural or "")
        for text in entry.msgstr:
            if _fields(text) != expected:
                wrong.append(f"{entry.where}: {entry.msgid!r} -> {text!r}")
    assert wrong == []


def test_french_and_english_translate_the_same_messages() -> None:
    assert set(msgfmt.catalog("fr")) == set(msgfmt.catalog("en"))


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_compiled_catalogs_match_their_sources(lang: str) -> None:
    assert msgfmt.mo_path(lang).read_bytes() == msgfmt.mo_bytes(lang), \
        "run: python -m gmscreen.i18n.msgfmt"


def test_the_language_is_chosen_by_option_then_config_then_environment() -> None:
    assert i18n.choose("en", "fr", {"LANG": "fr_FR.UTF-8"}) == "en"
    assert i18n.choose(None, "en", {"LANG": "fr_FR.UTF-8"}) == "en"
    assert i18n.choose(None, None, {"LANG": "en_GB.UTF-8"}) == "en"
    assert i18n.choose(None, None, {"LANGUAGE": "de:en", "LANG": "fr_FR"}) == "en"
    assert i18n.choose(None, None, {"LC_ALL": "de_DE", "LANG": "en_US"}) == "fr"
    assert i18n.choose(None, None, {}) == "fr"
    assert i18n.language() == "fr"


def test_french_names_contract_and_numbers_are_french() -> None:
    turn = "au tour {name:de}, à {other}".format
    assert turn(name=Name("Le garde de la porte"), other="x") == "au tour du garde de la porte, à x"
    assert "{n:de}".format(n=Name("Alexis")) == "d'Alexis"
    assert "{n:à}".format(n=Name("Les jumeaux")) == "aux jumeaux"
    assert "{n:de}".format(n=Name("la reine")) == "de la reine"
    assert [percent(p) for p in (0.125, 0.996, 0.003, 0.58)] == ["12,5\u202f%", "99,6\u202f%", "0,3\u202f%",
                                                                  "58\u202f%"]
    assert signed(-2) == "−2" and signed(2) == "+2"
    i18n.set_language("en")
    assert "{n:de}".format(n=Name("Le garde")) == "Le garde"
    assert [percent(p) for p in (0.125, 0.996, 0.003, 1.0, 0.0)] == ["12.5%", "99.6%", "0.3%", "100%", "0%"]


def test_the_pseudo_language_marks_every_message() -> None:
    i18n.set_language(i18n.PSEUDO)
    assert i18n._("Undo") == "⟦Ůṅḋȯ⟧"
    assert i18n.pseudo("{n} roll of {name:de}, %(type)s") == "⟦{n} ṙȯŀŀ ȯḟ {name:de}, %(type)s⟧"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_lazy_catalog_reader_says_what_the_stdlib_says(lang: str) -> None:
    """Every message, context and plural form of the shipped catalogs, read back through
    `catalog_for` exactly as gettext's own reader gives it."""
    import gettext

    ours = i18n.catalog_for(lang)
    with open(i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo", "rb") as handle:
        stdlib = gettext.GNUTranslations(handle)
    wrong = []
    for key in stdlib._catalog:
        if isinstance(key, tuple):
            calls = [("ngettext", key[0], key[0] + "+", n) for n in (0, 1, 2, 11)]
        elif "\x04" in key:
            calls = [("pgettext", *key.split("\x04"))]
        else:
            calls = [("gettext", key)]
        for name, *args in calls:
            if getattr(ours, name)(*args) != getattr(stdlib, name)(*args):
                wrong.append((name, args))
    assert wrong == [] and len(stdlib._catalog) > 1000
    assert ours.gettext("not in the catalog") == "not in the catalog"
    assert ours.ngettext("one apple", "{n} apples", 2) == "{n} apples"
    assert ours.plural(0) == stdlib.plural(0) and ours.plural(2) == stdlib.plural(2)


def test_a_catalog_the_lazy_reader_does_not_take_is_read_by_the_stdlib(tmp_path, monkeypatch) -> None:
    """A big-endian or non-UTF-8 `.mo` (none is shipped) goes to gettext's reader; a missing one
    gives the English ids."""
    import struct

    def mo(entries: dict[bytes, bytes], *, big: bool, charset: str) -> bytes:
        entries = {b"": f"Content-Type: text/plain; charset={charset}\nPlural-Forms: nplurals=2; plural=(n > 1);\n"
                   .encode(), **entries}
        order = "> " if big else "<"
        keys = sorted(entries)
        ids_at, strs_at = 28, 28 + 8 * len(keys)
        data_at = strs_at + 8 * len(keys)
        blob, ids, strs = b"", [], []
        for table, values in ((ids, keys), (strs, [entries[k] for k in keys])):
            for value in values:
                table += [len(value), data_at + len(blob)]
                blob += value + b"\0"
        head = struct.pack(f"{order.strip()}7I", 0x950412DE, 0, len(keys), ids_at, strs_at, 0, 0)
        return (head + struct.pack(f"{order.strip()}{2 * len(keys)}I", *ids)
                + struct.pack(f"{order.strip()}{2 * len(keys)}I", *strs) + blob)

    folder = tmp_path / "zz" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    for big, charset, text in ((True, "UTF-8", "é".encode()), (False, "latin-1", "é".encode("latin-1"))):
        (folder / f"{i18n.DOMAIN}.mo").write_bytes(mo({b"Yes": text}, big=big, charset=charset))
        assert i18n.catalog_for("zz").gettext("Yes") == "é"
    # the lazy reader: a singular and a plural with the same first id are two messages
    (folder / f"{i18n.DOMAIN}.mo").write_bytes(mo({b"apple": "pomme".encode(), b"apple\0apples": b"pomme\0pommes"},
                                                  big=False, charset="UTF-8"))
    lazy = i18n.catalog_for("zz")
    assert (lazy.gettext("apple"), lazy.ngettext("apple", "apples", 1), lazy.ngettext("apple", "apples", 2)) == (
        "pomme", "pomme", "pommes")
    assert i18n.catalog_for("nowhere").gettext("Yes") == "Yes"
