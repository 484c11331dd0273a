"""The campaign as a Markdown document: its notes, then the roll log session by session, in the
language spoken (`gmscreen export --lang en`: English headings, table header, legend and results;
what people typed and the game's own words as written).

Meant to be shared with the table, so GM-only rolls (and secret difficulties) stay masked
unless they were revealed. Everything typed by people (names, notes, command lines) is
escaped: it shows literally, it never becomes Markdown formatting or HTML, and a control
character (ESC, BEL, C1...) shows as `\x1b`, never reaching the terminal that prints it.
"""

from __future__ import annotations

import datetime as _dt
import re
import tempfile
from array import array
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..i18n import N_, _, ngettext, pgettext
from ..rules._base import Description, DiceGroup, Die
from ..rules.render import DescriptionRenderer, describe
from .model import Campaign, RollRecord
from .rolllog import masked
from .textsafe import escape_controls

_INLINE = re.compile(r"([\\`*_\[\]<>|~&])")
_LINE_START = re.compile(r"^([#+=-]|\d+[.)])")
_CLOSING_HASHES = re.compile(r"(^|\s)(#+)\s*$")


def escape_inline(text: str) -> str:
    """Literal text inside a line or a table cell: no emphasis, links, HTML, cell breaks."""
    text = " ".join(str(text).replace("\r\n", "\n").split("\n"))      # a lone CR shows as \r
    if _INLINE.search(text):        # (most cells have nothing to escape: the search alone is C-fast)
        text = _INLINE.sub(_backslashed, text)
    return escape_controls(text, newlines=False)


def _backslashed(m: re.Match) -> str:
    # A function, not the template r"\\\1": Python 3.11 expands a template in Python code at each match.
    return "\\" + m.group(1)


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


class MarkdownRenderer(DescriptionRenderer[str]):
    """The export's variant of the one result renderer (`gmscreen.rules.render`): faces marked by
    status (the legend says how), groups named, every word escaped so that it shows literally
    (no emphasis, link, HTML or control character)."""

    FACES = {
        "counted": "**{}**",
        "critical": "**{}!**",
        "fumble": "_{}_",
        "rerolled": "~~{}~~",
        "exploded": "{}↑",
        "kept": "[{}]",
    }
    # The legend under the log's heading (said with `_` where it is written: the language may change).
    LEGEND = N_("Dice: **7** counted, **12!** critical, _1_ fumble, ~~3~~ rerolled, 10↑ exploded (rolled again "
                "and added), [5] kept.")
    group_separator = " · "

    def text(self, text: str, role: str = "") -> str:
        return escape_inline(text)

    def die(self, die: Die) -> str:
        return self.FACES.get(die.status, "{}").format(self.text(str(die.face)))

    def group(self, group: DiceGroup) -> str:
        if not group.label:
            return self.dice(group)
        return _("{label}: {dice}").format(label=self.text(group.label), dice=self.dice(group))

    def total(self, group: DiceGroup) -> str:
        return ""

    def shows(self, group: DiceGroup) -> bool:
        return bool(group.dice)

    def groups(self, groups: Sequence[DiceGroup]) -> str:
        shown = [g for g in groups if self.shows(g)]
        plain = {"dés", "dé", pgettext("dice group", "dice")}
        if len(shown) == 1 and shown[0].label in plain:     # the only dice: no need to name them
            return self.dice(shown[0])
        return super().groups(shown)

    def headline(self, desc: Description) -> str:
        return f"**{self.text(desc.headline)}**"


def _system(system_id: str) -> Any:
    from ..rules import get_system

    try:
        return get_system(system_id)
    except Exception:   # a system module missing or broken must not stop the export
        return None


MARKDOWN = MarkdownRenderer()


