"""The grammar, told to the GM in the words of each game (`?` in an empty quick-roll line).

Kept as data (examples and their meaning, then notes) and laid out for the width the help
screen has: at 80×24 a long example takes a line of its own and its meaning goes below,
aligned with the others, and every line wraps on words.
"""

from __future__ import annotations

import re
import textwrap

from gmscreen.rules import get_system

DEFAULT_WIDTH = 70
_EXAMPLE_COLUMN = 30            # widest example that keeps its meaning on the same line

_KEY_AND_WORD = re.compile(r"(?<!\S)(\S) (?=\w)")

# (title, [(example, meaning)], [notes]) per system; an example without meaning is a sub-heading.
Section = tuple[str, list[tuple[str, str]], list[str]]

_SYSTEMS: dict[str, Section] = {
    "mir": (
        "MIR — pool de d12 (compétence + Voie), 7–11 = 1 succès, 12 = 2 succès",
        [
            ("loriane éloquence sd3", "test simple, SD 3 (ou « moyenne », ou 3)"),
            ("6d12 sd2", "pool brut de 6 dés"),
            ("alexis force sd4 +1d aide loriane", "+1d/−1d : dés de situation (±2) ; aide : test de groupe"),
            ("callia infiltration vs garde instinct",
             "test opposé (l'initiateur gagne les égalités ; « initiateur » après vs : l'opposant a "
             "l'initiative)"),
            ("loriane guérison 8 jour max3",
             "test étendu (tour, heure, jour, semaine ; max N tests) : le premier test est lancé et un "
             "minuteur démarre"),
            ("malus 2 / blessures", "dés retirés (antécédents négatifs ; « blessures » lit la fiche)"),
            ("= 1 5 4 6 11 12", "faces lancées à la table"),
        ],
        [],
    ),
    "eclats": (
        "Éclats — un d10 lu 0–9, relancé selon la caractéristique (0–3), + compétence ≥ seuil",
        [
            ("ysaure emp calmer 15", "caractéristique (abréviation ou nom) + compétence, seuil 15"),
            ("mael agi pister difficile", "seuil par son nom dans la table"),
            ("2d10+3 9", "caractéristique 2, compétence 3 sans fiche"),
            ("= 3 0", "dés lancés à la table, le dernier est gardé ; « = » seul : pas de jet"),
        ],
        ["Après chaque dé, s'il reste des lancers : r relancer · g garder (Entrée = garder)"],
    ),
    "magisphere": (
        "Magisphère — 1d20 + statistique + compétence + bonus ≥ seuil + malus",
        [
            ("shady négociation 25 +2 malus 5", "seuil 25, bonus 2 (+N), malus 5 (malus N ou −N)"),
            ("shady négo 20 imp", "imp : 1 Impulsion dépensée avant le jet, +3"),
            ("granok force vs bob force",
             "opposition (sans la compétence, la statistique où elle est rangée)"),
            ("granok force vs bob force tendue",
             "opposition étendue (brève 2, tendue 3, majeure 5) : minuteur"),
            ("shady discrétion 18 aide granok", "coopération : moitié de la compétence de l'aide"),
            ("= 5 14", "premier d20 puis relances ; camps séparés par /"),
        ],
        ["Après un échec, s'il reste de l'Impulsion : r relancer (1 point) · g garder"],
    ),
    "tedeum": (
        "Te Deum — dé de caractéristique ouvert + compétence ≥ difficulté",
        [
            ("louvensac charme 13 providence", "Providence appelée avant le jet (le dé baisse d'un cran)"),
            ("louvensac perception 9 bonus", "bonus / malus : dé d'un cran plus gros / plus petit"),
            ("louvensac comédie vs gentilhomme perspicacité", "opposition"),
            ("saint escrime attaque vs gentil escrime",
             "attaque (« surpris » ou « sans défense » : pas de défense)"),
            ("= 12 5 4", "dé (et ses explosions), puis Providence, puis dé négatif"),
        ],
        ["Sans « providence » ni « sans providence », le tray demande : p Providence · n sans"],
    ),
    "arpeges": (
        "Les Arpèges — ±d10 (chance − malchance) + difficulté finale = marge, réussite à 0",
        [
            ("marchand baratin -3",
             "difficulté −3 ; Caractéristique et Moyen : les meilleurs de la fiche, ou nommez-les "
             "(« thibault intuition manœuvre baratin »)"),
            ("thibault baratin -3 vs marchand baratin", "confrontation : si l'action réussit, p parer · n non"),
            ("thibault baratin -3 x2", "2 actions simultanées (−3 chacune)"),
            ("sibylle épée vs marchand baratin", "opposition en un jet (« 2j » : en deux jets)"),
            ("ouvert", "jet ouvert (±d10°) · « sans parade » : pas de parade"),
            ("= 6 5", "dé de chance puis dé de malchance ; camps séparés par /"),
        ],
        [],
    ),
}

