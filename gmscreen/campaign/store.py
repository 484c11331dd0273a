"""The campaign file itself: loading (with format migration) and atomic, deterministic saving.

A save never leaves a torn file: the new text goes to a temporary file in the same folder,
is flushed and fsynced, the previous file is kept as `X.toml.bak` (a hard link, so the old
bytes are never copied or rewritten), `os.replace` swaps the new file in, and the folder is
fsynced so the rename itself survives a power cut. At every instant `X.toml` is either the
old or the new version.

A save keeps the file as the GM wrote it: the text it held (`FileState`) is patched where
values changed (`tomledit`), so comments, order and layout stay. When it cannot be patched
the file is written whole with every comment of the old text put back, and the state it
returns says so (`FileState.notice`). Its `Stamp` lets the session notice a change made on
disk by someone else (see `outside`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import tomllib
from dataclasses import field
from pathlib import Path
from typing import Any, Callable, Iterable


from gmscreen.i18n import _, ngettext, os_reason
from gmscreen.rules.records import record

from ._appendlog import fsync_dir, real_path
from .errors import CampaignError, Problem
from .safeload import MAX_CAMPAIGN_BYTES, LoadError, read_limited
from .model import FORMAT, Campaign, to_data
from .paths import backup_path  # noqa: F401 (also said from here)

# format n -> function turning the plain data of format n into format n + 1.
# Format 1 is the first format: nothing to migrate yet. A later format adds its step here.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

_FORMAT_LINE = re.compile(r"^format[ \t]*=[ \t]*(\d+)[ \t]*(?:#.*)?$", re.M)
_TABLE_LINE = re.compile(r"^[ \t]*\[", re.M)


def read_text(path: str | Path) -> str:
    """The file as text, strictly UTF-8; CampaignError naming the file otherwise."""
    return decode_text(read_bytes(path), str(path))


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a campaign file; CampaignError naming the file when it cannot be read."""
    name = str(path)
    try:
        return read_limited(path, MAX_CAMPAIGN_BYTES)
    except LoadError as exc:
        raise CampaignError([Problem(name, "", _("{problem}: not a campaign").format(problem=exc.message))]) \
            from None
    except FileNotFoundError:
        raise CampaignError([Problem(name, "", _("no such file: expected a campaign (create one with "
                                                 "`gmscreen new FILE --system ID`)"))]) from None
    except OSError as exc:
        raise CampaignError([Problem(name, "", _("cannot read the file: {reason}").format(
            reason=os_reason(exc)))]) from None


def decode_text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CampaignError([Problem(name, "", _("invalid UTF-8 at byte offset {offset}: expected UTF-8 text").format(
            offset=exc.start), line)]) from None


def _peek_format(text: str) -> int | None:
    """The top-level `format = N` before the first table, without parsing the whole file."""
    m = _TABLE_LINE.search(text)
    head = text[: m.start()] if m else text
    found = _FORMAT_LINE.search(head)
    return int(found.group(1)) if found else None


def _raw_format(text: str) -> Any:
    try:
        return tomllib.loads(text).get("format")
    except (ValueError, RecursionError, MemoryError):     # (a syntax error, or a number too long)
        return None


def _format_line(text: str) -> int | None:
    m = _FORMAT_LINE.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def parse_text(text: str, file: str) -> tuple[Campaign, list[Problem]]:
    """Campaign and warnings from the text of a campaign file of any known format."""
    from .validate import parse_campaign

    peeked = _peek_format(text)
    if peeked in (None, FORMAT):
        try:
            campaign, warnings = parse_campaign(text, file)
        except CampaignError:
            fmt = peeked if peeked is not None else _raw_format(text)   # (not parsed twice when the line says)
            if type(fmt) is int and (fmt > FORMAT or fmt in MIGRATIONS):
                return _other_format(text, file, fmt)
            raise
        if campaign.format == FORMAT:
            return campaign, warnings
    fmt = _raw_format(text)
    if type(fmt) is not int:
        return parse_campaign(text, file)       # reports the syntax error or the bad format
    return _other_format(text, file, fmt)


