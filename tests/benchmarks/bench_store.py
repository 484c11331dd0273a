"""Speed of the campaign store, each figure beside a reference measured in the same run.

Run: `python tests/benchmarks/bench_store.py` (from the repository or anywhere; ~2 minutes).

A MIR campaign of 200 characters is written to a temporary folder twice: once with an
empty roll log, once with a log of 100,000 rolls (real `resolve` results, one in 17 GM-only).

  1. Recording one roll (flushed and fsynced), empty log vs 100,000-roll log, through the
     screen's session (`record_roll`) and through the CLI path (`append_one`, which finds
     the next number from the end of the file). Target: ≤ 1.5× (O(1) in the log's size).
  2. Opening the campaign with its log (`open_session(read_only=True)`: parse, validate,
     journal, log) vs plain `tomllib.loads` of the same two files. Target: ≤ 2×.
  3. Saving the campaign without the log (`save_campaign`: atomic, fsynced, .bak kept) vs
     plain `tomli_w.dumps` + write of the same data. No target: reported.

The two sides of each comparison run alternately (ABAB...), and medians are compared, so
the machine's drift over minutes does not decide a pass.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import tomli_w  # noqa: E402

from gmscreen.campaign import Campaign, Character, Condition, open_session, save_campaign, to_data  # noqa: E402
from gmscreen.campaign.model import RollRecord  # noqa: E402
from gmscreen.campaign.rolllog import _HEADER, append_one, format_roll, rolls_path  # noqa: E402
from gmscreen.rules import resolve  # noqa: E402
from gmscreen.rules.mir import SKILLS, VOIES  # noqa: E402

from _verdict import verdict  # noqa: E402

CHARACTERS = 200
ROLLS = 100_000
RECORD_ROUNDS = 30
LOAD_ROUNDS = 3
SAVE_ROUNDS = 15
RECORD_TARGET = 1.5
LOAD_TARGET = 2.0


def campaign() -> Campaign:
    rng = random.Random(1)
    chars = []
    for i in range(CHARACTERS):
        voies = {v.key: rng.randint(1, 6) for v in VOIES}
        skills = {s.key: rng.randint(0, 6) for s in SKILLS}
        conditions = [Condition(f"État {n}", "−1 dé", rng.randint(1, 5)) for n in range(i % 3)]
        notes = "\n".join(f"note {n} : a rencontré {rng.choice(['le duc', 'la passeuse', 'l’oracle'])} au crépuscule"
                          for n in range(10))
        chars.append(Character(id=f"perso-{i:03d}", name=f"Personnage {i:03d}", side="party" if i % 5 else "npc",
                               sheet={"voies": voies, "skills": skills, "state": {"blessures": i % 4}},
                               conditions=conditions, notes=notes))
    return Campaign(name="Campagne de mesure", system="mir", session=12, notes="Notes de campagne\n" * 20,
                    initiative="1d12", characters=chars, revision=1)


def write_log(path: Path, n: int) -> None:
    rng = random.Random(2)
    parts = [_HEADER.format(campaign=path.name)]
    for seq in range(1, n + 1):
        request = {"system": "mir", "kind": "simple", "pool": rng.randint(1, 12), "difficulty": rng.randint(1, 7)}
        result = resolve(request, seed=seq)
        parts.append(format_roll(RollRecord(
            seq, f"2025-03-{1 + seq // 5000 % 28:02d}T21:{seq // 60 % 60:02d}:{seq % 60:02d}+01:00", 1 + seq // 8000,
            f"Personnage {seq % CHARACTERS:03d}", f"personnage{seq % CHARACTERS} tir sd{request['difficulty']}",
            request, result, seq % 17 == 0, False, seq)))
    path.write_text("".join(parts), "utf-8")


def alternate(a: Callable[[], object], b: Callable[[], object], rounds: int) -> tuple[list[float], list[float]]:
    """Time a and b alternately, `rounds` times each; seconds."""
    ta, tb = [], []
    for _ in range(rounds):
        for fn, out in ((a, ta), (b, tb)):
            gc.collect()
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return ta, tb


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f} ms"


def report(label_a: str, ta: list[float], label_b: str, tb: list[float]) -> float:
    ma, mb = statistics.median(ta), statistics.median(tb)
    print(f"    {label_a:44s} median {ms(ma)}  (min {ms(min(ta)).strip()}, max {ms(max(ta)).strip()}, n={len(ta)})")
    print(f"    {label_b:44s} median {ms(mb)}  (min {ms(min(tb)).strip()}, max {ms(max(tb)).strip()}, n={len(tb)})")
    ratio = mb / ma
    print(f"    ratio: {ratio:.2f}×")
    return ratio


def main() -> int:
    import os

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {CHARACTERS} characters, {ROLLS:,} rolls")
    results: list[tuple[str, bool]] = []
    with tempfile.TemporaryDirectory(prefix="bench_store_") as tmp:
        folder = Path(tmp)
        base = campaign()
        empty_path, full_path = folder / "empty.toml", folder / "full.toml"
        save_campaign(base, empty_path)
        save_campaign(base, full_path)
        start = time.perf_counter()
        write_log(rolls_path(full_path), ROLLS)
        log_size = rolls_path(full_path).stat().st_size
        state_size = full_path.stat().st_size
        print(f"files: campaign {state_size:,} B; roll log {log_size:,} B ({(log_size - 200) / ROLLS:.0f} B per roll), "
              f"written in {time.perf_counter() - start:.1f} s")

        # 1. Recording one roll.
        print("\n1. recording one roll (fsynced), empty log vs 100,000-roll log")
        request = {"system": "mir", "kind": "simple", "pool": 6, "difficulty": 2}
        result = resolve(request, seed=5)
        empty = open_session(empty_path)
        t0 = time.perf_counter()
        full = open_session(full_path)
        open_full = time.perf_counter() - t0
        assert len(full.rolls) == ROLLS and not full.warnings, full.warnings[:3]

        def rec(session):
            return lambda: session.record_roll(who="Alexis", line="alexis tir sd2", request=request, result=result,
                                               seed=5)

        print("  screen session, record_roll:")
        ta, tb = alternate(rec(empty), rec(full), RECORD_ROUNDS)
        ratio = report("empty log", ta, "100,000-roll log", tb)
        results.append((f"record_roll: 100k log / empty log = {ratio:.2f}× ≤ {RECORD_TARGET}×", ratio <= RECORD_TARGET))
        empty.close()
        full.close()

        def cli(path):
            return lambda: append_one(rolls_path(path), campaign_name=path.name, session=12, who="Alexis",
                                      line="alexis tir sd2", request=request, result=result, seed=5)

        print("  command line, append_one (numbers the roll from the end of the file):")
        ta, tb = alternate(cli(empty_path), cli(full_path), RECORD_ROUNDS)
        ratio = report("empty log", ta, "100,000-roll log", tb)
        results.append((f"append_one: 100k log / empty log = {ratio:.2f}× ≤ {RECORD_TARGET}×", ratio <= RECORD_TARGET))

        # 2. Loading.
        print(f"\n2. loading the campaign and its {ROLLS:,}-roll log (open_session took {open_full:.2f} s above)")

        def plain_load():
            tomllib.loads(full_path.read_text("utf-8"))
            tomllib.loads(rolls_path(full_path).read_text("utf-8"))

        def ours_load():
            s = open_session(full_path, read_only=True)
            assert len(s.rolls) >= ROLLS
            s.close()

        ta, tb = alternate(plain_load, ours_load, LOAD_ROUNDS)
        ratio = report("tomllib.loads of both files", ta, "open_session(read_only=True)", tb)
        results.append((f"load: open_session / tomllib.loads = {ratio:.2f}× ≤ {LOAD_TARGET}×", ratio <= LOAD_TARGET))

        # 3. Saving the state.
        print("\n3. saving the campaign (without the log)")
        loaded = open_session(full_path, read_only=True)
        state = loaded.campaign
        loaded.close()
        plain_path = folder / "plain.toml"

        def plain_save():
            text = tomli_w.dumps(to_data(state))
            with open(plain_path, "w", encoding="utf-8") as fh:
                fh.write(text)

        def ours_save():
            state.revision += 1
            save_campaign(state, full_path)

        ta, tb = alternate(plain_save, ours_save, SAVE_ROUNDS)
        ratio = report("tomli_w.dumps + write", ta, "save_campaign (atomic, 2 fsyncs, .bak)", tb)
        print("    (no target: the difference is the price of the fsyncs and renames that make a save atomic)")

    return verdict(results)


if __name__ == "__main__":
    raise SystemExit(main())
