"""Big files within the limits, and past them: time and peak memory of each reader, against
`tomllib` parsing the same bytes in the same run.

Two files are generated in a temporary folder (never committed):

  - a roll log of `--rolls` entries (1,000,000 by default, about 400 MB), laid out as gmscreen
    writes it (MIR rolls, one in 17 GM-only, one reveal every 170 rolls, 1,000 rolls a session),
    beside a copy of the MIR sample campaign;
  - a 28 MB campaign whose timer holds 420,000 dice (42 lists of 10,000, one die a line with a
    comment, and `round_stats`, which once let it pass the validator unchecked).

Each command runs in a fresh interpreter; its time is the wall clock, its memory the peak
resident size the kernel reports for that process (`os.wait4`):

  - `gmscreen validate`, `gmscreen export -o`, `gmscreen recap` on the long log, and the
    screen's reading of it (`RollLog.load_recent`, then `index_older` as its thread does),
    each against `tomllib.loads` of the log: target time <= 1.5x, memory <= 150 MiB (the
    log read a piece at a time);
  - `gmscreen validate` and the screen's loader (`open_session`) on the 28 MB campaign, against
    `tomllib.loads` of it: each says it is too many dice, in <= 2x the time and 2x the memory.

Run: python tests/benchmarks/bench_limits.py [--rolls N] [--repo PATH] (several minutes at
1,000,000 rolls; `--repo` measures another checkout's commands, e.g. one from before).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from _verdict import verdict  # noqa: E402

SESSION_ROLLS = 1000
TIME_TARGET = 1.5
LOG_RSS_MIB = 150
CAMPAIGN_TARGET = 2.0


def build_log(folder: Path, rolls: int) -> Path:
    """The MIR sample and a log of `rolls` rolls beside it, written as gmscreen writes them."""
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.rolllog import _HEADER, format_reveal, format_roll
    from gmscreen.campaign.samples import sample_path
    from gmscreen.rules import resolve

    path = folder / "long.toml"
    shutil.copyfile(sample_path("mir"), path)
    text = path.read_text("utf-8").replace("session = 3", f"session = {1 + rolls // SESSION_ROLLS}")
    path.write_text(text, "utf-8")
    results: dict[tuple, dict] = {}
    with open(folder / "long.rolls.toml", "w", encoding="utf-8") as out:
        out.write(_HEADER.format(campaign=path.name))
        batch = []
        for seq in range(1, rolls + 1):
            pool, difficulty = 1 + seq % 8, 1 + seq % 5
            request = {"system": "mir", "kind": "simple", "pool": pool, "difficulty": difficulty}
            key = (pool, difficulty, seq % 13)
            if key not in results:
                results[key] = {k: v for k, v in resolve(dict(request), seed=seq).items() if v is not None}
            batch.append(format_roll(RollRecord(
                seq, f"2025-03-{1 + seq // 5000 % 28:02d}T21:{seq // 60 % 60:02d}:{seq % 60:02d}+01:00",
                1 + seq // SESSION_ROLLS, f"Personnage {seq % 50}", f"personnage{seq % 50} tir sd{difficulty}",
                request, results[key], seq % 17 == 0, False, seq)))
            if seq % 170 == 0:
                batch.append(format_reveal(seq - 153, "2025-03-02T21:00:00+01:00"))
            if len(batch) >= 10_000:
                out.write("".join(batch))
                batch = []
        out.write("".join(batch))
    return path


def build_campaign(folder: Path) -> Path:
    """The MIR sample with a timer of 420,000 dice, 28 MB."""
    from gmscreen.campaign.samples import sample_path

    path = folder / "big.toml"
    parts = [sample_path("mir").read_text("utf-8"),
             '\n[[timers]]\nid = "sans-fin"\nlabel = "Un test sans fin"\nkind = "extended"\nwho = "loriane"\n'
             'round_stats = [{}]\n\n[timers.request]\nsystem = "mir"\nkind = "extended"\nskill = 2\nvoie = 3\n'
             'threshold = 99\n\n[timers.dice]\nrolls = [\n']
    for test in range(42):
        parts.append("  [\n")
        parts.extend(f"    7,   # test {test:02d}, dé {die:05d} : une série de dés sans fin, encore\n"
                     for die in range(10_000))
        parts.append("  ],\n")
    parts.append("]\n")
    path.write_text("".join(parts), "utf-8")
    return path


# Runs the command and reports its time, peak memory and status: the command is started from this
# small process, so the peak the kernel reports for it is its own, not the benchmark's (a forked
# child starts with its parent's pages counted).
_WRAP = """import os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_pid, status, usage = os.wait4(proc.pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def measure(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """(seconds, peak resident MiB, exit status) of one command in a fresh process."""
    done = subprocess.run([sys.executable, "-c", _WRAP, *argv], env=env, cwd=cwd, capture_output=True, text=True,
                          check=True)
    secs, rss_kib, status = done.stdout.split()
    return float(secs), int(rss_kib) / 1024, int(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=1_000_000)
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose commands are measured")
    parser.add_argument("--build", type=Path, help=argparse.SUPPRESS)    # (in a process of its own)
    ns = parser.parse_args()
    if ns.build is not None:
        build_log(ns.build, ns.rolls)
        build_campaign(ns.build)
        return 0
    work = Path(tempfile.mkdtemp(prefix="bench-limits-"))
    repo = ns.repo.resolve()
    env = dict(os.environ, PYTHONPATH=str(repo), GMSCREEN_CONFIG_DIR=str(work / "config"),
               GMSCREEN_DATA_DIR=str(work / "data"), LANGUAGE="en")
    py = sys.executable
    try:
        started = time.perf_counter()
        subprocess.run([py, __file__, "--build", str(work), "--rolls", str(ns.rolls)], env=env, check=True)
        camp, log, big = work / "long.toml", work / "long.rolls.toml", work / "big.toml"
        print(f"built {ns.rolls:,} rolls ({log.stat().st_size / 2**20:.0f} MiB) and a "
              f"{big.stat().st_size / 1e6:.0f} MB campaign in {time.perf_counter() - started:.0f} s", flush=True)

        def tomllib_of(path: Path) -> list[str]:
            return [py, "-c", f"import tomllib; tomllib.loads(open({str(path)!r}, encoding='utf-8').read())"]

        screen_log = [py, "-c", "import sys; from gmscreen.campaign.rolllog import RollLog\n"
                      "log = RollLog.load_recent(sys.argv[1]); log.install_index(log.index_older())\n"
                      "assert len(log.records) > 0", str(log)]
        screen_campaign = [py, "-c", "import sys; from gmscreen.campaign import open_session\n"
                           "from gmscreen.campaign.errors import CampaignError\n"
                           "try:\n    open_session(sys.argv[1], read_only=True)\nexcept CampaignError as exc:\n"
                           "    sys.exit(2)", str(big)]
        gm = [py, "-m", "gmscreen"]
        rows: list[tuple[str, tuple[float, float, int], tuple[float, float, int], float, float | None]] = []
        log_ref = measure(tomllib_of(log), env, work)
        print("measured tomllib on the log", flush=True)
        for label, argv in (("validate (long log)", gm + ["validate", str(camp)]),
                            ("export -o (long log)", gm + ["export", str(camp), "-o", str(work / "out.md")]),
                            ("recap (long log)", gm + ["recap", str(camp)]),
                            ("screen: tail + index (long log)", screen_log)):
            rows.append((label, measure(argv, env, work), log_ref, TIME_TARGET, LOG_RSS_MIB))
            print(f"measured {label}", flush=True)
        camp_ref = measure(tomllib_of(big), env, work)
        for label, argv in (("validate (28 MB campaign)", gm + ["validate", str(big)]),
                            ("screen: open_session (28 MB campaign)", screen_campaign)):
            rows.append((label, measure(argv, env, work), camp_ref, CAMPAIGN_TARGET, None))
            print(f"measured {label}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print()
    print(f"{'measure':40} {'time':>8} {'peak':>9} {'status':>6}   {'tomllib':>8} {'peak':>9}   {'ratio t/m':>11}")
    checks = []
    for label, (secs, rss, status), (ref_secs, ref_rss, _), target, rss_limit in rows:
        t_ratio, m_ratio = secs / ref_secs, rss / ref_rss
        print(f"{label:40} {secs:7.1f}s {rss:6.0f} MiB {status:>6}   {ref_secs:7.1f}s {ref_rss:6.0f} MiB   "
              f"{t_ratio:5.2f}/{m_ratio:5.2f}")
        checks.append((f"{label}: time {t_ratio:.2f}x tomllib <= {target}x", t_ratio <= target))
        if rss_limit is not None:
            checks.append((f"{label}: peak {rss:.0f} MiB <= {rss_limit} MiB", rss <= rss_limit))
        else:
            checks.append((f"{label}: peak {m_ratio:.2f}x tomllib <= {target}x", m_ratio <= target))
            checks.append((f"{label}: refused (exit status 2)", status == 2))
    return verdict(checks)


if __name__ == "__main__":
    raise SystemExit(main())
