"""Luck is a p-value (issue 22, gmscreen/docs/luck.md): with fair dice and the table's policy,
P(luck <= q) <= q for q = 5, 10, 25, 50 %, for every kind of every game, from the roller's side
(`luck`) and from the other side's (`opponent_luck`).

Two checks per kind. Exact: the law of the results of the cases issue 22 names, else of the
kind's first golden-vector request, every path of dice `resolve`'s random mode asks for (or, for
a test made of steps, a Markov chain of them; `luck_calibration`), where it is small enough,
with its exact probabilities; the law is never taken from the luck code under test. Sampled:
2000 seeded fair rolls per kind, its requests in turn, within four standard errors.
"""

from __future__ import annotations

import pytest

from gmscreen.rules import SYSTEMS, get_system, resolve

import luck_calibration as calibration

SAMPLES = 2000
EXACT_PATHS = 4000          # more paths than this: the sampled check alone
KINDS = [(sid, kind) for sid in SYSTEMS for kind in get_system(sid).kinds]
SETS = calibration.parameter_sets(per_kind=2)


def _case_id(request: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in request.items() if k not in ("system", "kind"))


# Kinds whose every case has more paths than this test walks in its time (helpers' dice, two
# open rolls, two sides rerolling): the sampled check alone.
SAMPLED_ONLY = {("mir", "group"), ("arpeges", "opposed_two_rolls"), ("arpeges", "confrontation")}


def _exact(request: dict) -> bool:
    both_reroll = bool(request.get("actor_impulsions")) and bool(request.get("opponent_impulsions"))
    return (request["system"], request["kind"]) not in SAMPLED_ONLY and not both_reroll


# Per kind, the cases issue 22 names, else its first golden-vector request (with the MIR
# extended test whose pool changes from test to test, `test_modifiers`).
EXACT = [pytest.param(r, id=f"{sid}-{kind}-{_case_id(r)}") for sid, kind in KINDS
         for r in ([n for n in calibration.NAMED if (n["system"], n["kind"]) == (sid, kind)] or SETS[(sid, kind)][:1])
         if _exact(r)]


def _check(at_most, bound, what: str) -> None:
    for field in calibration.LUCK_FIELDS:
        for q in calibration.QS:
            found = at_most(q, field)
            assert found <= q + bound(q), f"{what}: P({field} <= {q:.0%}) = {found:.4%}"


def test_every_kind_is_checked() -> None:
    assert set(SETS) == set(KINDS) and all(SETS[k] for k in KINDS)


@pytest.mark.parametrize("request_", EXACT)
def test_exact_law_of_luck_is_a_p_value(request_: dict) -> None:
    stepped = calibration.STEPS.get((request_["system"], request_["kind"]))
    law = stepped(request_) if stepped else calibration.paths(request_, max_paths=EXACT_PATHS)
    assert law is not None, f"more than {EXACT_PATHS} paths: sample it (SAMPLED_ONLY)"
    assert law.omitted < 1e-6 and abs(sum(p for _, p in law.pairs) + law.omitted - 1) < 1e-9
    _check(law.at_most, law.bound, f"{_case_id(request_)} ({law.how}, {law.n} results)")


@pytest.mark.parametrize("sid,kind", KINDS)
def test_fair_rolls_luck_is_a_p_value(sid: str, kind: str) -> None:
    """A mixture of calibrated laws is calibrated: the kind's requests in turn, seeded."""
    requests = SETS[(sid, kind)]
    results = [resolve(requests[seed % len(requests)], seed=seed) for seed in range(SAMPLES)]
    law = calibration.Law(requests[0], "sample", [(r, 1 / SAMPLES) for r in results])
    assert sum(1 for r in results if r.get("luck") is not None) > SAMPLES // 2
    _check(law.at_most, law.bound, f"{sid} {kind}, {SAMPLES} fair rolls")


def test_the_order_of_every_kind_is_written_in_the_page_that_ships() -> None:
    """gmscreen/docs/luck.md, in the package, has a row for every kind under its game's heading;
    the README links it."""
    from importlib.resources import files
    from pathlib import Path

    page = (files("gmscreen") / "docs" / "luck.md").read_text(encoding="utf-8")
    sections = {part.split("\n", 1)[0].strip(): part for part in page.split("\n### ")[1:]}
    for sid in SYSTEMS:
        section = sections[get_system(sid).game]
        for kind in get_system(sid).kinds:
            assert f"\n| `{kind}` |" in section, (sid, kind)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "(gmscreen/docs/luck.md)" in readme
