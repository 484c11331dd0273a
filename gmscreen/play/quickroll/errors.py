"""The rules' refusals in the game's words.

`gmscreen.rules` explains a refused request in English (`RequestError.field`, `.reason`):
that is the library's contract, read by tests and by other tools. The tray speaks French,
so the refusals the quick-roll line can trigger (dice typed after `=`, a number out of
range, resources spent) are translated here. A reason not in the table keeps its English
text: an untranslated message is better than a wrong or empty one.
"""

from __future__ import annotations

import re
from typing import Callable

from gmscreen.rules import RequestError

# Request fields as the GM knows them (the prefixes of a contest are said after the name).
_FIELDS = {
    "dice": "dés", "rolls": "dés", "pool": "réserve", "modifier": "modificateur", "penalty": "malus",
    "difficulty": "difficulté", "threshold": "seuil", "skill": "compétence", "voie": "Voie",
    "stat": "statistique", "bonus": "bonus", "impulsions": "Impulsion", "impulse_bonus": "Impulsion",
    "helper_dice": "dés d'aide", "helper_pools": "aides", "helper_skills": "aides",
    "chance_dice": "dé de chance", "malchance_dice": "dé de malchance",
    "providence_dice": "dé de Providence", "negative_dice": "dé négatif", "use_providence": "Providence",
    "characteristic": "caractéristique", "simultaneous_actions": "actions simultanées",
    "die": "dé", "die_shift": "cran de dé", "reroll_limit": "relances",
}
_SIDES = (("actor_", "acteur"), ("opponent_", "opposant"))

# What a Te Deum message calls its dice.
_DIE_NAMES = (
    (re.compile(r"^characteristic die \(D(\d+) shifted by ([+-]\d+)\)$"),
     r"dé de caractéristique (D\1 décalé de \2)"),
    (re.compile(r"^characteristic die$"), "dé de caractéristique"),
    (re.compile(r"^Providence die$"), "dé de Providence"),
    (re.compile(r"^negative die$"), "dé négatif"),
)


def _die(what: str) -> str:
    for pattern, words in _DIE_NAMES:
        if pattern.match(what):
            return pattern.sub(words, what)
    return what


def _plural(n: str, one: str, many: str) -> str:
    return one if n in ("0", "1") else many


def _given(n: str, feminine: bool = False) -> str:
    """"1 donné", "3 donnés" ("données" for faces)."""
    word = "donnée" if feminine else "donné"
    return f"{n} {_plural(n, word, word + 's')}"


def _impulsion_parts(parts: str) -> str:
    out = []
    for part in parts.split(" + "):
        m = re.fullmatch(r"(\d+) rerolls?", part)
        if m:
            out.append(f"{m.group(1)} {_plural(m.group(1), 'relance', 'relances')}")
        elif part == "the +3 bought before the roll":
            out.append("le +3 pris avant le jet")
        else:
            out.append(part)
    return " + ".join(out)


Words = Callable[[re.Match[str]], str]

