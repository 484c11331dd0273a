"""Campaigns built in code for the store, log, journal and session tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from gmscreen.campaign import Campaign, Character, Condition, Encounter, Entry, sample_path
from gmscreen.rules.mir import SKILLS, VOIES

REPO = Path(__file__).resolve().parents[2]


def mir_character(i: int, notes: str = "") -> Character:
    voies = {v.key: 1 + (i + n) % 6 for n, v in enumerate(VOIES)}
    skills = {s.key: (i * 7 + n) % 7 for n, s in enumerate(SKILLS) if (i + n) % 3 == 0}
    return Character(id=f"perso-{i:03d}", name=f"Personnage {i}", side="party" if i % 4 else "npc",
                     sheet={"voies": voies, "skills": skills}, notes=notes or f"Notes de {i} : « rien » \\ \"ok\"")


def mir_campaign(characters: int = 3, *, revision: int = 0, notes: str = "Des notes\nsur deux lignes") -> Campaign:
    chars = [mir_character(i) for i in range(characters)]
    if chars:
        chars[0].conditions.append(Condition("Ébloui", "−1 dé", 2))
    entries = [Entry(id=f"e{i}", name=c.name, character=c.id, initiative=10 - i) for i, c in enumerate(chars[:4])]
    return Campaign(name="Campagne d'essai", system="mir", session=2, notes=notes, initiative="1d12",
                    characters=chars, encounter=Encounter(round=1, turn=0, entries=entries), revision=revision)


def copy_sample(tmp_path: Path, name: str = "camp.toml") -> Path:
    dest = tmp_path / name
    shutil.copyfile(sample_path("mir"), dest)
    return dest


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of a folder with its bytes: proves a command wrote nothing."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def mir_result(seed: int, *, hidden: bool = False, pool: int = 5, difficulty: int = 2) -> tuple[dict, dict]:
    from gmscreen.rules import resolve

    request = {"system": "mir", "kind": "simple", "pool": pool, "difficulty": difficulty, "hidden": hidden}
    return request, resolve(request, seed=seed)
