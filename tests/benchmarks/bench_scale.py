"""Years of play cost nothing: the screen and the commands with 1,000, 10,000 and 100,000 rolls.

Three MIR campaigns of 500 characters are generated, alike but for the length of their roll
log (one roll in three names a character since removed from the campaign, one in seventeen
is GM-only, some are revealed later; 1,000 rolls a session). In a real pty at 80x24, medians
of `--runs` starts each:

  - first frame: start -> the campaign's name on the terminal;
  - log pane: first frame -> the newest roll on screen (`4` typed at the first frame,
    typed again each second if a key was lost); target <= 1 s at every size;
  - slowest echo of keys typed from the first frame on, every 100 ms, while the log loads
    (target <= 100 ms: no key waits, none is lost), with the same figure for a 10-roll log
    beside it (what the start of the screen costs, whatever the log);
  - key echo once settled, recording a roll (Enter -> the result on screen), opening a sheet
    (Enter on the roster -> the sheet), peak memory (VmHWM) after all of it;
  - `gmscreen validate`, `gmscreen export` and `gmscreen export --session N` (the newest
    session), against a bare `tomllib` parse of the same two files in a fresh interpreter.

Every screen row of the 10k and 100k campaigns is printed against the same row of the 1k
one (target <= 1.2x); peak memory at 100k must stay <= 120 MiB; the commands against
tomllib (target <= 1.5x), `export --session` against itself at 1k (flat: <= 1.2x).

Run: python tests/benchmarks/bench_scale.py [--runs 3] [--repo PATH] (a few minutes; the
screen and the commands of PATH are measured, e.g. another checkout to compare).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import bench_tui  # noqa: E402
from bench_tui import Term  # noqa: E402

CHARACTERS = 500
REMOVED = 40                    # characters once in the campaign, named by old rolls
SESSION_ROLLS = 1000
SIZES = (1_000, 10_000, 100_000)
LAST_WHO = "Ultima"             # who made the newest roll: the log pane shows it when it is there
SCREEN_TARGET = 1.2
COMMAND_TARGET = 1.5
RSS_LIMIT_MIB = 120


def build(folder: Path, rolls: int) -> Path:
    """A campaign of 500 characters and a log of `rolls` rolls, written as gmscreen writes them."""
    from gmscreen.campaign import save_campaign
    from gmscreen.campaign.model import RollRecord
    from gmscreen.campaign.rolllog import _HEADER, format_reveal, format_roll
    from gmscreen.rules import resolve

    campaign = bench_tui.cast_campaign(CHARACTERS)
    campaign.session = 1 + rolls // SESSION_ROLLS
    path = folder / f"scale{rolls}.toml"
    save_campaign(campaign, path)
    rng = random.Random(rolls)
    parts = [_HEADER.format(campaign=path.name)]
    results = {}
    for seq in range(1, rolls + 1):
        pool, difficulty = rng.randint(1, 8), rng.randint(1, 5)
        request = {"system": "mir", "kind": "simple", "pool": pool, "difficulty": difficulty}
        key = (pool, difficulty, seq % 97)
        if key not in results:
            results[key] = {k: v for k, v in resolve(dict(request), seed=seq).items() if v is not None}
        if seq == rolls:
            who, line = LAST_WHO, "6d12 sd2"
        elif seq % 3 == 0:
            k = seq % REMOVED
            who, line = f"Disparu {k}", f"disparu{k} tir sd{difficulty}"
        else:
            k = seq % CHARACTERS
            who, line = f"Personnage {k}", f"personnage{k} tir sd{difficulty}"
        parts.append(format_roll(RollRecord(
            seq, f"2025-03-{1 + seq // 5000 % 28:02d}T21:{seq // 60 % 60:02d}:{seq % 60:02d}+01:00",
            1 + seq // SESSION_ROLLS, who, line, request, results[key], seq % 17 == 0, False, seq)))
        if seq % 170 == 0:
            parts.append(format_reveal(seq - 153, "2025-03-02T21:00:00+01:00"))
    path.with_name(f"scale{rolls}.rolls.toml").write_text("".join(parts), "utf-8")
    return path


def screen_run(py: str, campaign: Path, env: dict[str, str]) -> dict[str, float]:
    """One start: first frame, log pane, then (settled) echo, roll, sheet, peak memory."""
    out: dict[str, float] = {}
    term = Term([py, "-m", "gmscreen", "--lang", "en", str(campaign)], env)
    try:
        first = term.wait_for(b"campagne")
        out["first frame"] = first - term.started
        term.type(b"4")
        seen = None
        while seen is None:
            try:
                seen = term.wait_for(LAST_WHO.encode(), timeout=1.0)
            except TimeoutError:
                if time.perf_counter() - first > 120:
                    raise
                term.type(b"4")        # lost while the log loaded: asked again
        out["log pane shows the newest rolls"] = seen - first
        term.quiet(1.0)                 # settled
        term.type(b"/")
        term.quiet(0.3)
        echoes = []
        for ch in b"xqwzjk":
            echoes.append(term.answer(bytes([ch]), bytes([ch])))
            term.quiet(0.15)
        out["key echo"] = statistics.median(echoes)
        term.type(b"\x15")              # ctrl+u: the line emptied
        term.quiet(0.3)
        term.type(b"6d12 sd2")
        term.quiet(0.4)
        out["record a roll"] = term.answer(b"\r", b"6d12")
        term.quiet(0.5)
        term.type(b"\x1b")
        term.quiet(0.3)
        term.type(b"1")
        term.quiet(0.5)
        out["open a sheet"] = term.answer(b"\r", b"escape close")
        term.quiet(0.3)
        out["peak memory (MiB)"] = peak_rss_mib(term.process.pid)
    finally:
        term.close()
    return out


def keys_while_loading(py: str, campaign: Path, env: dict[str, str]) -> float:
    """The slowest echo of keys typed every 100 ms from the first frame on (nan: a key lost)."""
    term = Term([py, "-m", "gmscreen", "--lang", "en", str(campaign)], env)
    word = b"qwzjvkpqwzjvkpqwzjvkpqwzjvkp"
    worst = 0.0
    try:
        term.wait_for(b"campagne")
        term.type(b"/")
        for i in range(1, len(word) + 1):
            sent = time.perf_counter()
            try:
                worst = max(worst, term.answer(word[i - 1:i], word[i - 1:i], timeout=5))
            except TimeoutError:
                return float("nan")
            time.sleep(max(0.0, 0.1 - (time.perf_counter() - sent)))
    finally:
        term.close()
    return worst


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def command_time(argv: list[str], env: dict[str, str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, env=env, cwd=bench_tui.REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            return float("nan")
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose screen and commands are measured")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ns = parser.parse_args()
    sizes = [int(s) for s in ns.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    repo = ns.repo.resolve()
    bench_tui.REPO = repo               # `python -m gmscreen` runs in it: its own code, not this tree's
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor", PYTHONPATH=str(repo),
               GMSCREEN_CONFIG_DIR=str(work / "config"), GMSCREEN_DATA_DIR=str(work / "data"),
               PYTHONPYCACHEPREFIX=str(work / "pycache"), LANGUAGE="fr")     # no language question
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("TEXTUAL_THEME", None)
    py = sys.executable
    subprocess.run([py, "-m", "compileall", "-q", str(repo / "gmscreen")], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    try:
        build(work, 10)
        screen_run(py, work / "scale10.toml", env)      # warm-up: caches filled, not measured
        # The same keys with a 10-roll log: what the start of the screen itself costs them.
        start_only = max(keys_while_loading(py, work / "scale10.toml", env) for _ in range(ns.runs))
        screen: dict[int, dict[str, float]] = {}
        commands: dict[int, dict[str, float]] = {}
        for size in sizes:
            started = time.perf_counter()
            path = build(work, size)
            rolls = path.with_name(path.name.replace(".toml", ".rolls.toml"))
            print(f"built {size} rolls ({rolls.stat().st_size / 2**20:.1f} MiB log) in "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
            runs = [screen_run(py, path, env) for _ in range(ns.runs)]
            for leftover in work.glob("*.lock"):
                leftover.unlink()
            figures = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            worst = [keys_while_loading(py, path, env) for _ in range(ns.runs)]
            figures["slowest key echo while loading"] = max(worst)
            screen[size] = figures
            session = str(1 + size // SESSION_ROLLS)
            bare = f"import tomllib\nfor p in {[str(path), str(rolls)]!r}:\n    tomllib.loads(open(p, encoding='utf-8').read())"
            commands[size] = {
                "tomllib": command_time([py, "-c", bare], env, ns.runs),
                "validate": command_time([py, "-m", "gmscreen", "validate", str(path)], env, ns.runs),
                "export": command_time([py, "-m", "gmscreen", "export", str(path), "-o", str(work / "out.md")],
                                       env, ns.runs),
                "export --session N": command_time([py, "-m", "gmscreen", "export", "--session", session, str(path),
                                                    "-o", str(work / "out.md")], env, ns.runs),
            }
            print(f"measured {size} rolls", flush=True)
        base = sizes[0]
        print()
        print(f"{'measure':38} {'rolls':>7} {'figure':>10} {'reference':>18} {'ratio':>6} {'target':>8}  ok")

        def row(label: str, size: int, value: float, ref: float, ref_label: str, target: float, unit: str,
                limit: float | None = None) -> None:
            ratio = value / ref if ref == ref and ref else float("nan")
            ok = "n/a" if ratio != ratio else ("yes" if ratio <= target else "NO")
            if limit is not None and value == value and value > limit:
                ok = "NO"
            shown = f"{value * 1000:.0f} ms" if unit == "s" else f"{value:.0f} MiB"
            print(f"{label:38} {size:>7} {shown:>10} {ref_label:>18} {ratio:6.2f} {'<= ' + str(target):>8}  {ok}")

        for key in screen[base]:
            for size in sizes:
                value, ref = screen[size][key], screen[base][key]
                unit = "MiB" if "MiB" in key else "s"
                ref_label = (f"{ref * 1000:.0f} ms" if unit == "s" else f"{ref:.0f} MiB") + f" @{base}"
                if key == "log pane shows the newest rolls":
                    row(key, size, value, 1.0, "1000 ms", 1.0, unit)
                elif key == "slowest key echo while loading":
                    row(key, size, value, 0.1, f"100 ms ({start_only * 1000:.0f} @10)", 1.0, unit)
                elif key == "peak memory (MiB)":
                    row(key, size, value, ref, ref_label, SCREEN_TARGET, unit, RSS_LIMIT_MIB)
                else:
                    row(key, size, value, ref, ref_label, SCREEN_TARGET, unit)
        for key in ("validate", "export"):
            for size in sizes:
                ref = commands[size]["tomllib"]
                row(key, size, commands[size][key], ref, f"tomllib {ref * 1000:.0f} ms", COMMAND_TARGET, "s")
        for size in sizes:
            ref = commands[base]["export --session N"]
            row("export --session N", size, commands[size]["export --session N"], ref,
                f"{ref * 1000:.0f} ms @{base}", SCREEN_TARGET, "s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
