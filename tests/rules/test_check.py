"""`gmscreen.rules.check`: a request is refused exactly as `odds` refuses it (same field, code and
parameters), and accepted when `odds` answers, for random and mutated requests of every kind of
every registered system; a kind without its own check falls back to computing the odds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmscreen.rules import FieldSpec, Plugin, RequestError, SYSTEMS, check, get_system, odds, register, registry

KINDS = [(system_id, kind) for system_id in SYSTEMS for kind in SYSTEMS[system_id].kinds]
JUNK = st.sampled_from(["x", "", True, False, 1.5, None, [], [1, "a"], {"a": 1}, -1, 10 ** 6])


def refusal(fn, request: dict) -> tuple | None:
    """What `fn(request)` refuses (type, field, code, parameters), or None when it answers."""
    try:
        fn(request)
    except RequestError as exc:
        return type(exc), exc.field, exc.code, _plain(exc.params)
    return None


def _plain(params: dict) -> dict:
    """Parameters compared by value: a nested error (`cause`) by its field, code and parameters."""
    return {k: (v.field, v.code, _plain(v.params)) if isinstance(v, RequestError) else v
            for k, v in params.items()}


def _near(lo: int, hi: int) -> st.SearchStrategy[int]:
    """Mostly small values (the odds of a huge countdown are slow to compute) and the bounds."""
    return st.one_of(st.integers(lo, min(hi, lo + 8)), st.sampled_from([lo, hi]))


def good_value(spec: FieldSpec) -> st.SearchStrategy[Any]:
    """A value of the field's type and range (the request may still be refused as a whole)."""
    lo, hi = spec.lo if spec.lo is not None else 0, spec.hi if spec.hi is not None else 6
    if spec.choices:
        return st.sampled_from(list(spec.choices))
    if spec.type == "int":
        return _near(lo, hi)
    if spec.type == "bool":
        return st.booleans()
    if spec.type == "int_list":
        return st.lists(_near(lo, hi), min_size=0, max_size=3)
    if spec.type == "dice":
        return st.lists(st.integers(lo, hi), max_size=3)
    if spec.type == "dice_lists":
        return st.lists(st.lists(st.integers(lo, hi), max_size=2), max_size=2)
    return st.text(max_size=3)


def bad_value(spec: FieldSpec) -> st.SearchStrategy[Any]:
    """A value just out of range, or junk of any type."""
    out_of_range = st.sampled_from([spec.lo - 1, spec.hi + 1]) if spec.lo is not None and spec.hi is not None \
        else st.just(99)
    return st.one_of(out_of_range, JUNK, st.lists(JUNK, max_size=2))


@st.composite
def requests(draw, system_id: str, kind_name: str) -> dict:
    """The kind's fields with good values (dice fields left out, optional ones at random), then
    up to three mistakes: a bad value, a field left out, a forced dice field, an unknown key,
    a bad `hidden`, another kind or system."""
    kind = get_system(system_id).kinds[kind_name]
    specs = [spec for spec in kind.fields if spec.name not in kind.dice_fields]
    request: dict[str, Any] = {"system": system_id, "kind": kind_name}
    for spec in specs:
        if spec.required or draw(st.booleans()):
            request[spec.name] = draw(good_value(spec))
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.integers(0, 9))
        if how <= 3:
            spec = draw(st.sampled_from(specs))
            request[spec.name] = draw(bad_value(spec))
        elif how <= 5:
            spec = draw(st.sampled_from(specs))
            request.pop(spec.name, None)
        elif how == 6:
            spec = draw(st.sampled_from([s for s in kind.fields if s.name in kind.dice_fields]))
            request[spec.name] = draw(good_value(spec))
        elif how == 7:
            request[draw(st.sampled_from(["surprise", "actor_surprise", "dice2"]))] = 1
        elif how == 8:
            request["hidden"] = draw(st.one_of(st.booleans(), JUNK))
        else:
            field = draw(st.sampled_from(["system", "kind"]))
            other = draw(st.sampled_from([None, 3, "nowhere", "simple", "extended"]))
            if other is None:
                request.pop(field, None)
            else:
                request[field] = other
    return request


