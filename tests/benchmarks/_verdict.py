"""The benchmarks' last word, said one way: a PASS or FAIL line per check, and the exit
status (0 only when every check passed)."""

from __future__ import annotations

from typing import Iterable


def verdict(checks: Iterable[tuple[str, bool]]) -> int:
    checks = list(checks)
    print()
    for label, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {label}")
    return 0 if all(ok for _, ok in checks) else 1
