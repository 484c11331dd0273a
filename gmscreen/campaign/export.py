"""The campaign as a Markdown document: its notes, then the roll log session by session.

Meant to be shared with the table, so GM-only rolls (and secret difficulties) stay masked
unless they were revealed. Everything typed by people (names, notes, command lines) is
escaped: it shows literally, it never becomes Markdown formatting or HTML, and a control
character (ESC, BEL, C1...) shows as `\x1b`, never reaching the terminal that prints it.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any, Iterable, Mapping

from .model import Campaign, RollRecord
from .rolllog import masked
from .textsafe import escape_controls

LEGEND = ("Dés : **7** compté, **12!** critique, _1_ maladresse, ~~3~~ relancé, 10↑ explosé (relancé et ajouté), "
          "[5] gardé.")

_INLINE = re.compile(r"([\\`*_\[\]<>|~&])")
_LINE_START = re.compile(r"^([#+=-]|\d+[.)])")
_CLOSING_HASHES = re.compile(r"(^|\s)(#+)\s*$")


def escape_inline(text: str) -> str:
    """Literal text inside a line or a table cell: no emphasis, links, HTML, cell breaks."""
    text = " ".join(str(text).replace("\r\n", "\n").split("\n"))      # a lone CR shows as \r
    return escape_controls(_INLINE.sub(r"\\\1", text), newlines=False)


def escape_heading(text: str) -> str:
    """Literal text of a heading: inline escapes, and a trailing `#` run kept as text (it
    would otherwise close the heading and vanish)."""
    return _CLOSING_HASHES.sub(r"\1\\\2", escape_inline(text))


def escape_block(text: str) -> str:
    """Literal multi-line text: each line kept as typed (hard line breaks), blank lines kept."""
    out: list[str] = []
    for raw in text.strip("\n").split("\n"):
        line = raw.rstrip()
        if not line.strip():
            out.append("")
            continue
        stripped = line.lstrip(" \t")
        indent = "\u00a0" * (len(line) - len(stripped))      # no accidental code block
        body = escape_controls(_INLINE.sub(r"\\\1", stripped), newlines=False)
        m = _LINE_START.match(body)
        if m:
            marker = m.group(1)
            body = (marker[:-1] + "\\" + marker[-1] if marker[0].isdigit() else "\\" + marker) + body[len(marker):]
        out.append(indent + body)
    # A backslash at the end of a line is a hard line break, inside a paragraph only.
    for i in range(len(out) - 1):
        if out[i] and out[i + 1]:
            out[i] += "\\"
    return "\n".join(out)


class _Nullable(dict):
    """A result whose dropped keys read as None again ("or null" fields are not written)."""

    def __missing__(self, key: str) -> None:
        return None


_FACE = {
    "counted": "**{}**",
    "critical": "**{}!**",
    "fumble": "_{}_",
    "rerolled": "~~{}~~",
    "exploded": "{}↑",
    "kept": "[{}]",
}


def _faces(dice: Iterable[Any]) -> str:
    return " ".join(_FACE.get(d.status, "{}").format(escape_inline(str(d.face))) for d in dice)


def _system(system_id: str) -> Any:
    from ..rules import get_system

    try:
        return get_system(system_id)
    except Exception:   # a system module missing or broken must not stop the export
        return None


def _describe(system: Any, result: Mapping[str, Any]) -> tuple[str, str, str, bool]:
    """(headline, detail, dice, described) for one result, via the system's `describe`."""
    if system is not None and system.describe is not None:
        try:
            d = system.describe(_Nullable(result))
        except Exception:   # an entry edited by hand or from an older gmscreen: plain fallback below
            d = None
        if d is not None:
            groups = [g for g in d.groups if g.dice]
            if len(groups) == 1 and groups[0].label in ("dés", "dé"):
                dice = _faces(groups[0].dice)
            else:
                dice = " · ".join(f"{escape_inline(g.label)} : {_faces(g.dice)}" for g in groups)
            return d.headline, d.detail, dice, True
    words = dict(system.outcome_words) if system is not None else {}
    outcome = result.get("outcome", result.get("winner", ""))
    headline = words.get(str(outcome), str(outcome)) if outcome != "" else "?"
    dice_parts = []
    for key, value in result.items():
        if key.endswith(("dice", "rolls")) and isinstance(value, list) and value:
            flat = value if all(isinstance(v, int) for v in value) else [f for sub in value if isinstance(sub, list)
                                                                           for f in sub]
            dice_parts.append(f"{escape_inline(key)} : " + " ".join(escape_inline(str(f)) for f in flat))
    return headline, "", " · ".join(dice_parts), False


