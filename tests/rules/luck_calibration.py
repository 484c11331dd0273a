"""The law of a roll's luck under fair dice and the table's policy, for the calibration test
(`test_luck_calibration.py`) and its figures (`tests/benchmarks/bench_luck_calibration.py`).

Luck is a p-value: with fair dice and the choices the policy makes, P(luck <= q) <= q for every
q. The law of the results is taken from `resolve`'s own random mode (the policy as the rules
play it), never from the luck code under test, in one of three ways:

- **paths**: every sequence of dice `resolve` asks for, each with its exact probability (the
  dice source is replaced by one that walks the tree of faces). A MIR d12 has only three faces
  that the rules tell apart (R1: 1–6, 7–11, 12), so it branches on those, weighed 6, 5 and 1.
  Endless chains (open dice) stop below `MIN_PATH`; the mass left out is known exactly.
- **steps**: a test made of steps that the rules join by a few numbers (an extended test's
  running total, an opposition's réussites): one representative dice list stands for every
  list of one step that gives the same numbers, and the ways of standing after each step are
  grouped by them (a Markov chain, exact up to the mass left when it is cut).
- **sample**: `resolve` with seeds 0..N-1, where neither of the above is small enough.
"""

from __future__ import annotations

import math
import tomllib
from collections import defaultdict
from math import comb
from pathlib import Path
from typing import Any, Callable, Iterable

from gmscreen.rules import get_system, resolve
from gmscreen.rules._base import RandomDice

QS = (0.05, 0.10, 0.25, 0.50)
MIN_PATH = 1e-10          # a path less likely than this is left out (its mass is counted)
MAX_PATHS = 6000          # more paths than this: sample instead
SAMPLES = 2000
LUCK_FIELDS = ("luck", "opponent_luck")
VECTOR_DIR = Path(__file__).resolve().parents[1] / "data" / "vectors"

# Faces a die shows that its rules tell apart, with how many faces each stands for (MIR R1).
MIR_D12 = ((1, 6), (7, 5), (12, 1))


class Law:
    """Results of one request with their probabilities (`weights`), the mass left out, and
    whether they were sampled (then every weight is 1/N)."""

    def __init__(self, request: dict, how: str, pairs: list[tuple[dict, float]], omitted: float = 0.0) -> None:
        self.request = request
        self.how = how
        self.pairs = pairs
        self.omitted = omitted

    @property
    def n(self) -> int:
        return len(self.pairs)

    def at_most(self, q: float, field: str = "luck") -> float:
        """P(field <= q) over what was enumerated or sampled (a result without it never counts)."""
        return sum(p for r, p in self.pairs if r.get(field) is not None and r[field] <= q + 1e-12)

    def bound(self, q: float) -> float:
        """How far above q P(luck <= q) may be found by chance alone: none for an exact law
        (its mass left out aside), four standard errors of a sample."""
        if self.how == "sample":
            return 4 * math.sqrt(q * (1 - q) / self.n)
        return self.omitted + 1e-9


# ---------------------------------------------------------------- every path of the random mode


class _Branch(BaseException):
    """Raised by the walking dice source where the path so far ends: the die asked for next."""

    def __init__(self, sides: int, low: int) -> None:
        self.sides, self.low = sides, low


def _faces(sides: int, low: int, system: str) -> Iterable[tuple[int, int]]:
    if system == "mir" and sides == 12 and low == 1:
        return MIR_D12
    return [(face, 1) for face in range(low, low + sides)]


def paths(request: dict, max_paths: int = MAX_PATHS, min_path: float = MIN_PATH) -> Law | None:
    """Every result of `request`'s random mode with its probability, or None past `max_paths`."""
    system = request["system"]
    original = RandomDice.roll
    script: list[int] = []
    used = [0]            # faces taken from the script by this resolve (a kind may make several sources)

    def walk(self: RandomDice, sides: int, low: int = 1) -> int:
        if used[0] < len(script):
            face = script[used[0]]
            used[0] += 1
            self.faces.append(face)
            return face
        raise _Branch(sides, low)

    pairs: list[tuple[dict, float]] = []
    omitted = 0.0
    stack: list[tuple[list[int], float]] = [([], 1.0)]
    RandomDice.roll = walk          # type: ignore[method-assign]
    try:
        while stack:
            prefix, p = stack.pop()
            script[:] = prefix
            used[0] = 0
            try:
                result = resolve(request, seed=0)
            except _Branch as branch:
                for face, weight in _faces(branch.sides, branch.low, system):
                    q = p * weight / branch.sides
                    if q < min_path:
                        omitted += q
                    else:
                        stack.append((prefix + [face], q))
                continue
            pairs.append((result, p))
            if len(pairs) > max_paths:
                return None
    finally:
        RandomDice.roll = original   # type: ignore[method-assign]
    return Law(request, "paths", pairs, omitted)


