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

Each roll counts for every character who had dice in it, from their side (gmscreen/docs/luck.md):
its actor (the record's `who`: `luck`, its success, its chance); the opponent the logged result
names (`roll_sides`) when they rolled dice too (`opponent_luck`, computed from the logged request
when the entry lacks it; their success is the opponent winning, or the attack failing); each
helper who rolled dice of their own (MIR R9: the roller's luck and success, their side's). The
table's tally counts each roll once, for its actor.

A roll with no `luck` (no die rolled, or logged before luck existed) only lacks from the mean; a
roll whose chance cannot be computed (a plain dice expression, an unknown kind) only lacks from
the count. An entry logged before `sides` counts for its actor alone.
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from gmscreen.campaign.model import Campaign, RollRecord
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import N_, _, ngettext
from gmscreen.i18n.typography import Name, number, percent
from gmscreen.rules import RequestError, get_system
from gmscreen.rules.records import record

if TYPE_CHECKING:
    from .game import GameTable

CURSED, BLESSED, FAIR, UNKNOWN = "cursed", "blessed", "fair", "unknown"
ACTOR, OPPONENT, HELPER = "actor", "opponent", "helper"      # whose side a counted roll is seen from
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
    side: str = ACTOR           # seen from the actor's side, the opponent's, or a helper's


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


def opponent_success_of(result: Mapping[str, Any]) -> bool | None:
    """Success from the other side of a contest or an attack: the opponent winning, or the
    action failing (None as `success_of`: nothing to read, or not decided yet)."""
    decided = result.get("outcome", result.get("winner"))
    if decided is None or decided == "pending":
        return None
    if "outcome" in result:
        return decided not in ("success", "critical_success")
    return decided == "opponent"


def _luck(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 1 else None


def _chance(request: Mapping[str, Any] | None, chance_of: Callable[[Mapping[str, Any]], float]) -> float | None:
    if request is None:
        return None
    try:
        return float(chance_of(request))
    except (RequestError, ValueError, TypeError, KeyError):
        return None


def roll_luck(record: RollRecord, chance_of: Callable[[Mapping[str, Any]], float] | None = None) -> RollLuck:
    """One record counted for its actor (`chance_of`: the exact chance of a request,
    `play.chances.chance` by default)."""
    if chance_of is None:
        from .chances import chance as memo_chance

        chance_of = memo_chance
    success = success_of(record.result)
    chance = _chance(_dice_free(record.request) if success is not None else None, chance_of)
    return RollLuck(record.seq, record.session, clean(record.who), clean(record.line), _luck(record.result.get("luck")),
                    chance, success)


def opponent_luck(record: RollRecord) -> float | None:
    """The luck of a record's opponent: as logged, else computed from the logged request and
    result (an entry without it); None when the opponent rolled no die or it cannot be read."""
    if "opponent_luck" in record.result:
        return _luck(record.result["opponent_luck"])
    from gmscreen.rules.luck import luck_function

    try:
        system = get_system(str(record.request.get("system")))
        kind = system.kinds[str(record.request.get("kind"))]
        luck = luck_function(system.id, kind, record.request)
        return _luck(luck.opponent(record.result)) if luck is not None and luck.opponent is not None else None
    except (RequestError, KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def roll_lucks(record: RollRecord, chance_of: Callable[[Mapping[str, Any]], float] | None = None,
               opponent_chance_of: Callable[[Mapping[str, Any]], float] | None = None,
               hidden: Iterable[str] = ()) -> list[RollLuck]:
    """One record counted for each character who had dice in it, from their side (the module
    says who): its actor first. `hidden`: the sides not to count (`public.roll_sight`: for the
    players, a side a hidden character plays is never named, so never counted)."""
    from .public import HELPER as HELPER_SIDE, OPPONENT as OPPONENT_SIDE
    from .roll_sides import helpers_of, opponent_of

    hidden = frozenset(hidden)
    actor = roll_luck(record, chance_of)
    out = [actor]
    opponent = opponent_of(record.result) if OPPONENT_SIDE not in hidden else None
    luck = opponent_luck(record) if opponent else None
    if opponent and luck is not None:
        if opponent_chance_of is None:
            from .chances import opponent_chance as memo_opponent_chance

            opponent_chance_of = memo_opponent_chance
        success = opponent_success_of(record.result)
        chance = _chance(_dice_free(record.request) if success is not None else None, opponent_chance_of)
        out.append(RollLuck(record.seq, record.session, clean(opponent), actor.line, luck, chance, success, OPPONENT))
    for helper in helpers_of(record.result) if HELPER_SIDE not in hidden else ():
        out.append(replace(actor, who=clean(helper), side=HELPER))
    return out


def counted(records: Iterable[RollRecord], *, include_masked: bool = False,
            campaign: Campaign | None = None, game: GameTable | None = None) -> list[RollLuck]:
    """The rolls the statistics see, for each side that had dice in them: every one, or (for the
    players' ears) those players may count (`public.may_count`: not a GM-only roll unrevealed,
    nor one of a hidden character)."""
    from .public import may_count, roll_sight

    if include_masked:
        return [one for r in records for one in roll_lucks(r)]
    return [one for r in records if may_count(r, campaign, game)
            for one in roll_lucks(r, hidden=roll_sight(r, campaign, game).hidden_sides)]


def tallies(rolls: list[RollLuck], session: int | None = None) -> list[LuckTally]:
    """The table's tally first (each roll once, for its actor), then one per character in the
    order they first rolled, every roll they had dice in; only `session`'s rolls when given."""
    chosen = [r for r in rolls if session is None or r.session == session]
    table = LuckTally(TABLE, session, [r for r in chosen if r.side == ACTOR])
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
    # (said the way it reads: a low mean is a lucky run, "20 % of rolls do at least as well")
    return ngettext("on average {luck} of rolls do at least as well, over {n} roll",
                    "on average {luck} of rolls do at least as well, over {n} rolls", len(tally.lucks)).format(
        luck=percent(mean), n=len(tally.lucks))