def _other_format(text: str, file: str, fmt: int) -> tuple[Campaign, list[Problem]]:
    from .validate import parse_campaign

    if fmt > FORMAT:
        raise CampaignError([Problem(
            file, "format",
            _("written by a newer gmscreen (format {found}); this version reads formats up to {format}: "
              "update gmscreen to open it (the file is left untouched)").format(found=fmt, format=FORMAT),
            _format_line(text))])
    if fmt == FORMAT:
        return parse_campaign(text, file)
    if any(step not in MIGRATIONS for step in range(fmt, FORMAT)):
        oldest = min((f for f in MIGRATIONS if all(s in MIGRATIONS for s in range(f, FORMAT))), default=FORMAT)
        raise CampaignError([Problem(file, "format", _("expected a format from {oldest} to {format}, got {found}")
                                     .format(oldest=oldest, format=FORMAT, found=fmt), _format_line(text))])
    data = tomllib.loads(text)
    start = fmt
    try:
        while fmt < FORMAT:
            data = MIGRATIONS[fmt](data)
            fmt += 1
            data["format"] = fmt
        import tomli_w   # (writing TOML: not needed to open a campaign at its current format)

        migrated = tomli_w.dumps(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CampaignError([Problem(file, "format", _("cannot migrate format {start} to {format} "
                                                       "(step from format {step}): {error}").format(
            start=start, format=FORMAT, step=fmt, error=repr(exc)), _format_line(text))]) \
            from None
    try:
        campaign, warnings = parse_campaign(migrated, file)
    except CampaignError as exc:
        # Lines refer to the migrated text, not the file: say so rather than mislead.
        after = _("(after migrating format {start} to {format})").format(start=start, format=FORMAT)
        raise CampaignError([Problem(p.file, p.path, f"{p.message} {after}", None, p.warning)
                             for p in exc.problems]) from None
    note = Problem(file, "format", _("format {start} migrated to format {format} in memory; the next save "
                                     "writes format {format} (the old file is kept as {backup})").format(
                       start=start, format=FORMAT, backup=f"{Path(file).name}.bak"),
                   _format_line(text), True)
    return campaign, [note] + [Problem(p.file, p.path, p.message, None, True) for p in warnings]


def load_campaign_with_warnings(path: str | Path) -> tuple[Campaign, list[Problem]]:
    """The campaign at `path` and its warnings; raises CampaignError. Never writes."""
    return parse_text(read_text(path), str(path))


def load_campaign(path: str | Path) -> Campaign:
    """The campaign at `path` (state file only, without the journal); raises CampaignError."""
    return load_campaign_with_warnings(path)[0]


def _has_cr(value: Any) -> bool:
    if isinstance(value, str):
        return "\r" in value
    if isinstance(value, dict):
        return any(_has_cr(k) or _has_cr(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_cr(v) for v in value)
    return False


def campaign_data(campaign: Campaign) -> dict[str, Any]:
    """The plain data a campaign file holds, `format` first (a fresh copy)."""
    data = to_data(campaign)
    return {"format": data.pop("format", FORMAT), **data}


def dump_campaign(campaign: Campaign) -> str:
    """The file text of a campaign: the same campaign always gives the same bytes.

    `format` comes first; notes keep their line breaks as TOML multi-line strings, except
    when some text holds a carriage return, which multi-line strings cannot keep exactly.
    """
    import tomli_w

    data = campaign_data(campaign)
    try:
        return tomli_w.dumps(data, multiline_strings=not _has_cr(data))
    except (TypeError, ValueError) as exc:
        raise CampaignError([Problem(campaign.name or "campaign", "", _("cannot be written as TOML: {error}").format(
            error=exc))]) from None


def write_refusal(path: str | Path) -> str | None:
    """Why the campaign file at `path` must not be replaced by a save, said to the GM; None
    when it may. A file whose permissions forbid writing (0444: even root's saves would
    replace it, since a save renames a new file into place) or a folder the GM cannot write."""
    path = Path(path)
    try:
        st = os.stat(path)
    except OSError:
        return None                 # gone: the next save writes it again
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        return _("{file} is read-only (its permissions do not allow writing it)").format(file=path.name)
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return _("the folder of {file} cannot be written").format(file=path.name)
    return None


def write_atomic(path: str | Path, data: bytes | Iterable[bytes], *, backup: bool = True, exclusive: bool = False,
                 before_replace: Callable[[], None] | None = None, follow: bool = True) -> os.stat_result:
    """Replace `path` by `data` so that a crash leaves either the old or the new file.

    `data`: bytes, or pieces of bytes written as they come (an export of a long log is never
    whole in memory).

    `exclusive`: create only; FileExistsError when `path` exists (checked atomically).
    `before_replace` runs the instant before the old file is replaced (it may raise to stop
    the save: nothing is replaced then). Returns the stat of the file written.
    `follow`: a link at `path` is followed (a campaign named through a link is saved beside
    the file it names); False: `path` itself is written, and a link or anything but a regular
    file there is refused (`sidefile.SideFileRefused`): a side file, or the very file a session
    opened.
    """
    from . import sidefile

    path = real_path(path) if follow else Path(path)
    if not follow:
        if exclusive and os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "File exists", str(path))   # a link counts as taken
        sidefile.check(path)
    folder = path.parent
    tmp = folder / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        mode = (os.stat(path) if follow else os.lstat(path)).st_mode & 0o7777
        exists = True
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
        exists = False
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        try:
            for piece in (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data:
                view = memoryview(piece)
                while view:
                    view = view[os.write(fd, view):]
            os.fsync(fd)
            written = os.fstat(fd)          # rename and links keep its inode, size and mtime
        finally:
            os.close(fd)
        if exclusive:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise
            except OSError:
                # No hard links on this file system: check, then rename (a narrow race).
                if os.path.lexists(path):
                    raise FileExistsError(errno.EEXIST, "File exists", str(path)) from None
                os.replace(tmp, path)
            else:
                os.unlink(tmp)
        else:
            if before_replace is not None:
                before_replace()
            if not follow:
                sidefile.check(path)        # made a link meanwhile: not replaced, not kept as .bak
            if exists and backup:
                _keep_backup(path)
            os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(folder)
    return written


def _keep_backup(path: Path) -> None:
    """`X.toml.bak` := the current `X.toml`, swapped in atomically as well."""
    bak = path.with_name(path.name + ".bak")
    tmp = path.with_name(f".{bak.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        os.link(path, tmp, follow_symlinks=False)
    except OSError:
        # No hard links here (some network or FAT file systems): copy the bytes instead.
        data = path.read_bytes()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    try:
        os.replace(tmp, bak)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------- what the file held, saves that keep it


@record(frozen=True)
class Stamp:
    """One version of a file: its stat signature (cheap to compare, every few seconds) and
    the hash of its bytes (compared only when the signature changed)."""

    signature: tuple[int, int, int, int] | None     # device, inode, size, mtime in ns; None: no file
    digest: str


def signature_of(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def current_signature(path: str | Path) -> tuple[int, int, int, int] | None:
    """The signature of the file at `path` now; None when there is none."""
    try:
        return signature_of(os.stat(path))
    except FileNotFoundError:
        return None


def digest_of(data: bytes) -> str:
    """Tells two versions of a file apart within this process (a digest is never written nor
    shared): the bytes' length and Python's own keyed 64-bit hash of them. No cryptography is
    asked of it, and hashlib's OpenSSL would be loaded before the first frame for it."""
    return f"{len(data)}:{hash(data) & 0xFFFF_FFFF_FFFF_FFFF:016x}"


@record
class FileState:
    """The campaign file as this process last read or wrote it: its stamp, its text and the
    plain data that text holds, from which the next save patches only what changed (data
    None: an older format, saved whole)."""

    stamp: Stamp
    text: str
    data: dict[str, Any] | None
    # tomlkit's parse of `text`, kept from one save to the next (see tomledit.patch_text).
    cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # What the GM must be told of the save that wrote `text` ("": nothing), in their language:
    # it could not patch the file and wrote it whole, with every comment kept (see `_whole`).
    notice: str = field(default="", compare=False)


def _migrated(warnings: list[Problem]) -> bool:
    # The migration note is the only warning on `format` (its words depend on the language).
    return any(p.path == "format" and p.warning for p in warnings)


def load_file_state(path: str | Path) -> tuple[Campaign, list[Problem], FileState]:
    """`load_campaign_with_warnings`, plus what the file held (for saves and outside edits).
    Never writes."""
    name = str(path)
    signature = current_signature(path)     # before the bytes: a change after it is seen later
    raw = read_bytes(path)
    text = decode_text(raw, name)
    campaign, warnings = parse_text(text, name)
    data = None if _migrated(warnings) else campaign_data(campaign)
    return campaign, warnings, FileState(Stamp(signature, digest_of(raw)), text, data)


def _patched(data: dict[str, Any], path: str | Path, base: FileState | None) -> tuple[str | None, str | None]:
    """The base text with only the changed values rewritten, checked to load as `data`
    (None when it cannot be done faithfully: then the file is written whole), and the base
    text itself (None when there is none to keep the comments of)."""
    if base is None:
        try:
            text = read_text(path)
            campaign, warnings = parse_text(text, str(path))
        except (CampaignError, OSError):
            return None, None
        if _migrated(warnings):
            return None, text
        base = FileState(Stamp(None, ""), text, campaign_data(campaign))
    if base.data is None:
        return None, base.text
    from .tomledit import PatchError, patch_text, same   # tomlkit: imported by the first save only

    try:
        out = patch_text(base.text, data, base.data, cache=base.cache, check=False)
    except (PatchError, RecursionError, MemoryError):
        return None, base.text
    try:
        again, _warnings = parse_text(out, str(path))
    except CampaignError:
        # Kept only when it holds the data asked for and the campaign fails validation
        # written whole as well: the patch is then not at fault, the campaign is.
        try:
            if not same(tomllib.loads(out), base.cache.get("mirror")):
                return None, base.text
            import tomli_w

            parse_text(tomli_w.dumps(data), str(path))
        except CampaignError:
            return out, base.text
        except (TypeError, ValueError, RecursionError, MemoryError, tomllib.TOMLDecodeError):
            return None, base.text
        return None, base.text
    if same(campaign_data(again), data):
        return out, base.text
    base.cache.clear()
    return None, base.text


def _whole(campaign: Campaign, path: str | Path, source: str | None,
           meant: dict[str, Any] | None) -> tuple[str, str]:
    """The file written whole, with every comment of `source` (the text it replaces, which
    held `meant`) put back; and what the GM must be told of it ("" when there were no
    comments to keep). Keys `source` left out to the program's value are left out again."""
    text = dump_campaign(campaign)
    if not source or "#" not in source:
        return text, ""
    from .tomledit import keep_comments, same, whole_text

    data = campaign_data(campaign)
    text = whole_text(data) or text                         # conditions stay [[tables]], as the GM wrote them
    try:
        shorter = whole_text(data, tomllib.loads(source), meant) if meant is not None else None
        if shorter is not None and same(campaign_data(parse_text(shorter, str(path))[0]), data):
            text = shorter
    except (CampaignError, tomllib.TOMLDecodeError, RecursionError):
        pass
    try:
        kept = keep_comments(source, text)
    except (RecursionError, MemoryError):
        kept = None
    name, backup = Path(path).name, backup_path(path).name
    if kept is None:
        return text, _("{name} could not be saved in place and was written whole: its comments could not be "
                       "kept (the previous version is {backup})").format(name=name, backup=backup)
    if kept.moved:
        return kept.text, ngettext(
            "{name} could not be saved in place and was written whole: {n} comment kept ({moved} moved from "
            "what is no longer there; the previous version is {backup})",
            "{name} could not be saved in place and was written whole: {n} comments kept ({moved} moved from "
            "what is no longer there; the previous version is {backup})", kept.kept).format(
            name=name, n=kept.kept, moved=kept.moved, backup=backup)
    return kept.text, ngettext(
        "{name} could not be saved in place and was written whole: {n} comment kept where it was "
        "(the previous version is {backup})",
        "{name} could not be saved in place and was written whole: {n} comments kept where they were "
        "(the previous version is {backup})", kept.kept).format(name=name, n=kept.kept, backup=backup)


def _render(campaign: Campaign, path: str | Path, base: FileState | None,
            preserve: bool) -> tuple[str, dict[str, Any], str]:
    data = campaign_data(campaign)
    if not preserve:
        return dump_campaign(campaign), data, ""
    text, source = _patched(data, path, base)
    if text is not None:
        return text, data, ""
    text, notice = _whole(campaign, path, source, base.data if base is not None and base.text == source else None)
    return text, data, notice


def render_campaign(campaign: Campaign, path: str | Path, *, base: FileState | None = None,
                    preserve: bool = True) -> tuple[str, dict[str, Any]]:
    """The text a save writes (see `save_campaign`) and the data it holds; writes nothing."""
    text, data, _notice = _render(campaign, path, base, preserve)
    return text, data


def save_campaign(campaign: Campaign, path: str | Path, *, base: FileState | None = None, preserve: bool = True,
                  before_replace: Callable[[], None] | None = None, follow: bool = True) -> FileState:
    """Atomic save of the state file, the previous version kept as `X.toml.bak`.

    With `preserve`, the file keeps the GM's text (comments, order, layout) and only the
    values that changed are rewritten: from `base` (what the file held when this process
    last read or wrote it), else from the file on disk. When that cannot be done faithfully
    the file is written whole, every comment of the old text put back in it, and the
    returned state's `notice` says so. `before_replace`, `follow`: see `write_atomic`. Returns
    what the file now holds. Raises CampaignError when the campaign cannot be written (a value TOML
    cannot hold, or the folder is not writable).
    """
    text, data, notice = _render(campaign, path, base, preserve)
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CampaignError([Problem(str(path), "", _("text that is not valid Unicode ({reason}): not saved").format(
            reason=exc.reason))]) from None
    try:
        written = write_atomic(path, raw, before_replace=before_replace, follow=follow)
    except OSError as exc:
        raise CampaignError([Problem(str(path), "", _("cannot save: {reason}").format(
            reason=os_reason(exc)))]) from None
    return FileState(Stamp(signature_of(written), digest_of(raw)), text, data,
                     base.cache if base is not None else {}, notice)


def remove_stale_temps(path: str | Path) -> list[Path]:
    """Delete temporary files that a killed save of this campaign left behind.

    Only call it holding the campaign's lock: then no save of it can be under way.
    """
    path = real_path(path)
    pattern = re.compile(rf"\.{re.escape(path.name)}(?:\.bak)?\.\d+\.[0-9a-f]+\.tmp\Z")
    removed: list[Path] = []
    try:
        names = os.listdir(path.parent)
    except OSError:
        return removed
    for name in names:
        if pattern.match(name):
            with contextlib.suppress(OSError):
                os.unlink(path.parent / name)
                removed.append(path.parent / name)
    return removed


def create_campaign_file(campaign: Campaign, path: str | Path) -> None:
    """Write a new campaign file; FileExistsError (nothing written) when `path` exists."""
    data = dump_campaign(campaign).encode("utf-8")
    write_atomic(path, data, backup=False, exclusive=True)
