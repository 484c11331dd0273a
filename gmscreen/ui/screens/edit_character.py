"""The character form: every field of the system's sheet, checked against its ranges.

The form never touches the campaign: it dismisses with the new character data (name,
side, gender, notes, sheet) once every value is valid, and the roster applies it as one
undoable change. Errors are listed in the form and the fields at fault are marked, so
the GM fixes them without losing what was typed.
"""

from __future__ import annotations

from typing import Any, Mapping

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Select, Static, TextArea

from gmscreen.campaign.model import Character
from gmscreen.i18n import N_, _
from gmscreen.i18n.typography import Name, minus
from gmscreen.play.quickroll.text import fold as fold_text
from gmscreen.rules import Stat, StatGroup, System

from ..sanitize import clean, literal
from .roster_dialogs import FormScreen, parse_int

MAX_NAME = 64          # free stat names (campaign.validate)
MAX_TEXT = 10_000
NO_GENDER = "-"        # the gender Select's value for "not said" (a Select value cannot be None)


def fold(text: str) -> str:
    """Names the GM types, matched as everywhere else (surrounding spaces ignored)."""
    return fold_text(text.strip())


def hint(stat: Stat) -> str:
    if stat.choices:
        return "/".join(str(c) for c in stat.choices)
    return f"{minus(stat.lo)}…{minus(stat.hi)}"


def free_lines(group: StatGroup, values: Any) -> str:
    """The text of a free group: 'Nom = 3' per line, 'Parent : Nom = 3' when nested (the
    syntax the form reads back, the same in every language)."""
    if not isinstance(values, Mapping):
        return ""
    lines: list[str] = []
    for name, value in values.items():
        if group.parent_group:
            if isinstance(value, Mapping):
                lines.extend(f"{name} : {sub} = {v}" for sub, v in value.items())
        else:
            lines.append(f"{name} = {value}")
    return "\n".join(lines)