# (English reason, French words). Patterns are anchored: a reason that only looks alike
# falls through to the English text.
_REASONS: list[tuple[re.Pattern[str], Words]] = [(re.compile(p), f) for p, f in (
    (r"expected exactly (?P<n>\d+) dice \(.*\), got (?P<got>\d+)",
     lambda m: f"il faut exactement {m['n']} dés, {_given(m['got'])}"),
    (r"impossible face (?P<f>-?\d+): this die shows (?P<lo>-?\d+) to (?P<hi>-?\d+)",
     lambda m: f"face {m['f']} impossible : ce dé va de {m['lo']} à {m['hi']}"),
    (r"impossible face (?P<f>-?\d+): a d10 shows 1 to 10",
     lambda m: f"face {m['f']} impossible : un d10 va de 1 à 10"),
    (r"impossible face (?P<f>-?\d+): the (?P<what>.+) is a D(?P<s>\d+) \(faces 1 to \d+\)",
     lambda m: f"face {m['f']} impossible : le {_die(m['what'])} est un D{m['s']} (de 1 à {m['s']})"),
    (r"expected an integer from (?P<lo>-?\d+) to (?P<hi>-?\d+), got (?P<v>-?\d+)",
     lambda m: f"{m['v']} hors limites : de {m['lo']} à {m['hi']}"),
    (r"required: an integer from (?P<lo>-?\d+) to (?P<hi>-?\d+)",
     lambda m: f"manquant : un nombre de {m['lo']} à {m['hi']}"),
    (r"too few dice: (?P<n>\d+) given, more needed",
     lambda m: f"pas assez de dés : {_given(m['n'])}, il en faut plus"),
    (r"too many dice: (?P<n>\d+) given, (?P<u>\d+) used",
     lambda m: f"trop de dés : {_given(m['n'])}, {m['u']} utilisés"),
    (r"too many dice: at most (?P<max>\d+), got (?P<n>\d+)",
     lambda m: f"trop de dés : {m['max']} au plus, {_given(m['n'])}"),
    (r"too many dice: characteristic (?P<c>\d+) allows at most \d+ rolls?, got (?P<n>\d+)",
     lambda m: f"trop de dés : la caractéristique {m['c']} permet {m['c']} "
               f"{_plural(m['c'], 'lancer', 'lancers')} au plus, {_given(m['n'])}"),
    (r"(?P<spent>\d+) Impulsion points spent \((?P<parts>.+)\) but only (?P<a>\d+) available",
     lambda m: f"{m['spent']} points d'Impulsion dépensés ({_impulsion_parts(m['parts'])}), "
               f"{m['a']} seulement disponibles"),
    (r"too few dice: expected the (?P<what>.+) D(?P<s>\d+) and its open rerolls, got none",
     lambda m: f"pas assez de dés : le {_die(m['what'])} D{m['s']} (et ses relances) manque"),
    (r"too many dice: entry (?P<i>\d+) \((?P<f>\d+)\) is below the maximum (?P<s>\d+) of the D\d+, "
     r"so the open die stops there; (?P<extra>\d+) more given",
     lambda m: f"trop de dés : le dé n° {m['i']} ({m['f']}) n'est pas le maximum {m['s']}, le dé ouvert "
               f"s'arrête là ; {m['extra']} de trop"),
    (r"too few dice: the last entry is the maximum (?P<s>\d+) of the D\d+, so the open die is rolled again "
     r"and its next face is needed",
     lambda m: f"pas assez de dés : le dernier dé fait {m['s']}, le maximum : le dé ouvert est relancé, "
               f"il manque la face suivante"),
    (r"too few dice: one face of the (?P<what>.+) D(?P<s>\d+) expected, got none",
     lambda m: f"pas assez de dés : une face du {_die(m['what'])} D{m['s']} attendue"),
    (r"too many dice: one face of the (?P<what>.+) D(?P<s>\d+) expected, got (?P<n>\d+)",
     lambda m: f"trop de dés : une face du {_die(m['what'])} D{m['s']} attendue, {_given(m['n'], True)}"),
    (r"required: the characteristic die faces \(forced dice were given\)",
     lambda m: "manquant : les faces du dé de caractéristique"),
    (r"required with forced dice: (a list of d10 faces \(1 to 10\)|at least one d10 face)",
     lambda m: "manquant : au moins une face de d10"),
    (r"too many dice: without open_roll a die is one face, got (?P<n>\d+)",
     lambda m: f"trop de dés : sans jet ouvert, un dé est une seule face ({_given(m['n'], True)})"),
    (r"too many dice: only a 10 is rolled again in an open roll, (?P<f>\d+) cannot be followed",
     lambda m: f"trop de dés : en jet ouvert seul un 10 est relancé, rien ne suit un {m['f']}"),
    (r"too few dice: an open roll that shows 10 is rolled again",
     lambda m: "pas assez de dés : en jet ouvert, un 10 est relancé (il manque le dé suivant)"),
    (r"must be absent or empty: the action failed \(actor margin below 0\), so no parry is rolled",
     lambda m: "de trop : l'action échoue (marge sous 0), il n'y a pas de parade"),
    (r"must be absent or empty: parry = false, so no parry is rolled",
     lambda m: "de trop : sans parade, pas de dés de parade"),
    (r"required with forced dice: a list of d20 faces \(first roll, then rerolls\)",
     lambda m: "manquant : les faces du d20 (premier jet, puis relances)"),
    (r"expected at least one d20 face: the first roll, then each reroll",
     lambda m: "il faut au moins une face de d20 : le premier jet, puis chaque relance"),
    (r"at most one reroll per test \(reroll_limit = 'one'\): give 1 or 2 faces, got (?P<n>\d+)",
     lambda m: f"une seule relance par test : 1 ou 2 faces, {_given(m['n'], True)}"),
    (r"expected one die per round for each side: (?P<a>\d+) for the actor, (?P<o>\d+) here",
     lambda m: f"un dé par manche pour chaque camp : {m['a']} pour l'acteur, {m['o']} ici"),
    (r"too many dice: the opposition was decided after round (?P<r>\d+), (?P<g>\d+) rounds given",
     lambda m: f"trop de dés : l'opposition est jouée en {m['r']} manches, {_given(m['g'], True)}"),
    (r"too many dice: the extended test was decided at test (?P<t>\d+), but (?P<g>\d+) tests are given",
     lambda m: f"trop de dés : le test étendu est joué en {m['t']} tests, {_given(m['g'])}"),
    (r"expected one list per helper \((?P<n>\d+)\), got (?P<g>\d+)",
     lambda m: f"une série de dés par aide ({m['n']}), {_given(m['g'], True)}"),
    (r"a trivial action \(difficulty 0\) is not rolled: leave dice out or empty",
     lambda m: "une action triviale (SD 0) ne se lance pas : pas de dés"),
    (r"a Brebis égarée \(providence_die = 0\) has no Providence to call on \(R11\)",
     lambda m: "une Brebis égarée n'a pas de Providence à appeler"),
    (r"required by a group test \(the help cap is max\(skill, 1\)\): an integer from 0 to 6",
     lambda m: "manquante : un test de groupe demande la compétence (0 à 6)"),
    (r"unknown field for this system and kind",
     lambda m: "inconnu pour ce jeu et ce test"),
    (r"test (?P<i>\d+): (?P<rest>.+)", lambda m: f"test {m['i']} : {reason_words(m['rest'])}"),
    (r"helper (?P<i>\d+): (?P<rest>.+)", lambda m: f"aide {m['i']} : {reason_words(m['rest'])}"),
)]


def field_words(field: str) -> str:
    """`opponent_chance_dice` -> "dé de chance (opposant)"; an unknown field stays as it is."""
    for prefix, side in _SIDES:
        if field.startswith(prefix) and field[len(prefix):] in _FIELDS:
            return f"{_FIELDS[field[len(prefix):]]} ({side})"
    return _FIELDS.get(field, field)


def reason_words(reason: str) -> str:
    """One English reason in French, or the English text when the table does not know it."""
    for pattern, words in _REASONS:
        m = pattern.fullmatch(reason)
        if m:
            return words(m)
    return reason


def rule_message(exc: RequestError) -> str:
    """What the tray says about a refused request: "dés : il faut exactement 6 dés, 3 donnés"."""
    return f"{field_words(exc.field)} : {reason_words(exc.reason)}"
