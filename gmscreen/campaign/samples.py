"""The sample campaigns shipped with gmscreen, one per system.

A wheel carries them as `gmscreen/sample_campaigns` (pyproject's force-include); a source
checkout has them at the top of the repository. Both places are looked up, installed first.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import gmscreen
from gmscreen.i18n import _

from ..rules import registry


def _sample_dirs() -> list[Path]:
    dirs = []
    installed = resources.files("gmscreen") / "sample_campaigns"
    if isinstance(installed, Path):          # a zipped install has no paths to hand out
        dirs.append(installed)
    dirs.append(Path(gmscreen.__file__).resolve().parent.parent / "sample_campaigns")
    return dirs


def sample_path(system_id: str) -> Path:
    """The bundled sample campaign of `system_id` (a file to copy, never to edit in place)."""
    if not registry.known(system_id):
        raise ValueError(_("no sample for system {system}: expected one of {choices}").format(
            system=repr(system_id), choices=", ".join(registry.system_ids())) + registry.failure_note())
    own = registry.plugin(system_id).sample
    if own is not None:                     # a game shipped as its own package brings its sample
        if Path(own).is_file():
            return Path(own)
        raise FileNotFoundError(_("sample campaign {file} of system {system} not found; reinstall it").format(
            file=own, system=system_id))
    for folder in _sample_dirs():
        path = folder / f"{system_id}.toml"
        if path.is_file():
            return path
    looked = ", ".join(str(d) for d in _sample_dirs())
    raise FileNotFoundError(_("sample campaign {file} not found (looked in {looked}); reinstall gmscreen").format(
        file=f"{system_id}.toml", looked=looked))


def list_samples() -> dict[str, Path]:
    """System id -> sample file, for every sample found, in the registry's order."""
    out = {}
    for system_id in registry.system_ids():
        try:
            out[system_id] = sample_path(system_id)
        except FileNotFoundError:
            continue
    return out
