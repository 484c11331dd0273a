"""How numbers, signs, chances and names are written in the language spoken.

French as a French reader expects it: a typographic minus (−2), a decimal comma and a narrow
no-break space before "%" (12,5 %), and names that contract with what precedes them ("au tour
du garde", "d'Alexis", "à la reine"). English: 12.5%, "−2" as well (the games are French).
A chance never rounds to a lie: 99.6 % is not "100 %", 0.3 % is not "0 %", 12.5 % is not "12 %".
"""

from __future__ import annotations

import unicodedata

from . import language

MINUS = "\u2212"
NARROW_NBSP = "\u202f"


def signed(value: int) -> str:
    """+2, −2, 0 (margins, modifiers)."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def minus(value: int | float) -> str:
    """A number with a typographic minus when negative, no sign otherwise."""
    text = number(abs(value)) if isinstance(value, float) else str(abs(value))
    return f"{MINUS}{text}" if value < 0 else text


def number(value: float, decimals: int = 1) -> str:
    """A decimal number in the language's style (12,5 / 12.5), trailing zeros dropped."""
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{value:.0f}"
    return text.replace(".", ",") if language() != "en" else text


def percent_figure(chance: float) -> str:
    """The figure of a chance in percent, as few decimals as keep it true: whole numbers,
    except that 0 and 100 are only said of what is impossible or certain (0.3, 99.6, 0.04) and
    that a half is not rounded away (12.5)."""
    value = chance * 100
    if value <= 0:
        return "0"
    if value >= 100:
        return "100"
    whole = round(value)
    decimals = 0
    if whole in (0, 100) or abs(value - int(value) - 0.5) < 0.05:
        decimals = 1
        while decimals < 4 and round(value, decimals) in (0, 100):
            decimals += 1
    return number(value, decimals) if decimals else str(whole)


def percent(chance: float) -> str:
    """A chance as the reader writes it: "12,5 %" (French), "12.5%" (English)."""
    figure = percent_figure(chance)
    return f"{figure}%" if language() == "en" else f"{figure}{NARROW_NBSP}%"


# ---------------------------------------------------------------- names in running text

_VOWELS = set("aeiouyàâäéèêëîïôöùûüœæh")
# Articles at the start of a name ("Le garde", "la reine mère", "L'ogre", "Les jumeaux").
_ARTICLES = (("les ", "les"), ("le ", "le"), ("la ", "la"), ("l'", "l'"), ("l’", "l'"))
_CONTRACTED = {("de", "le"): "du ", ("de", "les"): "des ", ("à", "le"): "au ", ("à", "les"): "aux ",
               ("de", "la"): "de la ", ("de", "l'"): "de l'", ("à", "la"): "à la ", ("à", "l'"): "à l'"}


def _article(name: str) -> tuple[str, str] | None:
    low = name.lower()
    for prefix, article in _ARTICLES:
        if low.startswith(prefix) and len(name) > len(prefix):
            return article, name[len(prefix):]
    return None


class Name:
    """A name (typed by the GM: never translated) as a message places it. In a French
    message, `{name:de}` and `{name:à}` contract with the name's article or elide before a
    vowel, and `{name:le}` lowers a leading article in running text; English ignores them.
    `{name:a}` puts English's indefinite article before it ("an Éclats sheet"); French ignores it."""

    __slots__ = ("text",)

    def __init__(self, text: object) -> None:
        self.text = str(text)

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        if spec == "a":                 # English: with its indefinite article ("an Éclats", "a MIR")
            if language() != "en":
                return self.text
            first = unicodedata.normalize("NFD", self.text[:1])[:1].lower()
            return ("an " if first in "aeiou" and first else "a ") + self.text
        if not spec or language() == "en":
            return self.text
        if spec not in ("de", "à", "le"):
            raise ValueError(f"unknown name form {spec!r}: expected de, à or le")
        found = _article(self.text)
        if found is not None:
            article, rest = found
            if spec == "le":
                return ("l'" if article == "l'" else article + " ") + rest
            return _CONTRACTED[(spec, article)] + rest
        if spec == "le":
            return self.text
        if spec == "de" and self.text[:1].lower() in _VOWELS:
            return "d'" + self.text
        return f"{spec} {self.text}"