def _describe(system: Any, result: Mapping[str, Any]) -> tuple[str, str, str]:
    """(headline, detail, dice) of one result as Markdown: the system's description when it
    gives one, else the bare outcome and the raw dice lists of the record."""
    d = describe(system, result)
    if d is not None:
        detail = MARKDOWN.detail(d) if d.detail else ""
        return MARKDOWN.headline(d), detail, MARKDOWN.groups(d.groups)
    words = dict(system.outcome_words) if system is not None else {}
    outcome = result.get("outcome", result.get("winner", ""))
    headline = _(words.get(str(outcome)) or str(outcome)) if outcome != "" else "?"
    dice_parts = []
    for key, value in result.items():
        if key.endswith(("dice", "rolls")) and isinstance(value, list) and value:
            flat = value if all(isinstance(v, int) for v in value) else [f for sub in value if isinstance(sub, list)
                                                                           for f in sub]
            dice_parts.append(_("{label}: {dice}").format(label=escape_inline(key),
                                                          dice=" ".join(escape_inline(str(f)) for f in flat)))
    return f"**{escape_inline(headline)}**", "", " · ".join(dice_parts)


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
        cells = [str(rec.seq), escape_inline(clock), "—", f"*{_('secret GM roll')}*", "—", "—"]
        return "| " + " | ".join(cells) + " |"
    outcome, detail, dice = _describe(system, rec.result)
    line = escape_inline(rec.line)
    if hide:        # secret difficulty: the outcome shows, what was needed does not
        line = f"*{_('secret difficulty')}*"
        detail = ""
    if detail:
        outcome += " — " + detail
    if rec.gm_only:
        outcome += f" *({_('secret GM roll, revealed') if rec.revealed else _('secret GM roll')})*"
    elif rec.result.get("hidden"):
        outcome += f" *({_('secret difficulty, revealed') if rec.revealed else _('secret difficulty')})*"
    cells = [str(rec.seq), escape_inline(clock), escape_inline(rec.who) or "—", line or "—", dice or "—", outcome]
    return "| " + " | ".join(cells) + " |"


def export_markdown(campaign: Campaign, rolls: Iterable[RollRecord], *, reveal_all: bool = False) -> str:
    """The whole document, in the language spoken. `reveal_all` shows GM-only rolls too (a copy
    for the GM)."""
    return "".join(markdown_pieces(campaign, rolls, reveal_all=reveal_all))


def markdown_pieces(campaign: Campaign, rolls: Iterable[RollRecord], *, reveal_all: bool = False,
                    revealed: Callable[[int], bool] | None = None) -> Iterator[str]:
    """The document of `export_markdown`, in pieces, from rolls read one at a time (a log of a
    million rolls is never in memory: `rollstream`). A roll shows as revealed when its record
    says so or when `revealed(seq)` does, asked once every roll was read (a `[[reveal]]` comes
    after its roll). The rows are written to a temporary file as the rolls come, both ways for a
    roll still secret; what stays in memory is four numbers a roll, to put them in order."""
    system = _system(campaign.system)
    rows = _Rows(system)
    try:
        for rec in rolls:
            rows.add(rec, reveal_all)
        yield from _pieces(campaign, system, rows, revealed or (lambda seq: False))
    finally:
        rows.close()


