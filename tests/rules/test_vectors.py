"""Every golden vector of every system, through `gmscreen.rules.resolve`.

Values compare with their types (a bool is not an int), lists element by element; an invalid
request must raise `RequestError` naming the expected field, in `.field` and in the message.
"""

from __future__ import annotations

import pytest

from gmscreen.rules import RequestError, get_system, resolve
from gmscreen.rules.vectors import same      # the comparison `gmscreen vectors` makes


def test_case(system_id: str, vector_case: dict) -> None:
    request = vector_case["request"]
    assert request["system"] == system_id
    result = resolve(request)
    assert result["system"] == system_id
    assert result["kind"] == request["kind"]
    assert result["hidden"] is request.get("hidden", False)
    for key, expected in vector_case["expect"].items():
        assert key in result, f"outcome key {key!r} missing"
        assert same(result[key], expected), f"{key}: got {result[key]!r}, expected {expected!r}"
    for key in vector_case.get("null_fields", []):
        assert key in result, f"null field {key!r} left out"
        assert result[key] is None, f"{key}: got {result[key]!r}, expected null"


def test_case_echoes_forced_dice(system_id: str, vector_case: dict) -> None:
    """The dice actually used come back under the request's field names."""
    request = vector_case["request"]
    kind = get_system(system_id).kinds[request["kind"]]
    result = resolve(request)
    for name in kind.dice_fields:
        if request.get(name):
            assert same(result[name], request[name]), name


def test_invalid(system_id: str, vector_invalid: dict) -> None:
    field = vector_invalid["field"]
    with pytest.raises(RequestError) as caught:
        resolve(vector_invalid["request"])
    assert caught.value.field == field
    assert field in str(caught.value)


def test_vector_file_is_well_formed(vector_system: str, vectors) -> None:
    system_id = vector_system
    data = vectors(system_id)
    names = [entry["name"] for entry in data["case"] + data.get("invalid", [])]
    assert len(names) == len(set(names)), "case names must be unique"
    assert data["case"], "a vector file without cases checks nothing"
    for entry in data["case"]:
        assert entry["request"]["system"] == system_id
        assert entry["expect"] or entry.get("null_fields")
    for entry in data.get("invalid", []):
        assert isinstance(entry["field"], str) and entry["field"]