def _valid_requests(vectors, system_id: str) -> list[dict]:
    """The vectors' requests without their forced dice: requests odds answer, to mutate."""
    out = []
    for case in vectors(system_id)["case"]:
        kind = get_system(system_id).kinds[case["request"]["kind"]]
        out.append({k: v for k, v in case["request"].items() if k not in kind.dice_fields})
    return out


@st.composite
def mutated(draw, valid: list[dict]) -> dict:
    """A vector's request with one field removed, changed, or moved to the other side."""
    request = dict(draw(st.sampled_from(valid)))
    system_id = request["system"]
    kind = get_system(system_id).kinds[request["kind"]]
    specs = {spec.name: spec for spec in kind.fields}
    name = draw(st.sampled_from(sorted(set(request) | set(specs))))
    how = draw(st.integers(0, 3))
    if how == 0 and name in request:
        del request[name]
    elif how == 1 and name.startswith(("actor_", "opponent_")):
        side, _, rest = name.partition("_")
        request[("opponent_" if side == "actor" else "actor_") + rest] = request.pop(name, 1)
    elif name in specs:
        request[name] = draw(st.one_of(good_value(specs[name]), bad_value(specs[name])))
    else:
        request[name] = draw(JUNK)
    return request


@pytest.mark.parametrize("system_id, kind_name", KINDS, ids=[f"{s}-{k}" for s, k in KINDS])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_check_refuses_exactly_what_odds_refuses(system_id: str, kind_name: str, data) -> None:
    request = data.draw(requests(system_id, kind_name))
    assert refusal(check, request) == refusal(odds, request), request


@pytest.mark.parametrize("system_id", list(SYSTEMS))
def test_check_refuses_a_mutated_vector_as_odds_does(system_id: str, vectors) -> None:
    valid = _valid_requests(vectors, system_id)
    assert all(refusal(check, request) is None and refusal(odds, request) is None for request in valid)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(request=mutated(valid))
    def mutate(request: dict) -> None:
        assert refusal(check, request) == refusal(odds, request), request

    mutate()


@pytest.mark.parametrize("system_id, kind_name", KINDS, ids=[f"{s}-{k}" for s, k in KINDS])
def test_every_shipped_kind_checks_without_odds(system_id: str, kind_name: str) -> None:
    """Each shipped kind reads its fields in a function of its own, shared with its odds."""
    assert get_system(system_id).kinds[kind_name].check is not None


def test_check_computes_no_odds(monkeypatch) -> None:
    """The kinds' odds functions are never called by `check`, even on a slow request."""
    system = get_system("mir")
    called = []
    for name, kind in system.kinds.items():
        monkeypatch.setitem(system.kinds, name, replace(kind, odds=lambda reader: called.append(reader)))
    check({"system": "mir", "kind": "extended", "pool": 12, "threshold": 99, "max_tests": 98})
    with pytest.raises(RequestError) as caught:
        check({"system": "mir", "kind": "simple", "pool": 3, "difficulty": 9})
    assert (caught.value.field, caught.value.code) == ("difficulty", "out_of_range")
    assert called == []


def test_a_kind_without_check_has_its_odds_computed() -> None:
    """A third-party kind that only gives odds is checked by them: same refusals, nothing lost."""
    base = get_system("mir")
    kind = replace(base.kinds["simple"], check=None)
    plugin = Plugin("checkless", replace(base, id="checkless", kinds={"simple": kind}))
    register(plugin)
    try:
        good = {"system": "checkless", "kind": "simple", "pool": 4, "difficulty": 2}
        assert check(good) is None and odds(good)["chance"] > 0
        for bad in ({**good, "difficulty": 8}, {**good, "dice": [7]}, {**good, "voie": 2}, {**good, "x": 1}):
            assert refusal(check, bad) is not None
            assert refusal(check, bad) == refusal(odds, bad)
    finally:
        registry.unregister("checkless")