class _Rows:
    """The table rows of the rolls read so far, in a temporary file, with their session, number
    and lengths (arrays: 24 bytes a roll), and each session's first and last date."""

    def __init__(self, system: Any) -> None:
        self.system = system
        self.file = tempfile.TemporaryFile()
        self.sessions = array("q")
        self.seqs = array("q")
        self.first = array("i")             # bytes of the row as it shows now
        self.second = array("i")            # bytes of the row once revealed (0: the same row)
        self.dates: dict[int, list[str]] = {}
        self.in_order = True                # by session then number, as our writer appends them

    def add(self, rec: RollRecord, reveal_all: bool) -> None:
        if self.seqs and (rec.session, rec.seq) < (self.sessions[-1], self.seqs[-1]):
            self.in_order = False
        self.sessions.append(rec.session)
        self.seqs.append(rec.seq)
        row = _row(rec, self.system, reveal_all).encode("utf-8")
        self.file.write(row)
        self.first.append(len(row))
        secret = (rec.gm_only or bool(rec.result.get("hidden"))) and not rec.revealed
        if secret:
            rec.revealed = True
            shown = _row(rec, self.system, reveal_all).encode("utf-8")
            rec.revealed = False
            self.file.write(shown)
            self.second.append(len(shown))
        else:
            self.second.append(0)
        date = _clock(rec.time)[0]
        if date:
            span = self.dates.setdefault(rec.session, [date, date])
            span[0], span[1] = min(span[0], date), max(span[1], date)

    def __len__(self) -> int:
        return len(self.seqs)

    def close(self) -> None:
        self.file.close()

    def ordered(self) -> Iterator[tuple[int, int, bytes, bytes | None]]:
        """(session, seq, row, row once revealed or None) by session, then number (ties in the
        order of the log), read back from the file."""
        self.file.seek(0)
        if self.in_order:
            read = self.file.read
            for k in range(len(self.seqs)):
                row = read(self.first[k])
                yield self.sessions[k], self.seqs[k], row, read(self.second[k]) if self.second[k] else None
            return
        offsets = array("q", [0])
        for k in range(len(self.seqs)):
            offsets.append(offsets[-1] + self.first[k] + self.second[k])
        for k in sorted(range(len(self.seqs)), key=lambda k: (self.sessions[k], self.seqs[k])):
            self.file.seek(offsets[k])
            row = self.file.read(self.first[k])
            yield self.sessions[k], self.seqs[k], row, self.file.read(self.second[k]) if self.second[k] else None


def _pieces(campaign: Campaign, system: Any, rows: _Rows, revealed: Callable[[int], bool]) -> Iterator[str]:
    """The lines of the document, each escaped (`_document`), joined by newlines."""
    game = system.game if system is not None else campaign.system
    out = [f"# {escape_heading(campaign.name)}", ""]
    counted = ngettext("{n} roll", "{n} rolls", len(rows)).format(n=len(rows))
    out += [_("{game} ({id}) · current session: {session} · {rolls}").format(
        game=escape_inline(game), id=f"`{escape_inline(campaign.system)}`", session=campaign.session, rolls=counted), ""]
    with_notes = [ch for ch in campaign.characters if ch.notes.strip()]
    if campaign.notes.strip() or with_notes:
        out += ["## " + pgettext("export heading", "Notes"), ""]
        if campaign.notes.strip():
            out += [escape_block(campaign.notes), ""]
        for ch in with_notes:
            out += [f"### {escape_heading(ch.name)}", "", escape_block(ch.notes), ""]
    out += ["## " + pgettext("export heading", "Roll log"), ""]
    if not len(rows):
        out += [_("No roll recorded."), ""]
        yield _document(out)
        return
    out += [_(MARKDOWN.LEGEND), ""]
    yield _document(out)
    header = [pgettext("export column", "Time"), pgettext("export column", "Who"),
              pgettext("export column", "Roll"), pgettext("export column", "Dice"),
              pgettext("export column", "Result")]
    current = None
    for session, seq, row, once_revealed in rows.ordered():
        if session != current:
            if current is not None:
                yield "\n"
            current = session
            dates = rows.dates.get(session)
            span = "" if dates is None else dates[0] if dates[0] == dates[1] else f"{dates[0]} → {dates[1]}"
            title = "### " + pgettext("export heading", "Session {number}").format(number=session) + (
                f" — {span}" if span else "")
            yield "\n" + _document([title, "", "| # | " + " | ".join(header) + " |", "|---:|---|---|---|---|---|"])
        shown = once_revealed if once_revealed is not None and revealed(seq) else row
        yield "\n" + _document([shown.decode("utf-8")])
    yield "\n"


def _document(lines: list[str]) -> str:
    """The lines joined; any control character that slipped past the escapes above (a
    system's own words, a describe() fed a hand-edited result) still shows escaped."""
    return escape_controls("\n".join(lines))