_COMMON_TITLE = "Une ligne = un test :"
_COMMON_FORM = "[mj] nom compétence difficulté [modificateurs] [vs nom compétence] [= faces]"
_COMMON_NOTES = [
    "accents et majuscules facultatifs ; noms et compétences par début unique (« lor élo »)",
    "sans nom : le personnage sélectionné fait le test",
    "vs / contre : test opposé · aide / help nom : un personnage aide",
    "mj / gm / secret : jet réservé au MJ (h bascule aussi) · caché / hidden : difficulté secrète",
    "= faces : dés lancés à la table, dans l'ordre (relances et explosions comprises), camps séparés "
    "par / quand il le faut",
    "difficulté par nombre ou par le début de son nom dans la table (« difficile », « très f »)",
    "Entrée lance · ↑ reprend la ligne · . relance le dernier jet · Tab complète · Échap sort de la ligne",
]


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """Wrap on words; a French space before « : ; » or after «, or after a one-letter key,
    never starts or ends a line."""
    for before in (" :", " ;", " »"):
        text = text.replace(before, "\u00a0" + before[1:])
    text = text.replace("« ", "«\u00a0")
    text = _KEY_AND_WORD.sub("\\1\u00a0", text)             # "p Providence", "r relancer"
    return textwrap.wrap(text, width=max(width, len(first) + 10), initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False, break_long_words=False) or [first.rstrip()]


def _examples(examples: list[tuple[str, str]], width: int) -> list[str]:
    """Examples in a column, their meanings aligned after it (below it when an example is long)."""
    column = 2 + min(_EXAMPLE_COLUMN, max((len(e) for e, _ in examples), default=0)) + 2
    if width - column < 24:             # too narrow for two columns: meaning under the example
        column = 6
    pad = " " * column
    out: list[str] = []
    for example, meaning in examples:
        head = "  " + example
        if len(head) + 2 <= column:
            out += _wrap(meaning, width, head.ljust(column), pad)
        else:
            out.append(head)
            out += _wrap(meaning, width, pad, pad)
    return out


def grammar_help(system_id: str, width: int = DEFAULT_WIDTH) -> str:
    """The quick-roll grammar with examples for this system, then the common rules, in lines
    of at most `width` cells (an example longer than that is the only exception)."""
    system = get_system(system_id)
    title, examples, notes = _SYSTEMS[system_id]
    lines = _wrap(title, width, "", "  ")
    lines += _examples(examples, width)
    for note in notes:
        lines += _wrap(note, width, "  ", "  ")
    table = ", ".join(f"{d.label} {d.value}" for d in system.difficulties if d.label and d.value is not None)
    lines += _wrap(f"Difficultés : {table}", width, "  ", "    ")
    lines += ["", _COMMON_TITLE]
    lines += _wrap(_COMMON_FORM, width, "  ", "    ")
    bullet = "  · "
    for note in _COMMON_NOTES:
        lines += _wrap(note, width, bullet, " " * len(bullet))
    return "\n".join(lines) + "\n"
