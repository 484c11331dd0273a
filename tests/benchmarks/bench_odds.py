"""Speed of the exact odds, measured beside icepool on the same questions in the same run.

Run: `python tests/benchmarks/bench_odds.py` (from the repository or anywhere).

Three grids:
  1. MIR simple test, pools 1–30 × SD 1–7: `odds()` for the pools a request allows (≤ 12),
     the MIR module's own helper (`mir._simple_chance`, built on `_successes_distribution`)
     for the larger pools;
  2. Te Deum simple test, open dice D4–D20 × difficulty 3–30 (skill 0);
  3. MIR extended test with a countdown of up to 20 intervals.
Each request is timed several times; the figure is its median. icepool answers the same
question (`n @ die`, `d(n).explode()`, a Markov chain with `icepool.map(..., repeat=m)`),
and the answers are checked to agree to 1e-12 before any time is trusted.

Targets (CONTRACTS.md): every single request < 1 ms median; ≥ 10× faster than icepool on the
MIR grid. The first call of each request is timed too ("cold"): both sides cache some
intermediate results, so the warm medians are the steady state of a session.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import icepool  # noqa: E402

from gmscreen.rules import mir, odds  # noqa: E402

from _verdict import verdict  # noqa: E402

OURS_REPEATS = 15
ICEPOOL_REPEATS = 5
LIMIT_S = 1e-3
MIN_RATIO = 10.0
AGREE = 1e-12


def timed(fn: Callable[[], object], repeats: int) -> tuple[float, float, object]:
    """(cold first call, median of the following calls, answer), in seconds."""
    gc.collect()
    start = time.perf_counter()
    answer = fn()
    cold = time.perf_counter() - start
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return cold, statistics.median(samples), answer


MIR_DIE = {0: 6, 1: 5, 2: 1}     # successes of one d12: 1–6 none, 7–11 one, 12 two (R1)


def mir_simple_ours(n: int, sd: int) -> Callable[[], float]:
    if n <= 12:
        request = {"system": "mir", "kind": "simple", "pool": n, "difficulty": sd}
        return lambda: odds(request)["outcome"]["success"]
    return lambda: mir._simple_chance(n, sd)


def mir_simple_icepool(n: int, sd: int) -> Callable[[], float]:
    return lambda: float((n @ icepool.Die(MIR_DIE)).probability(">=", sd))


def tedeum_ours(die: int, difficulty: int) -> Callable[[], dict]:
    request = {"system": "tedeum", "kind": "simple", "die": die, "negative_die": 6, "difficulty": difficulty}
    return lambda: odds(request)["outcome"]


def tedeum_icepool(die: int, difficulty: int) -> Callable[[], dict]:
    def ask() -> dict:
        # Chains deep enough that the lumped tail (icepool's `end`) is all critical success.
        depth = max(1, -(-2 * difficulty // die))
        total = icepool.d(die).explode(depth=depth)      # skill 0
        fumble = total.probability(1)                     # only an initial 1 totals 1
        negative = Fraction(max(0, 6 - 0), 6)             # negative D6 above skill 0: always
        reach, crit = total.probability(">=", difficulty), total.probability(">=", 2 * difficulty)
        return {
            "critical_success": float(crit),
            "success": float(reach - crit),
            "failure": float(1 - fumble - reach),
            "automatic_failure": float(fumble * (1 - negative)),
            "critical_failure": float(fumble * negative),
        }
    return ask


def mir_extended_ours(n: int, threshold: int, max_tests: int) -> Callable[[], float]:
    request = {"system": "mir", "kind": "extended", "pool": n, "threshold": threshold, "max_tests": max_tests}
    return lambda: odds(request)["outcome"]["success"]


def mir_extended_icepool(n: int, threshold: int, max_tests: int) -> Callable[[], float]:
    def ask() -> float:
        per_test = n @ icepool.Die(MIR_DIE)

        def step(total: int, successes: int) -> int:
            if total < 0 or total >= threshold:
                return total                    # decided: -1 failed, threshold reached
            if successes == 0:
                return -1                       # R17: a test without success ends it
            return min(total + successes, threshold)

        chain = icepool.map(step, icepool.Die([0]), per_test, repeat=max_tests)
        return float(chain.probability(threshold))
    return ask


def same(a: object, b: object) -> bool:
    if isinstance(a, dict):
        return set(a) == set(b) and all(abs(a[k] - b[k]) <= AGREE for k in a)  # type: ignore[index]
    return abs(a - b) <= AGREE  # type: ignore[operator]


def run_grid(name: str, cases: list[tuple], ours: Callable, theirs: Callable) -> dict:
    rows = []
    for case in cases:
        o_cold, o_med, o_ans = timed(ours(*case), OURS_REPEATS)
        i_cold, i_med, i_ans = timed(theirs(*case), ICEPOOL_REPEATS)
        if not same(o_ans, i_ans):
            raise SystemExit(f"{name} {case}: answers differ: gmscreen {o_ans!r}, icepool {i_ans!r}")
        rows.append((case, o_cold, o_med, i_cold, i_med))
    ours_meds = [r[2] for r in rows]
    ice_meds = [r[4] for r in rows]
    worst = max(rows, key=lambda r: r[2])
    ratio = sum(ice_meds) / sum(ours_meds)
    min_ratio = min(r[4] / r[2] for r in rows)
    print(f"\n{name}: {len(rows)} requests, answers agree with icepool to {AGREE:g}")
    print(f"  gmscreen  median of medians {us(statistics.median(ours_meds))}, "
          f"slowest median {us(worst[2])} at {worst[0]}, cold pass {ms(sum(r[1] for r in rows))}")
    print(f"  icepool   median of medians {us(statistics.median(ice_meds))}, "
          f"slowest median {us(max(ice_meds))}, cold pass {ms(sum(r[3] for r in rows))}")
    print(f"  ratio icepool / gmscreen: {ratio:.1f}× over the grid (sum of medians), "
          f"{min_ratio:.1f}× for the least favourable request")
    return {"max": worst[2], "ratio": ratio}


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


def main() -> int:
    print(f"odds benchmark: gmscreen against icepool {icepool.__version__}, "
          f"medians of {OURS_REPEATS} (gmscreen) and {ICEPOOL_REPEATS} (icepool) calls per request")
    mir_grid = run_grid(
        "MIR simple, pools 1–30 × SD 1–7",
        [(n, sd) for n in range(1, 31) for sd in range(1, 8)],
        mir_simple_ours, mir_simple_icepool,
    )
    tedeum_grid = run_grid(
        "Te Deum simple, open D4–D20 × difficulty 3–30",
        [(d, diff) for d in (4, 6, 8, 10, 12, 20) for diff in range(3, 31)],
        tedeum_ours, tedeum_icepool,
    )
    extended = run_grid(
        "MIR extended, pools 1–12 × threshold 5–40 × countdown 1–20 intervals",
        [(n, t, m) for n in (1, 3, 6, 9, 12) for t in (5, 10, 20, 40) for m in (1, 5, 10, 20)],
        mir_extended_ours, mir_extended_icepool,
    )

    checks = [
        ("MIR grid: every request < 1 ms median", mir_grid["max"] < LIMIT_S),
        ("Te Deum grid: every request < 1 ms median", tedeum_grid["max"] < LIMIT_S),
        ("MIR extended: every request < 1 ms median", extended["max"] < LIMIT_S),
        (f"MIR grid: ≥ {MIN_RATIO:g}× faster than icepool ({mir_grid['ratio']:.1f}×)",
         mir_grid["ratio"] >= MIN_RATIO),
    ]
    return verdict(checks)


if __name__ == "__main__":
    raise SystemExit(main())
