"""Campaign timers as the initiative pane shows and advances them: what a test timer's dice
say so far, its progress in words, and the dice of its next interval.

Kept apart from the pane (and free of Textual) so the words the table, the detail line and
the notices use come from one place and can be checked without an app.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from gmscreen import rules
from gmscreen.rules import mir as mir_rules
from gmscreen.campaign.model import Timer
from gmscreen.campaign.textsafe import clean

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

# The intervals of an extended test, as the rules word them (MIR, "Temporalité"): one table.
INTERVAL_WORDS = mir_rules.INTERVAL_WORDS
STATUS_WORDS = {"running": "en cours", "success": "réussi", "failure": "échoué", "done": "terminé",
                "actor": "gagné", "opponent": "perdu", "tie": "égalité"}


def timer_result(timer: Timer) -> dict | None:
    """What the rules say of a test timer's dice so far (None for countdowns or a broken timer)."""
    if timer.kind == "countdown":
        return None
    try:
        kind = rules.get_system(timer.request.get("system", "")).kinds[timer.request.get("kind", "")]
        forced = {name: [] for name in kind.dice_fields}
        forced.update(timer.dice)
        return rules.resolve({**timer.request, **forced})
    except (rules.RequestError, KeyError, TypeError, ValueError):
        return None


def name_of(campaign: Campaign, ref: str | None) -> str:
    """The name of the character `ref` points to, else `ref` itself (a free name), "?" for none."""
    if ref is None:
        return "?"
    ch = campaign.character(ref)
    return ch.name if ch is not None else ref


def timer_progress(campaign: Campaign, timer: Timer) -> str:
    """'6/8 · test 2/3 · 1 jour', 'Granok 2 – 1 le gros Bob · en 3', '3 rounds' (plain, cleaned).

    Never the status word (terminé, réussi…): the table shows it in its own column, so the
    progress saying it too read "terminé terminé".
    """
    if timer.kind == "countdown":
        left = max(timer.rounds or 0, 0)
        return f"{left} round{'s' if left > 1 else ''}"
    result = timer_result(timer)
    if result is None:
        return "test illisible (voir le fichier)"
    if timer.kind == "extended":
        cap = result.get("max_tests", 0)
        parts = [f"{result['total_successes']}/{result['threshold']}",
                 f"test {result['tests']}/{cap}" if cap else f"test {result['tests']}"]
        interval = INTERVAL_WORDS.get(result.get("interval", ""))
        if interval:
            parts.append(interval)
        if result["outcome"] == "failure":
            parts.append("0 succès" if result["failure_reason"] == "no_success" else "tests épuisés")
        return " · ".join(parts)
    actor, opponent = clean(name_of(campaign, timer.who)), clean(name_of(campaign, timer.opponent))
    return (f"{actor} {result['actor_points']} – {result['opponent_points']} {opponent}"
            f" · en {result['target']} · manche {result['rounds']}")


def status_of(result: dict) -> str:
    """A timer's status from the rules' result: 'running' while undecided, else the outcome."""
    decided = result.get("outcome", result.get("winner"))
    return "running" if decided == "pending" else decided


def next_interval_dice(timer: Timer, before: dict) -> tuple[dict, str]:
    """The timer's dice with one more interval rolled, and the step's name ('test 3', 'manche 2').

    `before` is `timer_result(timer)` (it says how many dice a test of an extended test rolls).
    """
    rng = random.Random(random.SystemRandom().getrandbits(63))
    dice = {k: [list(v) if isinstance(v, list) else v for v in vals] for k, vals in timer.dice.items()}
    if timer.kind == "extended":
        rolls = dice.get("rolls", [])
        rolls.append([1 + int(rng.random() * 12) for _ in range(before["dice_per_test"])])
        dice["rolls"] = rolls
        step = f"test {len(rolls)}"
    else:
        for field in ("actor_dice", "opponent_dice"):
            dice.setdefault(field, []).append(1 + int(rng.random() * 20))
        step = f"manche {len(dice['actor_dice'])}"
    return dice, step