def sample(request: dict, n: int | None = None) -> Law:
    """`n` seeded rolls (`SAMPLES` as the module holds it when called: the benchmark sets it)."""
    n = n or SAMPLES
    return Law(request, "sample", [(resolve(request, seed=seed), 1 / n) for seed in range(n)])


# ---------------------------------------------------------------- tests made of steps


def steps(request: dict, options: Callable[[int], list[tuple[dict, float]]], join: Callable[[dict, dict], dict],
          state: Callable[[dict], Any], decided: Callable[[dict], bool], min_mass: float = 1e-13,
          max_steps: int = 400) -> Law:
    """Results of a test made of steps: `options(j)` the dice of step j (0 = the first; grouped,
    with their probability), `join` the dice so far with one more step; ways still undecided are
    grouped by `state` (what the rules carry to the next step)."""
    frontier: dict[Any, tuple[dict, float]] = {None: ({}, 1.0)}
    pairs: list[tuple[dict, float]] = []
    for step_index in range(max_steps):
        following: dict[Any, tuple[dict, float]] = {}
        here = options(step_index)
        for dice, p in frontier.values():
            for step, q in here:
                joined = join(dice, step)
                result = resolve({**request, **joined})
                if decided(result):
                    pairs.append((result, p * q))
                else:
                    key = state(result)
                    rep, mass = following.get(key, (joined, 0.0))
                    following[key] = (rep, mass + p * q)
        frontier = following
        if sum(m for _, m in frontier.values()) < min_mass:
            break
    return Law(request, "steps", pairs, sum(m for _, m in frontier.values()))