class EditCharacterScreen(FormScreen[dict | None]):
    """Dismisses with {"name", "side", "gender", "notes", "sheet"} when saved, None when cancelled."""

    DEFAULT_CSS = """
    EditCharacterScreen { align: center middle; }
    EditCharacterScreen > #dialog {
        width: 80;
        max-width: 100%;
        height: 100%;
        border: round $accent;
        background: $surface;
    }
    EditCharacterScreen #dialog-title { text-style: bold; padding: 0 1; }
    EditCharacterScreen #form { height: 1fr; padding: 0 1; }
    EditCharacterScreen .group-title { text-style: bold underline; margin-top: 1; }
    EditCharacterScreen .sub-title { color: $text-muted; }
    EditCharacterScreen .field-label { color: $text-muted; margin-top: 1; }
    EditCharacterScreen .stat-row { height: 1; }
    EditCharacterScreen .stat-label { width: 28; }
    EditCharacterScreen .stat-row Input { width: 10; }
    EditCharacterScreen .stat-hint { color: $text-muted; width: auto; margin-left: 1; }
    EditCharacterScreen TextArea { height: 5; }
    EditCharacterScreen #f-side { width: 24; }
    EditCharacterScreen #f-gender { width: 24; }
    EditCharacterScreen #form-errors { color: $error; height: auto; max-height: 6; padding: 0 1; }
    EditCharacterScreen #dialog-buttons { height: auto; align-horizontal: right; }
    EditCharacterScreen #dialog-buttons Button { margin-left: 1; min-width: 12; }
    """
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel"), id="edit.cancel"),
        Binding("ctrl+s", "submit", N_("Save"), id="edit.save"),
    ]
    SUBMIT_BUTTON = "save"

    def __init__(self, system: System, character: Character | None, *, title: str = "",
                 side: str = "party") -> None:
        super().__init__(title or (_("Edit {name}").format(name=Name(clean(character.name))) if character
                                   else _("New character")))
        self.system = system
        self.character = character
        self.side = character.side if character else side
        self.sheet: Mapping[str, Any] = character.sheet if character and isinstance(character.sheet, Mapping) else {}
        # Text from the file is shown neutralised (an ESC in a field would reach the terminal);
        # a value left as shown keeps its original characters when saved.
        self._shown: dict[str, str] = {}
        self._typing_in: Input | TextArea | None = None     # the field last typed in (see on_key)

    def _show(self, text: str, *, single_line: bool = True) -> str:
        shown = clean(text, single_line=single_line)
        if shown != text:
            self._shown[shown.strip() if single_line else shown] = text.strip() if single_line else text
        return shown

    # ------------------------------------------------------------ layout

    def body(self) -> ComposeResult:
        ch = self.character
        with VerticalScroll(id="form", can_focus=False):     # tab goes field to field
            yield Static(_("Name"), classes="field-label", markup=False)
            yield Input(self._show(ch.name) if ch else "", id="f-name", compact=True,
                        placeholder=_("the character's name"))
            yield Static(_("Side"), classes="field-label", markup=False)
            yield Select([(_("PC (party)"), "party"), (_("NPC"), "npc")], value=self.side, allow_blank=False,
                         id="f-side", compact=True)
            yield Static(_("Gender (for the game's gendered labels)"), classes="field-label", markup=False)
            gender = ch.gender if ch is not None and ch.gender in ("f", "m") else NO_GENDER
            yield Select([(_("not said"), NO_GENDER), (_("woman"), "f"), (_("man"), "m")], value=gender,
                         allow_blank=False, id="f-gender", compact=True)
            for group in self.system.sheet:
                yield from self._group_fields(group)
            yield Static(_("Notes"), classes="field-label", markup=False)
            yield TextArea(self._show(ch.notes, single_line=False) if ch else "", id="f-notes", soft_wrap=True, tab_behavior="focus")
        yield Static("", id="form-errors", markup=False)
        with Horizontal(id="dialog-buttons"):
            yield Button(_("Cancel"), id="cancel")
            yield Button(_("Save (ctrl+s)"), id="save", variant="primary")

    def _group_fields(self, group: StatGroup) -> ComposeResult:
        yield Static(group.label, classes="group-title", markup=False)
        values = self.sheet.get(group.key)
        if group.stats:
            parent = object()
            for stat in group.stats:
                if stat.parent != parent and stat.parent is not None:
                    parent = stat.parent
                    label = self._stat_label(stat.parent)
                    yield Static(label, classes="sub-title", markup=False)
                value = values[stat.key] if isinstance(values, Mapping) and stat.key in values else stat.default
                with Horizontal(classes="stat-row"):
                    yield Static(stat.label, classes="stat-label", markup=False)
                    yield Input(str(value), id=f"stat-{group.key}-{stat.key}", compact=True)
                    yield Static(hint(stat), classes="stat-hint", markup=False)
        else:
            free = group.free
            rng = hint(free) if free else ""
            if group.parent_group:
                parent_group = self.system.group(group.parent_group)
                example = (parent_group.stats[0].key if parent_group and parent_group.stats else _("Statistic"))
                text = _("one {what} per line: {example} : Name = value ({range})").format(
                    what=free.label.lower() if free else _("value"), example=example, range=rng)
            else:
                text = _("one {what} per line: Name = value ({range})").format(
                    what=free.label.lower() if free else _("value"), range=rng)
            yield Static(text, classes="sub-title", markup=False)
            if isinstance(values, Mapping):
                for name, value in values.items():
                    self._show(str(name))
                    for sub in (value if isinstance(value, Mapping) else ()):
                        self._show(str(sub))
            yield TextArea(clean(free_lines(group, values), single_line=False), id=f"group-{group.key}", soft_wrap=False, tab_behavior="focus")

    def _stat_label(self, key: str) -> str:
        for g in self.system.sheet:
            for s in g.stats:
                if s.key == key:
                    return s.label
        return key

    def on_mount(self) -> None:
        self.query_one("#f-name", Input).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if isinstance(event.widget, (Input, TextArea)):
            self._typing_in = event.widget

    def on_key(self, event: events.Key) -> None:
        """A key typed while a button has the focus (a Tab left the notes unseen) goes on into
        the field last typed in: Space types a space, it never presses Save or Cancel. A button
        is pressed by Enter, once the GM has gone to it."""
        field = self._typing_in
        if (isinstance(self.focused, Button) and event.is_printable and event.character
                and field is not None and field.is_attached):
            event.stop()
            event.prevent_default()
            field.focus()
            if isinstance(field, TextArea):
                field.insert(event.character)
            else:
                field.insert_text_at_cursor(event.character)

    # ------------------------------------------------------------ checking

    def collect(self) -> tuple[dict | None, list[tuple[str, str]]]:
        """The character data, or None and the errors as (widget id, message)."""
        errors: list[tuple[str, str]] = []
        name = self.query_one("#f-name", Input).value.strip()
        name = self._shown.get(name, name)
        if not name:
            errors.append(("f-name", _("{what}: cannot be empty").format(what=_("Name"))))
        elif len(name) > 200:
            errors.append(("f-name", _("{what}: {n} characters at most").format(what=_("Name"), n=200)))
        side = self.query_one("#f-side", Select).value
        if side not in ("party", "npc"):
            side = self.side
        gender = self.query_one("#f-gender", Select).value
        gender = gender if gender in ("f", "m") else None
        notes = self.query_one("#f-notes", TextArea).text
        notes = self._shown.get(notes, notes)
        if len(notes) > MAX_TEXT:
            errors.append(("f-notes", _("{what}: {n} characters at most").format(what=_("Notes"), n=MAX_TEXT)))
        sheet: dict[str, Any] = {}
        for group in self.system.sheet:
            if group.stats:
                out = self._fixed(group, errors)
            else:
                out = self._free(group, sheet, errors)
            if out or (group.required and group.stats) or group.key in self.sheet:
                sheet[group.key] = out
        if errors:
            return None, errors
        return {"name": name, "side": side, "gender": gender, "notes": notes.rstrip("\n"), "sheet": sheet}, []

    def _fixed(self, group: StatGroup, errors: list[tuple[str, str]]) -> dict[str, int]:
        original = self.sheet.get(group.key)
        original = original if isinstance(original, Mapping) else {}
        out: dict[str, int] = {}
        for stat in group.stats:
            wid = f"stat-{group.key}-{stat.key}"
            text = self.query_one(f"#{wid}", Input).value
            value = parse_int(text)
            if value is None or not stat.allows(value):
                shown = text.strip() or _("empty")
                errors.append((wid, _("{what}: expected {expected}, not {text}").format(
                    what=f"{group.label} · {stat.label}", expected=self._expected(stat), text=shown)))
                continue
            if group.required or stat.key in original or value != stat.default:
                out[stat.key] = value
        return out

    @staticmethod
    def _expected(stat: Stat) -> str:
        if stat.choices:
            return _("one of the values {values}").format(values=", ".join(str(c) for c in stat.choices))
        return _("a whole number from {lo} to {hi}").format(lo=minus(stat.lo), hi=minus(stat.hi))

    def _free(self, group: StatGroup, sheet: dict[str, Any], errors: list[tuple[str, str]]) -> dict[str, Any]:
        wid = f"group-{group.key}"
        text = self.query_one(f"#{wid}", TextArea).text
        stat = group.free or Stat("", _("value"), 0, 0)
        parents: dict[str, str] = {}
        if group.parent_group:
            pgroup = self.system.group(group.parent_group)
            if pgroup is not None and pgroup.stats:
                for s in pgroup.stats:
                    parents[fold(s.key)] = s.key
                    parents[fold(s.label)] = s.key
            else:
                for key in sheet.get(group.parent_group, {}):
                    parents[fold(key)] = key
        out: dict[str, Any] = {}
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            where = _("{group}, line {n}").format(group=group.label, n=n)
            if "=" not in line:
                errors.append((wid, _("{where}: expected « Name = value », not {text}").format(
                    where=where, text=repr(clean(line)))))
                continue
            left, _eq, right = line.rpartition("=")
            target = out
            if group.parent_group:
                if ":" not in left:
                    known = ", ".join(sorted(set(parents.values()))) or _("none")
                    errors.append((wid, _("{where}: expected « Parent : Name = value » (parents: {known})").format(
                        where=where, known=known)))
                    continue
                pname, _colon, left = left.partition(":")
                pkey = parents.get(fold(pname))
                if pkey is None:
                    known = ", ".join(sorted(set(parents.values()))) or _("none")
                    errors.append((wid, _("{where}: {name} is not among: {known}").format(
                        where=where, name=repr(clean(pname.strip())), known=known)))
                    continue
                target = out.setdefault(pkey, {})
            name = left.strip()
            name = self._shown.get(name, name)
            if not name or len(name) > MAX_NAME:
                errors.append((wid, _("{where}: a name of 1 to {n} characters").format(where=where, n=MAX_NAME)))
                continue
            if name in target:
                errors.append((wid, _("{where}: {name} appears twice").format(where=where, name=repr(clean(name)))))
                continue
            value = parse_int(right)
            if value is None or not stat.allows(value):
                errors.append((wid, _("{where}: {name} expects {expected}, not {text}").format(
                    where=where, name=clean(name), expected=self._expected(stat), text=clean(right.strip()))))
                continue
            target[name] = value
        return out

    # ------------------------------------------------------------ actions

    def action_submit(self) -> None:
        data, errors = self.collect()
        bad = {wid for wid, _ in errors}
        for widget in self.query("Input, TextArea"):
            if widget.id:
                widget.set_class(widget.id in bad, "-invalid")
        if data is None:
            shown = [m for _, m in errors[:5]]
            if len(errors) > 5:
                shown.append(_("… and {n} more").format(n=len(errors) - 5))
            self.query_one("#form-errors", Static).update(literal("\n".join(shown), single_line=False))
            first = errors[0][0]
            self.query_one(f"#{first}").focus()
            return
        self.dismiss(data)
