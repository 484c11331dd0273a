"""The user's settings: last campaign, recent campaigns, theme, keymap and language.

`config.toml` lives in the XDG config folder (`GMSCREEN_CONFIG_DIR` overrides it, which
every test uses); first-run copies of the samples go to the XDG data folder
(`GMSCREEN_DATA_DIR`). A config file that cannot be read is reported and left alone:
nothing is written over it, so a typo never costs the GM their keymap.
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import field
from pathlib import Path
from typing import Any

from gmscreen import i18n
from gmscreen.i18n import _, os_reason
from gmscreen.play.luck_words import DEFAULT_NOTABLE, NOTABLE_RANGE
from gmscreen.rules.records import record

CONFIG_ENV = "GMSCREEN_CONFIG_DIR"
DATA_ENV = "GMSCREEN_DATA_DIR"
CONFIG_NAME = "config.toml"
RECENT_MAX = 8
_SAVING = threading.Lock()          # one config save at a time (the screen saves in threads)
KNOWN_KEYS = ("theme", "last_campaign", "recent", "keymap", "language", "luck_notable")


def config_dir() -> Path:
    """Folder of config.toml and user themes (`$GMSCREEN_CONFIG_DIR` or XDG config)."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    from platformdirs import user_config_path

    return user_config_path("gmscreen", appauthor=False)


