"""The language question's tests, on the GM's screen and in the players' view: what was saved,
and a language chosen by one of the ways DESIGN.md orders (`--lang`, config.toml, LANG)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest


def saved_language(dirs: dict[str, Path]) -> str | None:
    path = dirs["config"] / "config.toml"
    if not path.exists():
        return None
    return tomllib.loads(path.read_text(encoding="utf-8")).get("language")


def language_chosen_by(chosen: str, language: str, dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> str | None:
    """`language` chosen by "option", "config" or "environment" (en_GB); the `language=` the
    app is then given (the option's, else None)."""
    if chosen == "environment":
        monkeypatch.setenv("LANG", "en_GB.UTF-8")
    if chosen == "config":
        dirs["config"].mkdir(parents=True, exist_ok=True)
        (dirs["config"] / "config.toml").write_text(f'language = "{language}"\n', encoding="utf-8")
    return language if chosen == "option" else None
