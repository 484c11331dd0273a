"""Cost of `luck` per kind: what the tray pays on top of resolving a roll.

Run: `python tests/benchmarks/bench_luck.py` (from the repository or anywhere).

For one realistic request of every kind (dice forced, so every run resolves the same roll):
  - resolve: the whole `resolve` (luck included, its function already built), the reference;
  - cold: building the kind's luck function for a request seen for the first time (every
    cache emptied) and asking it the outcome's luck;
  - warm: the same request again (the function kept per request without dice).
Medians in µs. Targets: cold < 5 ms (the tray resolves as the GM presses Enter), warm < 50 µs.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gmscreen.rules import eclats, get_system, luck as luck_module, magisphere, mir, resolve  # noqa: E402

from _verdict import verdict  # noqa: E402

REPEATS = 31
COLD_LIMIT_US = 5000.0
WARM_LIMIT_US = 50.0

CASES = [
    {"system": "mir", "kind": "simple", "pool": 8, "difficulty": 3, "dice": [1, 7, 12, 3, 9, 10, 2, 12]},
    {"system": "mir", "kind": "group", "skill": 3, "voie": 3, "difficulty": 4, "helper_pools": [5, 4],
     "helper_dice": [[7, 1, 2, 12, 3], [8, 8, 1, 1]], "dice": [1, 2, 3, 7, 8, 9, 12, 12, 10]},
    {"system": "mir", "kind": "opposed", "actor_pool": 7, "opponent_pool": 6,
     "actor_dice": [1, 7, 12, 12, 3, 4, 9], "opponent_dice": [8, 8, 2, 3, 11, 1]},
    {"system": "mir", "kind": "extended", "pool": 6, "threshold": 12, "max_tests": 5,
     "rolls": [[1, 7, 12, 3, 4, 9], [8, 8, 2, 3, 11, 1], [2, 2, 2, 7, 2, 2]]},
    {"system": "arpeges", "kind": "simple", "difficulty": -3, "skill_level": 4, "open_roll": True,
     "chance_dice": [10, 4], "malchance_dice": [3]},
    {"system": "arpeges", "kind": "opposed_one_roll", "actor_skill_level": 3, "opponent_skill_level": 5,
     "chance_dice": [6], "malchance_dice": [2]},
    {"system": "arpeges", "kind": "opposed_two_rolls", "actor_skill_level": 3, "opponent_skill_level": 5,
     "open_roll": True, "actor_chance_dice": [10, 10, 2], "actor_malchance_dice": [3],
     "opponent_chance_dice": [5], "opponent_malchance_dice": [4]},
    {"system": "arpeges", "kind": "confrontation", "difficulty": 0, "actor_skill_level": 4,
     "opponent_skill_level": 2, "actor_chance_dice": [8], "actor_malchance_dice": [2],
     "opponent_chance_dice": [3], "opponent_malchance_dice": [7]},
    {"system": "eclats", "kind": "simple", "characteristic": 3, "skill": 2, "threshold": 9, "dice": [3, 0, 8]},
    {"system": "magisphere", "kind": "simple", "stat": 12, "skill": 4, "threshold": 22, "impulse_bonus": True,
     "impulsions": 3, "dice": [4, 17]},
    {"system": "magisphere", "kind": "opposed", "actor_stat": 12, "actor_skill": 3, "opponent_stat": 14,
     "actor_impulsions": 2, "actor_dice": [3, 15], "opponent_dice": [11]},
    {"system": "magisphere", "kind": "extended_opposed", "target": 3, "actor_stat": 12, "opponent_stat": 13,
     "actor_dice": [12, 3, 15, 20], "opponent_dice": [9, 14, 15, 2]},
    {"system": "tedeum", "kind": "simple", "die": 8, "skill": 5, "negative_die": 6, "difficulty": 13,
     "providence_die": 6, "use_providence": True, "dice": [8, 5], "providence_dice": [4]},
    {"system": "tedeum", "kind": "opposed", "actor_die": 10, "actor_skill": 4, "actor_negative_die": 6,
     "opponent_die": 8, "opponent_skill": 5, "opponent_negative_die": 6, "actor_dice": [10, 3],
     "opponent_dice": [6]},
    {"system": "tedeum", "kind": "attack", "actor_die": 8, "actor_skill": 5, "actor_negative_die": 6,
     "opponent_die": 6, "opponent_skill": 3, "opponent_negative_die": 4, "actor_dice": [8, 3],
     "opponent_dice": [5]},
]


def forget() -> None:
    """Every cache luck keeps: the next call builds from nothing."""
    luck_module._cache.clear()
    mir._extended_steps.cache_clear()
    eclats._final_ladder.cache_clear()
    for cached in (magisphere._simple_ladder, magisphere._opposed_finals, magisphere._opposition):
        cached.cache_clear()


def median_us(fn: Callable[[], object], before: Callable[[], None] | None = None) -> float:
    samples = []
    gc.collect()
    for _ in range(REPEATS):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def main() -> int:
    checks = []
    print(f"{'kind':<30} {'resolve µs':>11} {'cold µs':>9} {'warm µs':>9}")
    for request in CASES:
        system = get_system(request["system"])
        kind = system.kinds[request["kind"]]
        result = resolve(request)

        def luck() -> float | None:
            return luck_module.luck_function(system.id, kind, request).actor(result)

        assert luck() == result["luck"]
        reference = median_us(lambda: resolve(request))
        cold = median_us(luck, before=forget)
        warm = median_us(luck)
        name = f"{system.id} {kind.name}"
        print(f"{name:<30} {reference:>11.1f} {cold:>9.1f} {warm:>9.1f}")
        checks.append((f"{name}: cold {cold:.0f} µs < {COLD_LIMIT_US:.0f} µs", cold < COLD_LIMIT_US))
        checks.append((f"{name}: warm {warm:.1f} µs < {WARM_LIMIT_US:.0f} µs", warm < WARM_LIMIT_US))
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