def data_dir() -> Path:
    """Folder of the first-run campaign (`$GMSCREEN_DATA_DIR` or XDG data)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path("gmscreen", appauthor=False)


def first_run_campaign() -> Path:
    """A copy of the first-run sample (MIR's) in the data folder, made once, then reused as the
    GM's own."""
    from gmscreen.campaign import sample_path
    from gmscreen.rules.registry import FIRST_RUN

    target = data_dir() / "campaigns" / f"{FIRST_RUN}.toml"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        import shutil     # here, not at the top: the command line reads the config at every start

        shutil.copyfile(sample_path(FIRST_RUN), target)
    return target


def notable_luck(app: object) -> int:
    """The notable-luck bound of an app's settings (an app without them: the default)."""
    config = getattr(app, "config", None)
    return config.notable_luck if isinstance(config, Config) else DEFAULT_NOTABLE


@record
class Config:
    """Settings read from config.toml; `problems` says what was wrong with the file."""

    path: Path
    theme: str | None = None
    last_campaign: Path | None = None
    recent: list[Path] = field(default_factory=list)
    keymap: dict[str, str] = field(default_factory=dict)
    language: str | None = None    # "fr" or "en": the screen's language (--lang wins over it)
    # A roll's luck is said when under this percent or over 100 minus it (None: the default, 10).
    luck_notable: int | None = None
    problems: list[str] = field(default_factory=list)
    broken: bool = False           # unreadable: never written over
    extra: dict[str, Any] = field(default_factory=dict)   # unknown keys, kept on save
    # The settings as the file held them when last read or written: a save rewrites only
    # what differs from them, in the GM's own text (comments, remapped keys, layout).
    saved: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def load(cls, path: Path | None = None) -> Config:
        path = path if path is not None else config_dir() / CONFIG_NAME
        config = cls(path=path)
        from gmscreen.campaign import safeload

        try:
            text = safeload.read_limited(path, safeload.MAX_SETTINGS_BYTES).decode("utf-8")
            data = safeload.loads_toml(text)        # too deep or too big: LoadError, not a traceback
        except FileNotFoundError:
            return config
        except safeload.LoadError as exc:
            config._broken(exc.message + (" " + _("(line {n})").format(n=exc.line) if exc.line else ""))
            return config
        except (OSError, UnicodeDecodeError) as exc:
            config._broken(_("cannot read it: {problem}").format(problem=os_reason(exc)))
            return config
        config._read(data)
        config.saved = config.to_data()
        return config

    def _broken(self, why: str) -> None:
        self.broken = True
        self.problems.append(_("{file}: {problem}; settings ignored and the file left as it is").format(
            file=self.path, problem=why))

    def _bad(self, key: str, expected: str, value: Any) -> None:
        self.problems.append(_("{file}: {key}: expected {expected}, got {value}; ignored").format(
            file=self.path, key=key, expected=expected, value=repr(value)))

    def _read(self, data: dict[str, Any]) -> None:
        self.extra = {k: v for k, v in data.items() if k not in KNOWN_KEYS}
        theme = data.get("theme")
        if theme is not None:
            if isinstance(theme, str) and theme.strip():
                self.theme = theme.strip()
            else:
                self._bad("theme", _("a theme name"), theme)
        last = data.get("last_campaign")
        if last is not None:
            if isinstance(last, str) and last:
                self.last_campaign = Path(last)
            else:
                self._bad("last_campaign", _("a file path"), last)
        recent = data.get("recent", [])
        if isinstance(recent, list) and all(isinstance(p, str) for p in recent):
            self.recent = [Path(p) for p in recent][:RECENT_MAX]
        else:
            self._bad("recent", _("a list of file paths"), recent)
        language = data.get("language")
        if language is not None:
            if language in i18n.LANGUAGES:
                self.language = language
            else:
                self._bad("language", _("\"fr\" or \"en\""), language)
        notable = data.get("luck_notable")
        if notable is not None:
            lo, hi = NOTABLE_RANGE
            if isinstance(notable, int) and not isinstance(notable, bool) and lo <= notable <= hi:
                self.luck_notable = notable
            else:
                self._bad("luck_notable", _("a whole percent from {lo} (never say it) to {hi}").format(lo=lo, hi=hi),
                          notable)
        keymap = data.get("keymap", {})
        if not isinstance(keymap, dict):
            self._bad("keymap", _("a table of binding-id = \"keys\""), keymap)
            return
        for binding_id, keys in keymap.items():
            if isinstance(keys, str) and keys.strip():
                self.keymap[binding_id] = keys.replace(" ", "")
            elif isinstance(keys, list) and keys and all(isinstance(k, str) and k for k in keys):
                self.keymap[binding_id] = ",".join(k.strip() for k in keys)
            else:
                self._bad(f"keymap.{binding_id}", _("keys such as \"ctrl+r\" or \"r,f5\""), keys)

    def asks_language(self, option: str | None) -> bool:
        """Nothing names a language: no --lang (`option`), no `language` here, nor an
        environment naming one we speak (LANG=C on a server): the first screen asks which, the
        GM's and the players' alike (`screens.language_question`). A file too broken to read is
        not asked over: the answer could not be remembered in it."""
        return option is None and self.language is None and not self.broken and i18n.from_environment() is None

    # ------------------------------------------------------------ changes (saved at once)

    def remember_theme(self, name: str, *, save: bool = True) -> bool:
        """`save=False`: the caller saves (the screen does it in a thread)."""
        if self.theme == name:
            return True
        self.theme = name
        return self.save() if save else True

    def remember_language(self, lang: str, *, save: bool = True) -> bool:
        """The language chosen from the palette, for the next start (`save=False`: the caller saves)."""
        if self.language == lang:
            return True
        self.language = lang
        return self.save() if save else True

    def remember_campaign(self, path: Path, *, save: bool = True) -> bool:
        path = Path(path).absolute()
        self.last_campaign = path
        self.recent = [path] + [p for p in self.recent if Path(p).absolute() != path]
        del self.recent[RECENT_MAX:]
        return self.save() if save else True

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        if self.theme:
            data["theme"] = self.theme
        if self.last_campaign is not None:
            data["last_campaign"] = str(self.last_campaign)
        if self.recent:
            data["recent"] = [str(p) for p in self.recent]
        if self.language:
            data["language"] = self.language
        if self.keymap:
            data["keymap"] = dict(self.keymap)
        if self.luck_notable is not None:
            data["luck_notable"] = self.luck_notable
        return data

    @property
    def notable_luck(self) -> int:
        """The percent under which (or over 100 minus which) a roll's luck is said."""
        return DEFAULT_NOTABLE if self.luck_notable is None else self.luck_notable

    def save(self) -> bool:
        """Atomic write of what changed, the rest of the file as the GM wrote it (a change they
        made meanwhile stays too); False (and nothing written) when the file was unreadable,
        has become unreadable, or cannot be written. Nothing changed: nothing written.
        Thread-safe: saves run one at a time."""
        with _SAVING:
            return self._save()

    def _save(self) -> bool:
        if self.broken:
            return False
        data = self.to_data()
        try:
            current: str | None = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            current = None
        except (OSError, UnicodeDecodeError) as exc:
            self.problems.append(_("{file}: cannot read it before saving the settings: {problem}; left as it is")
                                 .format(file=self.path, problem=os_reason(exc)))
            return False
        if current is not None and data == self.saved:
            return True
        try:
            text = self._text(current, data)
        except ValueError as exc:
            self.problems.append(_("{file}: {problem}; settings not saved, the file left as it is").format(
                file=self.path, problem=exc))
            return False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            import tempfile   # only to save: the command line reads the config at every start

            fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as exc:
            self.problems.append(_("{file}: cannot save the settings: {problem}").format(
                file=self.path, problem=os_reason(exc)))
            return False
        self.saved = data
        return True

    def _text(self, current: str | None, data: dict[str, Any]) -> str:
        """The new file text: the current one patched where our settings changed, else whole.
        ValueError when the current file no longer reads as TOML (a hand edit under way)."""
        import tomli_w

        if current is None or not current.strip():
            return tomli_w.dumps(data)
        from gmscreen.campaign import safeload
        from gmscreen.campaign.tomledit import (PatchError, keep_comments, patch_text,   # tomlkit: first save only
                                                whole_text)

        try:
            safeload.loads_toml(current)
        except safeload.LoadError as exc:
            raise ValueError(exc.message) from None
        try:
            return patch_text(current, data, self.saved if self.saved is not None else {})
        except PatchError:
            # Cannot be edited in place: written whole, never lost, and its comments kept.
            return keep_comments(current, whole_text(data) or tomli_w.dumps(data)).text

