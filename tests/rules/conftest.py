"""Golden vectors copied from the rules specification, loaded from tests/data only.

`pytest_generate_tests` turns every `[[case]]` and `[[invalid]]` of every vector file into
its own test, so a failing vector is reported by system and name.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gmscreen.rules.registry import SHIPPED

VECTOR_DIR = Path(__file__).resolve().parents[1] / "data" / "vectors"
SYSTEM_IDS = SHIPPED          # the shipped games, whatever plugin is installed beside them


def load_vectors(system_id: str) -> dict:
    """The parsed vector file of one system."""
    with open(VECTOR_DIR / f"{system_id}.toml", "rb") as handle:
        return tomllib.load(handle)


def vector_cases(section: str, systems: tuple[str, ...] = SYSTEM_IDS) -> list:
    """`pytest.param`s of (system id, entry) for one section ("case" or "invalid")."""
    params = []
    for system_id in systems:
        for entry in load_vectors(system_id).get(section, []):
            params.append(pytest.param(system_id, entry, id=f"{system_id}: {entry['name']}"))
    return params


def seed_case(system_id: str, name: str) -> dict:
    """One named case, for tests that build on the seed's examples."""
    for entry in load_vectors(system_id)["case"]:
        if entry["name"] == name:
            return entry
    raise LookupError(f"no case named {name!r} in {system_id}.toml")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """`vector_case` / `vector_invalid`: one test per entry; `vector_system`: one per file."""
    for section in ("case", "invalid"):
        fixture = f"vector_{section}"
        if fixture in metafunc.fixturenames:
            metafunc.parametrize(("system_id", fixture), vector_cases(section))
    if "vector_system" in metafunc.fixturenames:
        metafunc.parametrize("vector_system", SYSTEM_IDS)


@pytest.fixture
def vectors():
    """Access to the vector files: `vectors(system_id)` and `vectors.case(system_id, name)`."""

    class _Vectors:
        def __call__(self, system_id: str) -> dict:
            return load_vectors(system_id)

        def case(self, system_id: str, name: str) -> dict:
            return seed_case(system_id, name)

    return _Vectors()
