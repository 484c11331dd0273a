"""How the dice treated each character, and the table, against what fair dice do.

Two measures per character and per session, both from the roll log alone:

- **successes against expected successes**, the verdict. Each roll whose result says
  success or failure (by `rules.success_chance`'s own reading: a success, a critical success,
  or the actor winning) counts one Bernoulli trial of probability its exact chance before the
  roll (`rules.odds` of the logged request without its dice; with a choice inside the roll,
  under the policy the odds assume). The number of successes then follows a Poisson-binomial
  law, computed exactly here; its tails say how unlikely the streak is: `p_low`, the chance
  of this few successes or fewer, `p_high`, of this many or more.
- **mean luck**, a description. A roll's `luck` (in its result) is the chance before the roll
  of a result at least as good. For a result with few possible values its expectation under
  fair dice is above one half (a sure success has luck 1 every time), so the mean is said,
  never judged: the verdict comes from the exact law above.

A roll with no `luck` (logged before it existed) only lacks from the mean; a roll whose chance
cannot be computed (a plain dice expression, an unknown kind) only lacks from the count.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Iterable, Mapping

from gmscreen.campaign.model import Campaign, RollRecord
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _, ngettext
from gmscreen.i18n.typography import Name, number, percent
from gmscreen.rules import RequestError, get_system
from gmscreen.rules.records import record

CURSED, BLESSED, FAIR, UNKNOWN = "cursed", "blessed", "fair", "unknown"
# A tail this unlikely under fair dice earns a verdict (one-sided, each way).
VERDICT_TAIL = 0.05
TABLE = ""          # the `who` of the whole table's tally


@record(frozen=True)
class RollLuck:
    """One roll as the statistics count it."""

    seq: int
    session: int
    who: str
    line: str
    luck: float | None          # from the result; None: not in the mean
    chance: float | None        # exact chance of success before the roll; None: not in the count
    success: bool | None        # the result was a success (None: no success or failure to read)


@record
class LuckTally:
    """One character's (or the table's, `who == TABLE`) rolls in one session (or all, `session is None`)."""

    who: str
    session: int | None
    rolls: list[RollLuck] = field(default_factory=list)

    @property
    def lucks(self) -> list[float]:
        return [r.luck for r in self.rolls if r.luck is not None]

    @property
    def mean_luck(self) -> float | None:
        values = self.lucks
        return sum(values) / len(values) if values else None

    @property
    def trials(self) -> list[RollLuck]:
        return [r for r in self.rolls if r.chance is not None and r.success is not None]

    @property
    def successes(self) -> int:
        return sum(1 for r in self.trials if r.success)

    @property
    def expected(self) -> float:
        return sum(r.chance for r in self.trials if r.chance is not None)

    def tails(self) -> tuple[float, float]:
        """(P(successes ≤ observed), P(successes ≥ observed)) under fair dice, exactly."""
        law = success_law([r.chance for r in self.trials if r.chance is not None])
        k = self.successes
        return min(1.0, sum(law[: k + 1])), min(1.0, sum(law[k:]))

    @property
    def verdict(self) -> str:
        if not self.trials:
            return UNKNOWN
        low, high = self.tails()
        if low <= VERDICT_TAIL and low <= high:
            return CURSED
        if high <= VERDICT_TAIL:
            return BLESSED
        return FAIR

    @property
    def luckiest(self) -> RollLuck | None:
        known = [r for r in self.rolls if r.luck is not None]
        return min(known, key=lambda r: (r.luck, r.seq)) if known else None

    @property
    def unluckiest(self) -> RollLuck | None:
        known = [r for r in self.rolls if r.luck is not None]
        return max(known, key=lambda r: (r.luck, -r.seq)) if known else None

    def to_data(self) -> dict[str, Any]:
        low, high = self.tails()
        mean = self.mean_luck
        return {"who": self.who or None, "session": self.session, "rolls": len(self.rolls),
                "with_luck": len(self.lucks), "mean_luck": mean, "trials": len(self.trials),
                "successes": self.successes, "expected_successes": self.expected,
                "p_at_most": low, "p_at_least": high, "verdict": self.verdict}


def success_law(chances: Iterable[float]) -> list[float]:
    """The exact law of the number of successes of independent trials (Poisson binomial):
    element k is the probability of exactly k successes."""
    law = [1.0]
    for p in chances:
        nxt = [0.0] * (len(law) + 1)
        for k, q in enumerate(law):
            nxt[k] += q * (1.0 - p)
            nxt[k + 1] += q * p
        law = nxt
    return law


def _dice_free(request: Mapping[str, Any]) -> dict[str, Any] | None:
    """The logged request without the dice it was rolled with: what the odds are asked of."""
    try:
        kind = get_system(str(request.get("system"))).kinds[str(request.get("kind"))]
    except (RequestError, KeyError):
        return None
    return {k: v for k, v in request.items() if k not in kind.dice_fields and k != "dice"}


def success_of(result: Mapping[str, Any]) -> bool | None:
    """Success as `rules.success_chance` counts it; None when the result says neither, or not
    yet (an interval of an extended test still `pending`: the test counts once, when decided)."""
    decided = result.get("outcome", result.get("winner"))
    if decided is None or decided == "pending":
        return None
    if "outcome" in result:
        return decided in ("success", "critical_success")
    return decided == "actor"


def roll_luck(record: RollRecord, chance_of: Callable[[Mapping[str, Any]], float] | None = None) -> RollLuck:
    """One record counted (`chance_of`: the exact chance of a request, `play.chances.chance` by default)."""
    if chance_of is None:
        from .chances import chance as chance_of
    luck = record.result.get("luck")
    luck = float(luck) if isinstance(luck, (int, float)) and not isinstance(luck, bool) and 0 < luck <= 1 else None
    success = success_of(record.result)
    chance: float | None = None
    request = _dice_free(record.request) if success is not None else None
    if request is not None:
        try:
            chance = float(chance_of(request))
        except (RequestError, ValueError, TypeError, KeyError):
            chance = None
    return RollLuck(record.seq, record.session, clean(record.who), clean(record.line), luck, chance, success)


def counted(records: Iterable[RollRecord], *, include_masked: bool = False,
            campaign: Campaign | None = None) -> list[RollLuck]:
    """The rolls the statistics see: every one, or (for the players' ears) those players may
    count (`public.may_count`: not a GM-only roll unrevealed, nor one of a hidden character)."""
    from .public import may_count

    return [roll_luck(r) for r in records if include_masked or may_count(r, campaign)]


def tallies(rolls: list[RollLuck], session: int | None = None) -> list[LuckTally]:
    """The table's tally first, then one per character in the order they first rolled;
    only `session`'s rolls when given."""
    chosen = [r for r in rolls if session is None or r.session == session]
    table = LuckTally(TABLE, session, list(chosen))
    by_who: dict[str, LuckTally] = {}
    for r in chosen:
        by_who.setdefault(r.who, LuckTally(r.who, session)).rolls.append(r)
    return [table, *by_who.values()]


def over_time(rolls: list[RollLuck]) -> dict[str, list[LuckTally]]:
    """For each character (and the table, key TABLE), one tally per session they rolled in, oldest first."""
    out: dict[str, list[LuckTally]] = {}
    for session in sorted({r.session for r in rolls}):
        for tally in tallies(rolls, session):
            out.setdefault(tally.who, []).append(tally)
    return out


# ---------------------------------------------------------------- in words

VERDICT_WORDS = {CURSED: N_("cursed"), BLESSED: N_("blessed"), FAIR: N_("fair"), UNKNOWN: N_("no verdict")}


def one_in(p: float) -> str:
    """"1 time in 40": how rare a tail is, said as a table says it."""
    if p <= 0:
        return _("never")
    n = 1 / p
    figure = number(n, 0) if n >= 10 else number(n, 1)
    return _("1 time in {n}").format(n=figure)


def verdict_sentence(tally: LuckTally) -> str:
    """"Are the dice cursed tonight?" answered for one tally, with its own numbers."""
    name = Name(tally.who) if tally.who else None
    n = len(tally.trials)
    if not n:
        return (_("{name}: no roll with a success to count.").format(name=name) if name
                else _("The table: no roll with a success to count."))
    low, high = tally.tails()
    successes = ngettext("{k} success", "{k} successes", tally.successes).format(k=tally.successes)
    facts = ngettext("{successes} out of {n} roll where fair dice give {e} on average",
                     "{successes} out of {n} rolls where fair dice give {e} on average", n).format(
        successes=successes, n=n, e=number(tally.expected, 1))
    verdict = tally.verdict
    if verdict == CURSED:
        said = _("the dice are cursed: {facts}; this bad or worse happens {rare}.")
        rare = one_in(low)
    elif verdict == BLESSED:
        said = _("the dice are blessed: {facts}; this good or better happens {rare}.")
        rare = one_in(high)
    elif tally.successes < tally.expected:       # fair, each way said as it went: one side's chance
        said = _("the dice are fair: {facts}; this bad or worse happens {chance} of the time.")
        rare = ""
    else:
        said = _("the dice are fair: {facts}; this good or better happens {chance} of the time.")
        rare = ""
    side = low if tally.successes < tally.expected else high
    text = said.format(facts=facts, rare=rare, chance=percent(side))
    return _("{name}: {verdict}").format(name=name, verdict=text) if name else \
        _("The table: {verdict}").format(verdict=text)


def mean_sentence(tally: LuckTally) -> str:
    """The mean luck, said without a verdict (see the module)."""
    mean = tally.mean_luck
    if mean is None:
        return _("no luck recorded")
    return ngettext("mean luck {luck} over {n} roll, the lower the luckier",
                    "mean luck {luck} over {n} rolls, the lower the luckier", len(tally.lucks)).format(
        luck=percent(mean), n=len(tally.lucks))
