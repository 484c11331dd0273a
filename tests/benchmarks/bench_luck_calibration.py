"""Is luck a p-value? P(luck <= q) under fair dice and the table's policy, per kind of every game.

Run: `python tests/benchmarks/bench_luck_calibration.py [--per-kind N] [--samples N]`.

For each kind, the cases issue 22 names and the first golden-vector requests (`--per-kind`,
default 6): P(luck <= 5, 10, 25, 50 %) for the actor's luck and, where the other side rolled
dice too, the opponent's (`opponent_luck`). The law of the results comes from `resolve`'s random
mode, exact where it can be enumerated (see tests/rules/luck_calibration.py), else sampled
(`--samples`, default 20000). A calibrated luck keeps every figure at or under its q (a sample
within four standard errors); the last lines say, per kind, the largest P(luck <= 10 %) found.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parents[1] / "rules"))

import luck_calibration as calibration  # noqa: E402

from _verdict import verdict  # noqa: E402


def _short(request: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in request.items() if k not in ("system", "kind"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=6)
    parser.add_argument("--samples", type=int, default=20000)
    args = parser.parse_args(argv)
    calibration.SAMPLES = args.samples
    checks = []
    worst: dict[str, tuple[float, str]] = {}
    start = time.perf_counter()
    for (sid, kind), requests in calibration.parameter_sets(args.per_kind).items():
        for request in requests:
            law = calibration.law(request)
            for field in calibration.LUCK_FIELDS:
                if not any(r.get(field) is not None for r, _ in law.pairs):
                    continue
                figures = [law.at_most(q, field) for q in calibration.QS]
                who = "" if field == "luck" else " (opponent)"
                name = f"{sid} {kind}{who}"
                cells = "  ".join(f"{100 * f:6.2f}" for f in figures)
                print(f"{name:<34} {law.how:<6} {cells}   {_short(request)}")
                ten = figures[1]
                if ten > worst.get(name, (-1.0, ""))[0]:
                    worst[name] = (ten, _short(request))
                for q, f in zip(calibration.QS, figures):
                    checks.append((f"{name} {_short(request)}: P(luck <= {q:.0%}) = {f:.2%}", f <= q + law.bound(q)))
    print(f"\n{'kind':<34} largest P(luck <= 10 %)   ({time.perf_counter() - start:.1f} s)")
    for name, (ten, request) in worst.items():
        print(f"{name:<34} {100 * ten:6.2f} %   {request}")
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