def _clock(iso: str) -> tuple[str, str]:
    """('2025-03-01', '21:04') from an ISO time; the raw text when it does not parse."""
    try:
        t = _dt.datetime.fromisoformat(iso)
    except ValueError:
        return "", iso
    return t.date().isoformat(), t.strftime("%H:%M")


def _row(rec: RollRecord, system: Any, reveal_all: bool) -> str:
    date, clock = _clock(rec.time)
    hide = masked(rec) and not reveal_all
    if hide and rec.gm_only:
        cells = [str(rec.seq), escape_inline(clock), "—", "*jet secret du MJ*", "—", "—"]
        return "| " + " | ".join(cells) + " |"
    headline, detail, dice, _ = _describe(system, rec.result)
    outcome = f"**{escape_inline(headline)}**"
    line = escape_inline(rec.line)
    if hide:        # secret difficulty: the outcome shows, what was needed does not
        line = "*difficulté secrète*"
        detail = ""
    if detail:
        outcome += " — " + escape_inline(detail)
    if rec.gm_only:
        outcome += " *(jet secret du MJ, révélé)*" if rec.revealed else " *(jet secret du MJ)*"
    elif rec.result.get("hidden"):
        outcome += " *(difficulté secrète, révélée)*" if rec.revealed else " *(difficulté secrète)*"
    cells = [str(rec.seq), escape_inline(clock), escape_inline(rec.who) or "—", line or "—", dice or "—", outcome]
    return "| " + " | ".join(cells) + " |"


def _session_dates(rolls: list[RollRecord]) -> str:
    dates = sorted({d for d, _ in (_clock(r.time) for r in rolls) if d})
    if not dates:
        return ""
    return dates[0] if len(dates) == 1 else f"{dates[0]} → {dates[-1]}"


def export_markdown(campaign: Campaign, rolls: list[RollRecord], *, reveal_all: bool = False) -> str:
    """The whole document. `reveal_all` shows GM-only rolls too (a copy for the GM)."""
    system = _system(campaign.system)
    game = system.game if system is not None else campaign.system
    out = [f"# {escape_heading(campaign.name)}", ""]
    counted = f"{len(rolls)} jet{'s' if len(rolls) != 1 else ''}"
    out += [f"{escape_inline(game)} (`{escape_inline(campaign.system)}`) · session en cours : {campaign.session} · "
            f"{counted}", ""]
    with_notes = [ch for ch in campaign.characters if ch.notes.strip()]
    if campaign.notes.strip() or with_notes:
        out += ["## Notes", ""]
        if campaign.notes.strip():
            out += [escape_block(campaign.notes), ""]
        for ch in with_notes:
            out += [f"### {escape_heading(ch.name)}", "", escape_block(ch.notes), ""]
    out += ["## Journal des jets", ""]
    if not rolls:
        out += ["Aucun jet enregistré.", ""]
        return _document(out)
    out += [LEGEND, ""]
    sessions: dict[int, list[RollRecord]] = {}
    for rec in rolls:
        sessions.setdefault(rec.session, []).append(rec)
    for number in sorted(sessions):
        recs = sorted(sessions[number], key=lambda r: r.seq)
        dates = _session_dates(recs)
        title = f"### Session {number}" + (f" — {dates}" if dates else "")
        out += [title, "", "| # | Heure | Qui | Jet | Dés | Résultat |", "|---:|---|---|---|---|---|"]
        out += [_row(rec, system, reveal_all) for rec in recs]
        out.append("")
    return _document(out)


def _document(lines: list[str]) -> str:
    """The lines joined; any control character that slipped past the escapes above (a
    system's own words, a describe() fed a hand-edited result) still shows escaped."""
    return escape_controls("\n".join(lines))