def _mir_test_options(n: int) -> list[tuple[dict, float]]:
    """One test of n d12 by its successes (R1: 7–11 one, 12 two), with its exact chance."""
    out = []
    for s in range(2 * n + 1):
        ways = 0
        for twelves in range(0, s // 2 + 1):
            ones = s - 2 * twelves
            if twelves + ones <= n:
                ways += comb(n, twelves) * comb(n - twelves, ones) * 5 ** ones * 6 ** (n - twelves - ones)
        if ways:
            twelves, ones = s // 2, s % 2
            if twelves + ones > n:
                twelves, ones = n, s - 2 * n
            faces = [12] * twelves + [7] * ones
            out.append(({"rolls": [faces + [1] * (n - len(faces))]}, ways / 12 ** n))
    return out


def mir_extended(request: dict) -> Law:
    """The dice of each test as the rules read them (`test_modifiers`: a die fewer at one test,
    a die more at another), so the law follows the pool each test actually rolls."""
    from gmscreen.rules._base import Reader
    from gmscreen.rules.mir import _read_extended

    test = _read_extended(Reader({k: v for k, v in request.items() if k not in ("system", "kind", "hidden")}))
    options = {n: _mir_test_options(n) for n in set(test.counts())}
    return steps(request, lambda j: options[test.dice(j)],
                 lambda dice, step: {"rolls": dice.get("rolls", []) + step["rolls"]},
                 state=lambda r: (r["tests"], r["total_successes"]), decided=lambda r: r["outcome"] != "pending")


def _round_options(request: dict) -> list[tuple[dict, float]]:
    """One round by the réussites it gives each side (R19–R21), as one round of the opposition
    played alone reports them; one face pair stands for all that give the same."""
    alone = {**request, "target": 10}
    by_points: dict[tuple[int, int], tuple[dict, float]] = {}
    for a in range(1, 21):
        for o in range(1, 21):
            out = resolve({**alone, "actor_dice": [a], "opponent_dice": [o]})
            key = (out["actor_points"], out["opponent_points"])
            rep, mass = by_points.get(key, ({"actor_dice": [a], "opponent_dice": [o]}, 0.0))
            by_points[key] = (rep, mass + 1 / 400)
    return list(by_points.values())


def magisphere_extended(request: dict) -> Law:
    def join(dice: dict, step: dict) -> dict:
        return {k: dice.get(k, []) + step[k] for k in ("actor_dice", "opponent_dice")}

    options = _round_options(request)
    return steps(request, lambda _j: options, join,
                 state=lambda r: (r["actor_points"], r["opponent_points"]), decided=lambda r: r["winner"] != "pending")


STEPS = {("mir", "extended"): mir_extended, ("magisphere", "extended_opposed"): magisphere_extended}


def law(request: dict) -> Law:
    """The law of `request`'s results: by steps, else every path, else a sample."""
    stepped = STEPS.get((request["system"], request["kind"]))
    if stepped is not None:
        return stepped(request)
    return paths(request) or sample(request)


# ---------------------------------------------------------------- the parameter sets


def vector_requests() -> dict[tuple[str, str], list[dict]]:
    """Each kind's golden-vector requests without their dice, each once, in the files' order."""
    out: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for path in sorted(VECTOR_DIR.glob("*.toml")):
        with open(path, "rb") as handle:
            cases = tomllib.load(handle).get("case", [])
        for case in cases:
            request = case["request"]
            kind = get_system(request["system"]).kinds[request["kind"]]
            plain = {k: v for k, v in request.items() if k not in kind.dice_fields and k != "hidden"}
            if plain not in out[(request["system"], request["kind"])]:
                out[(request["system"], request["kind"])].append(plain)
    return out


# The cases issue 22 names, and choices made during the roll the vectors do not exercise.
NAMED = [
    {"system": "eclats", "kind": "simple", "characteristic": 3, "skill": 2, "threshold": 11},
    {"system": "eclats", "kind": "simple", "characteristic": 3, "skill": 0, "threshold": 5},
    {"system": "eclats", "kind": "simple", "characteristic": 2, "skill": 1, "threshold": 7,
     "single_zero": "automatic_failure"},
    {"system": "magisphere", "kind": "simple", "stat": 10, "threshold": 19, "impulsions": 2},
    {"system": "magisphere", "kind": "simple", "stat": 10, "skill": 2, "threshold": 24, "impulse_bonus": True,
     "impulsions": 3},
    {"system": "magisphere", "kind": "opposed", "actor_stat": 10, "opponent_stat": 11, "actor_impulsions": 1,
     "opponent_impulsions": 1},
    {"system": "magisphere", "kind": "opposed", "actor_stat": 12, "opponent_stat": 10, "actor_impulsions": 2,
     "reroll_limit": "one"},
    {"system": "magisphere", "kind": "extended_opposed", "target": 3, "actor_stat": 14, "opponent_stat": 12},
    {"system": "mir", "kind": "extended", "pool": 3, "threshold": 6, "test_modifiers": [-2, 0, 2]},
    {"system": "tedeum", "kind": "attack", "actor_die": 6, "actor_skill": 1, "actor_negative_die": 6,
     "opponent_die": 4, "opponent_negative_die": 4},
    {"system": "tedeum", "kind": "opposed", "actor_die": 6, "actor_skill": 2, "actor_negative_die": 6,
     "opponent_die": 6, "opponent_skill": 1, "opponent_negative_die": 6},
    {"system": "arpeges", "kind": "confrontation", "difficulty": 0, "actor_skill_level": 2,
     "opponent_skill_level": 1, "open_roll": True},
]


def parameter_sets(per_kind: int = 3) -> dict[tuple[str, str], list[dict]]:
    """For every kind of every registered game: the named cases, then its first golden-vector
    requests, `per_kind` in all at least."""
    from gmscreen.rules import SYSTEMS

    vectors = vector_requests()
    out: dict[tuple[str, str], list[dict]] = {}
    for sid in SYSTEMS:
        for kind in get_system(sid).kinds:
            named = [r for r in NAMED if (r["system"], r["kind"]) == (sid, kind)]
            extra = [r for r in vectors.get((sid, kind), []) if r not in named]
            out[(sid, kind)] = named + extra[:max(0, per_kind - len(named))]
    return out
