"""The initiative / action queue (`#initiative`): turn order, rounds, conditions, timers.

One table holds the turn order and, below it, the campaign's timers (extended tests,
extended oppositions, countdowns), because the GM advances both together: a new round
ticks countdowns, the end of a bearer's turn ticks their conditions. Each step is one
undoable change; rolls (initiative, the next interval of an extended test) are logged.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widget import Widget
from textual.widgets import DataTable, Static

from gmscreen import rules
from gmscreen.campaign.model import Declaration, Entry, Timer
from ..encounter import add_to_encounter, roll_initiative, slugify, unique_slug
from ..host import CampaignView
from ..sanitize import clean, literal, literal_text
from .sheet import condition_line, conditions_text


def _dialogs() -> Any:
    """The small dialogs, imported on first use (they pull in TextArea and friends)."""
    from ..screens import roster_dialogs

    return roster_dialogs


if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign
    from gmscreen.campaign.session import CampaignSession, EditBuilder

NAME_WIDTH = 24           # longer names and labels are cut in the table; the detail line has them
ARPEGES_STEP = 3          # R12: −3 to every simultaneous action per extra action
INTERVAL_WORDS = {"tour": "1 tour", "heure": "1 heure", "jour": "1 jour", "semaine": "1 semaine"}
STATUS_WORDS = {"running": "en cours", "success": "réussi", "failure": "échoué", "done": "terminé",
                "actor": "gagné", "opponent": "perdu", "tie": "égalité"}


def simultaneous_actions(campaign: Campaign, character_id: str) -> int:
    """Actions the character declared for this round (≥ 1): Arpèges R12 takes −3 per extra one."""
    entries = {e.id for e in campaign.encounter.entries if e.character == character_id}
    for decl in campaign.encounter.declared:
        if decl.entry in entries:
            return max(1, len(decl.actions))
    return 1


# ---------------------------------------------------------------- timers


def timer_result(timer: Timer) -> dict | None:
    """What the rules say of a test timer's dice so far (None for countdowns or a broken timer)."""
    if timer.kind == "countdown":
        return None
    try:
        kind = rules.get_system(timer.request.get("system", "")).kinds[timer.request.get("kind", "")]
        forced = {name: [] for name in kind.dice_fields}
        forced.update(timer.dice)
        return rules.resolve({**timer.request, **forced})
    except (rules.RequestError, KeyError, TypeError, ValueError):
        return None


def _name_of(campaign: Campaign, ref: str | None) -> str:
    if ref is None:
        return "?"
    ch = campaign.character(ref)
    return ch.name if ch is not None else ref


def timer_progress(campaign: Campaign, timer: Timer) -> str:
    """'6/8 · test 2/3 · 1 jour', 'Granok 2 – 1 le gros Bob · en 3', '3 rounds' (plain, cleaned)."""
    if timer.kind == "countdown":
        if timer.status == "done" or not timer.rounds:
            return "terminé"
        return f"{timer.rounds} round{'s' if timer.rounds != 1 else ''}"
    result = timer_result(timer)
    if result is None:
        return "test illisible (voir le fichier)"
    if timer.kind == "extended":
        cap = result.get("max_tests", 0)
        parts = [f"{result['total_successes']}/{result['threshold']}",
                 f"test {result['tests']}/{cap}" if cap else f"test {result['tests']}"]
        interval = INTERVAL_WORDS.get(result.get("interval", ""))
        if interval:
            parts.append(interval)
        if result["outcome"] == "failure":
            parts.append("0 succès" if result["failure_reason"] == "no_success" else "tests épuisés")
        return " · ".join(parts)
    actor, opponent = clean(_name_of(campaign, timer.who)), clean(_name_of(campaign, timer.opponent))
    return (f"{actor} {result['actor_points']} – {result['opponent_points']} {opponent}"
            f" · en {result['target']} · manche {result['rounds']}")


def _status_of(result: dict) -> str:
    decided = result.get("outcome", result.get("winner"))
    return "running" if decided == "pending" else decided


# ---------------------------------------------------------------- the pane


TURN_LABEL = "Fin du tour : "    # the change `n` makes; `p` right after it undoes it


class InitiativePane(CampaignView, Widget):
    """Turn order then timers in one table; keys act on the row under the cursor."""

    DEFAULT_CSS = """
    InitiativePane { height: 1fr; }
    InitiativePane > #initiative-status { height: 1; padding: 0 1; text-style: bold; }
    InitiativePane > DataTable { height: 1fr; background: transparent; scrollbar-size-horizontal: 0; }
    InitiativePane > #initiative-detail { height: auto; max-height: 4; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("n", "next_turn", "Suivant", id="initiative.next-turn"),
        Binding("p", "previous_turn", "Précédent", id="initiative.previous-turn", show=False),
        Binding("a", "add", "Ajouter", id="initiative.add"),
        Binding("i", "set_initiative", "Init.", id="initiative.set-initiative"),
        Binding("I", "roll_all", "Tout lancer", id="initiative.roll-all", show=False),
        Binding("s", "sort", "Trier", id="initiative.sort", show=False),
        Binding("shift+up,u", "move(-1)", "Monter", id="initiative.move-up", show=False),
        Binding("shift+down,j", "move(1)", "Descendre", id="initiative.move-down", show=False),
        Binding("w", "delay", "Attendre/revenir", id="initiative.delay"),
        Binding("x,delete", "remove", "Retirer", id="initiative.remove", show=False),
        Binding("r", "roll_timer", "Intervalle", id="initiative.roll-timer"),
        Binding("t", "new_timer", "Minuteur", id="initiative.new-timer", show=False),
        Binding("d", "declare", "Déclarer", id="initiative.declare"),
        Binding("+", "adjust(1)", "+1", id="initiative.increase", show=False),
        Binding("-", "adjust(-1)", "−1", id="initiative.decrease", show=False),
        Binding("S", "start", "Début combat", id="initiative.start", show=False),
        Binding("E", "end", "Fin combat", id="initiative.end", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._keys: list[str] = []
        self._r20_override: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="initiative-status", markup=False)
        yield DataTable(id="initiative-table", cursor_type="row", cell_padding=1)
        yield Static("", id="initiative-detail", markup=False)

    @property
    def table(self) -> DataTable:
        return self.query_one("#initiative-table", DataTable)

    def on_mount(self) -> None:
        self.border_title = "Initiative"
        table = self.table
        table.add_column("", key="mark")
        table.add_column("Init", key="init")
        table.add_column("Nom", key="name")
        table.add_column("", key="state")
        table.add_column("États · actions", key="notes")
        session = self.session
        if session is not None:
            self.show_campaign(session)

    def focus(self, scroll_visible: bool = True) -> "InitiativePane":
        self.table.focus(scroll_visible)
        return self

    @property
    def session(self) -> CampaignSession | None:
        return getattr(self.app, "session", None)

    @property
    def _ascii(self) -> bool:
        return bool(getattr(self.app, "ascii", False))

    # ------------------------------------------------------------ drawing

    def show_campaign(self, session: CampaignSession) -> None:
        if not self.is_mounted:
            return
        self._r20_override = None
        campaign = session.campaign
        enc = campaign.encounter
        current = enc.entries[enc.turn] if enc.round > 0 and 0 <= enc.turn < len(enc.entries) else None
        if enc.round > 0:
            status = Content.assemble(f"Round {enc.round}", (" · au tour de ", "dim"),
                                      literal(current.name if current else "personne"))
        else:
            status = Content.assemble(("Pas de combat en cours", "dim"),
                                      (" · n ou S pour commencer" if enc.entries else " · a pour ajouter", "dim"))
        self.query_one("#initiative-status", Static).update(status)
        rows: list[tuple[str, list[Text]]] = []
        for entry in enc.entries:
            rows.append((f"e:{entry.id}", self._entry_cells(session, entry, entry is current)))
        for timer in campaign.timers:
            rows.append((f"t:{timer.id}", self._timer_cells(campaign, timer)))
        table = self.table
        keys = [k for k, _ in rows]
        if keys == self._keys:
            for key, cells in rows:
                for col, cell in zip(("mark", "init", "name", "state", "notes"), cells):
                    if table.get_cell(key, col) != cell:
                        table.update_cell(key, col, cell)
        else:
            first = not self._keys
            keep = self.current_key()
            table.clear()
            for key, cells in rows:
                table.add_row(*cells, key=key)
            self._keys = keys
            if first and current is not None:
                keep = f"e:{current.id}"
            if keep in keys:
                table.move_cursor(row=keys.index(keep), animate=False)
        self._show_detail()

    def _entry_cells(self, session: CampaignSession, entry: Entry, is_current: bool) -> list[Text]:
        campaign = session.campaign
        mark = Text((">" if self._ascii else "▶") if is_current else "", style="bold reverse" if is_current else "")
        state = Text()
        if entry.delayed:
            state.append("attend" if self._ascii else "⏸ attend", style="italic")
        elif entry.acted:
            state.append("a agi" if self._ascii else "✓", style="dim")
        name = literal_text(entry.name, "bold" if is_current else ("dim" if entry.acted else ""))
        name.truncate(NAME_WIDTH, overflow="ellipsis")
        notes = Text(no_wrap=True, overflow="ellipsis")
        ch = campaign.character(entry.character) if entry.character else None
        if ch is not None:
            notes.append_text(conditions_text(ch))
        actions = self._declared(campaign, entry.id)
        if actions:
            if notes.plain:
                notes.append(" · ", style="dim")
            notes.append(f"{len(actions)} action{'s' if len(actions) > 1 else ''}")
            malus = self._malus(session, len(actions))
            if malus:
                notes.append(f" −{malus} chacune", style="bold")
        return [mark, Text(str(entry.initiative)), name, state, notes]

    def _timer_cells(self, campaign: Campaign, timer: Timer) -> list[Text]:
        running = timer.status == "running"
        mark = Text("~" if self._ascii else "⧗", style="" if running else "dim")
        state = Text(STATUS_WORDS.get(timer.status, timer.status), style="italic" if running else "bold")
        label = literal_text(timer.label, "" if running else "dim")
        label.truncate(NAME_WIDTH, overflow="ellipsis")
        return [mark, Text(""), label, state,
                literal_text(timer_progress(campaign, timer))]

    @staticmethod
    def _declared(campaign: Campaign, entry_id: str) -> list[str]:
        for decl in campaign.encounter.declared:
            if decl.entry == entry_id:
                return list(decl.actions)
        return []

    @staticmethod
    def _malus(session: CampaignSession, count: int) -> int:
        return ARPEGES_STEP * (count - 1) if session.system.id == "arpeges" and count > 1 else 0

    def current_key(self) -> str | None:
        if not self.is_mounted or not self._keys:
            return None
        row = self.table.cursor_row
        return self._keys[row] if 0 <= row < len(self._keys) else None

    def _show_detail(self) -> None:
        session = self.session
        key = self.current_key()
        detail = self.query_one("#initiative-detail", Static)
        if session is None or key is None:
            detail.update("")
            return
        campaign = session.campaign
        kind, _, ident = key.partition(":")
        lines: list[str] = []
        if kind == "e":
            entry = next((e for e in campaign.encounter.entries if e.id == ident), None)
            if entry is None:
                detail.update("")
                return
            ch = campaign.character(entry.character) if entry.character else None
            if ch is not None and ch.conditions:
                lines.append("États : " + " ; ".join(condition_line(c) for c in ch.conditions))
            actions = self._declared(campaign, entry.id)
            malus = self._malus(session, len(actions))
            for action in actions:
                lines.append(f"• {clean(action)}" + (f"  (−{malus})" if malus else ""))
            if not lines:
                lines.append("ad hoc, sans fiche" if entry.character is None else "aucun état")
        else:
            timer = next((t for t in campaign.timers if t.id == ident), None)
            if timer is None:
                detail.update("")
                return
            lines.append(clean(timer.label))
            result = timer_result(timer)
            if result is not None and session.system.describe is not None and result.get("system") == session.system.id:
                words = session.system.describe(result)
                lines.append(f"{clean(words.headline)} : {clean(words.detail)}")
            else:
                lines.append(timer_progress(campaign, timer))
            if timer.kind != "countdown" and timer.status == "running":
                lines.append("r : lancer l'intervalle suivant")
        detail.update(literal("\n".join(lines), single_line=False))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()
        if event.cursor_row != self.table.cursor_row:
            return          # stale: the cursor moved again since
        session = self.session
        key = self.current_key()
        if session is None or not key or not key.startswith("e:"):
            return
        entry = next((e for e in session.campaign.encounter.entries if e.id == key[2:]), None)
        if (entry is not None and entry.character and self.table.has_focus
                and entry.character != getattr(self.app, "selected_id", None)):
            self.app.select_character(entry.character)  # type: ignore[attr-defined]

    # ------------------------------------------------------------ helpers

    def _writable(self) -> bool:
        session = self.session
        if session is None:
            return False
        if not self.app.writable:  # type: ignore[attr-defined]
            reason = getattr(session, "read_only_reason", "") or "lecture seule"
            self.app.warn(f"campagne en lecture seule ({reason}) : rien n'est modifié")  # type: ignore[attr-defined]
            return False
        return True

    def _warn(self, text: str, severity: str = "warning") -> None:
        self.app.warn(text, severity)  # type: ignore[attr-defined]

    def _change(self, label: str, build: Callable[[EditBuilder], None]) -> bool:
        return bool(self.app.change(label, build))  # type: ignore[attr-defined]

    def _selected_entry(self) -> tuple[int, Entry] | None:
        session = self.session
        key = self.current_key()
        if session is None or key is None or not key.startswith("e:"):
            self._warn("choisissez une ligne de l'ordre d'initiative")
            return None
        for i, entry in enumerate(session.campaign.encounter.entries):
            if entry.id == key[2:]:
                return i, entry
        return None

    def _selected_timer(self) -> tuple[int, Timer] | None:
        session = self.session
        key = self.current_key()
        if session is None or key is None or not key.startswith("t:"):
            return None
        for i, timer in enumerate(session.campaign.timers):
            if timer.id == key[2:]:
                return i, timer
        return None

    def _cursor_to(self, key: str) -> None:
        if key in self._keys:
            self.table.move_cursor(row=self._keys.index(key), animate=False)

    def _follow_current(self) -> None:
        """Put the cursor on the current actor and select their character for the dice tray."""
        session = self.session
        if session is None:
            return
        enc = session.campaign.encounter
        if enc.round > 0 and 0 <= enc.turn < len(enc.entries):
            entry = enc.entries[enc.turn]
            self._cursor_to(f"e:{entry.id}")
            if entry.character:
                self.app.select_character(entry.character)  # type: ignore[attr-defined]

    # ------------------------------------------------------------ turns

    @staticmethod
    def _first_ready(entries: list[Entry], start: int = 0) -> int | None:
        for i in range(start, len(entries)):
            if not entries[i].delayed and not entries[i].acted:
                return i
        return None

    def _new_round(self, b: EditBuilder, campaign: Campaign, notices: list[str]) -> None:
        """Round + 1: acted flags reset, declarations cleared, countdowns tick."""
        enc = campaign.encounter
        b.set(("encounter", "round"), enc.round + 1)
        for i, entry in enumerate(enc.entries):
            if entry.acted:
                b.set(("encounter", "entries", i, "acted"), False)
        for j in range(len(enc.declared) - 1, -1, -1):
            b.delete(("encounter", "declared"), j)
        for j, timer in enumerate(campaign.timers):
            if timer.kind == "countdown" and timer.status == "running" and timer.rounds is not None:
                left = max(timer.rounds - 1, 0)
                b.set(("timers", j, "rounds"), left)
                if left == 0:
                    b.set(("timers", j, "status"), "done")
                    notices.append(f"Fin du compte à rebours : {clean(timer.label)}")
        first = self._first_ready(enc.entries)
        b.set(("encounter", "turn"), first if first is not None else 0)
        notices.insert(0, f"Round {enc.round}")

    def _tick_conditions(self, b: EditBuilder, campaign: Campaign, char_id: str | None,
                         notices: list[str]) -> None:
        """End of the bearer's turn: durations go down; a condition at its last round expires."""
        if not char_id:
            return
        for i, ch in enumerate(campaign.characters):
            if ch.id != char_id:
                continue
            for j in range(len(ch.conditions) - 1, -1, -1):
                cond = ch.conditions[j]
                if cond.rounds is None:
                    continue
                if cond.rounds <= 1:
                    b.delete(("characters", i, "conditions"), j)
                    notices.append(f"{clean(cond.name)} expire : {clean(ch.name)}")
                else:
                    b.set(("characters", i, "conditions", j, "rounds"), cond.rounds - 1)
            return

    def _start(self, b: EditBuilder, campaign: Campaign) -> None:
        enc = campaign.encounter
        b.set(("encounter", "round"), 1)
        for i, entry in enumerate(enc.entries):
            if entry.acted:
                b.set(("encounter", "entries", i, "acted"), False)
        first = self._first_ready(enc.entries)
        b.set(("encounter", "turn"), first if first is not None else 0)

    def next_turn(self) -> None:
        """The current actor has acted: their conditions tick, the next one plays (app key `n`)."""
        session = self.session
        if session is None or not self._writable():
            return
        campaign = session.campaign
        enc = campaign.encounter
        if not enc.entries:
            self._warn("personne dans l'ordre d'initiative : a pour ajouter")
            return
        if all(e.delayed for e in enc.entries):
            self._warn("tout le monde attend : w sur une ligne pour la faire revenir")
            return
        notices: list[str] = []
        if enc.round == 0:
            if self._change("Début du combat", lambda b: self._start(b, campaign)):
                self._warn("Round 1", "information")
                self._follow_current()
            return

        def build(b: EditBuilder) -> None:
            turn = min(enc.turn, len(enc.entries) - 1)
            current = enc.entries[turn]
            if not current.delayed:
                b.set(("encounter", "entries", turn, "acted"), True)
                self._tick_conditions(b, campaign, current.character, notices)
            following = self._first_ready(enc.entries, turn + 1)
            if following is None:
                self._new_round(b, campaign, notices)
            else:
                b.set(("encounter", "turn"), following)

        current_name = enc.entries[min(enc.turn, len(enc.entries) - 1)].name
        if self._change(f"{TURN_LABEL}{clean(current_name)}", build):
            for notice in notices:
                self._warn(notice, "information")
            self._follow_current()

    def previous_turn(self) -> None:
        """Back to the actor before (a mistake at the table).

        Right after `n`, going back is exactly undoing that turn: condition rounds and
        countdowns it ticked come back too. Further back, only the order moves.
        """
        session = self.session
        if session is None or not self._writable():
            return
        if (session.last_label or "").startswith(TURN_LABEL):
            self.app.undo()  # type: ignore[attr-defined]
            self._follow_current()
            return
        campaign = session.campaign
        enc = campaign.encounter
        if enc.round == 0 or not enc.entries:
            self._warn("pas de combat en cours")
            return
        turn = min(enc.turn, len(enc.entries) - 1)
        previous = next((i for i in range(turn - 1, -1, -1) if not enc.entries[i].delayed), None)
        if previous is None and enc.round <= 1:
            self._warn("début du combat : pas de tour précédent")
            return

        def build(b: EditBuilder) -> None:
            target = previous
            if target is None:
                b.set(("encounter", "round"), enc.round - 1)
                ready = [i for i, e in enumerate(enc.entries) if not e.delayed]
                for i in ready:
                    if not enc.entries[i].acted:
                        b.set(("encounter", "entries", i, "acted"), True)
                target = ready[-1]
            b.set(("encounter", "entries", target, "acted"), False)
            b.set(("encounter", "turn"), target)

        if self._change("Tour précédent", build):
            self._follow_current()

    def action_next_turn(self) -> None:
        self.next_turn()

    def action_previous_turn(self) -> None:
        self.previous_turn()

    def action_start(self) -> None:
        session = self.session
        if session is None or not self._writable():
            return
        campaign = session.campaign
        if campaign.encounter.round > 0:
            self._warn(f"combat déjà en cours (round {campaign.encounter.round}) : E pour le terminer")
            return
        if not campaign.encounter.entries:
            self._warn("personne dans l'ordre d'initiative : a pour ajouter")
            return
        if self._change("Début du combat", lambda b: self._start(b, campaign)):
            self._warn("Round 1", "information")
            self._follow_current()

    def action_end(self) -> None:
        session = self.session
        if session is None or not self._writable():
            return
        campaign = session.campaign
        enc = campaign.encounter
        if enc.round == 0 and not enc.entries:
            self._warn("pas de combat en cours")
            return

        def build(b: EditBuilder) -> None:
            for j in range(len(enc.declared) - 1, -1, -1):
                b.delete(("encounter", "declared"), j)
            for j in range(len(enc.entries) - 1, -1, -1):
                b.delete(("encounter", "entries"), j)
            b.set(("encounter", "round"), 0)
            b.set(("encounter", "turn"), 0)

        def done(yes: bool | None) -> None:
            if yes and self._change("Fin du combat", build):
                self._warn("Combat terminé", "information")

        self.app.push_screen(_dialogs().ConfirmScreen("Terminer le combat ?", "L'ordre d'initiative est vidé "
                                           "(les minuteurs restent). ctrl+z annule.", yes="Terminer"), done)

    # ------------------------------------------------------------ the order

    def action_add(self) -> None:
        session = self.session
        if session is None or not self._writable():
            return
        campaign = session.campaign
        present = {e.character for e in campaign.encounter.entries}
        options: list[tuple[str, str]] = [("", "Nom libre (sans fiche)…")]
        options += [(c.id, c.name) for c in campaign.characters if c.id not in present]

        def chosen(choice: str | None) -> None:
            if choice is None:
                return
            ch = campaign.character(choice) if choice else None
            self._ask_initiative(ch.name if ch else None, ch.id if ch else None)

        self.app.push_screen(_dialogs().ChoiceScreen("Ajouter à l'initiative", options), chosen)

    def _ask_initiative(self, name: str | None, character: str | None) -> None:
        session = self.session
        assert session is not None
        expr = session.campaign.initiative.strip()
        fields = []
        if name is None:
            fields.append(_dialogs().Field("name", "Nom", check=_dialogs().nonempty("Nom")))
        fields.append(_dialogs().Field("value", f"Initiative (vide : lancer {expr})" if expr else "Initiative",
                            check=_dialogs().int_check(-999, 999, empty_ok=bool(expr), what="Initiative")))

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            who = name if name is not None else values["name"].strip()
            text = values["value"].strip().replace("\u2212", "-")
            value = int(text) if text else roll_initiative(self.app, session, who)
            if value is None:
                return
            if add_to_encounter(self.app, session, name=who, character=character, initiative=value):
                entry = next((e for e in session.campaign.encounter.entries
                              if e.name == who and e.character == character and e.initiative == value), None)
                if entry is not None:
                    self._cursor_to(f"e:{entry.id}")

        title = f"Initiative de {clean(name)}" if name is not None else "Entrée ad hoc"
        self.app.push_screen(_dialogs().PromptScreen(title, fields), done)

    def action_set_initiative(self) -> None:
        found = self._selected_entry()
        if found is None or not self._writable():
            return
        session = self.session
        assert session is not None
        _, entry = found
        entry_id = entry.id
        expr = session.campaign.initiative.strip()

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            text = values["value"].strip().replace("\u2212", "-")
            value = int(text) if text else roll_initiative(self.app, session, entry.name)
            if value is None:
                return
            idx = next((i for i, e in enumerate(session.campaign.encounter.entries) if e.id == entry_id), None)
            if idx is not None:
                self._change(f"Initiative {value} : {clean(entry.name)}",
                             lambda b: b.set(("encounter", "entries", idx, "initiative"), value))

        self.app.push_screen(_dialogs().PromptScreen(f"Initiative de {clean(entry.name)}", [
            _dialogs().Field("value", f"Initiative (vide : lancer {expr})" if expr else "Initiative", str(entry.initiative),
                  check=_dialogs().int_check(-999, 999, empty_ok=bool(expr), what="Initiative"))]), done)

    def action_roll_all(self) -> None:
        session = self.session
        if session is None or not self._writable():
            return
        campaign = session.campaign
        enc = campaign.encounter
        if not campaign.initiative.strip():
            self._warn("pas d'expression d'initiative dans la campagne : i pour la taper")
            return
        if not enc.entries:
            self._warn("personne dans l'ordre d'initiative")
            return
        values: dict[str, int] = {}
        for entry in enc.entries:
            value = roll_initiative(self.app, session, entry.name)
            if value is None:
                return
            values[entry.id] = value

        def build(b: EditBuilder) -> None:
            for i, entry in enumerate(enc.entries):
                b.set(("encounter", "entries", i, "initiative"), values[entry.id])
            self._sort(b, campaign)

        self._change("Initiative pour tous", build)

    def _sort(self, b: EditBuilder, campaign: Campaign) -> None:
        enc = campaign.encounter
        current = enc.entries[enc.turn].id if 0 <= enc.turn < len(enc.entries) else None
        ordered = sorted(enc.entries, key=lambda e: -e.initiative)
        if [e.id for e in ordered] != [e.id for e in enc.entries]:
            b.set(("encounter", "entries"), ordered)
        if current is not None:
            turn = [e.id for e in enc.entries].index(current)
            if turn != enc.turn:
                b.set(("encounter", "turn"), turn)

    def action_sort(self) -> None:
        session = self.session
        if session is None or not self._writable():
            return
        campaign = session.campaign
        self._change("Trier par initiative", lambda b: self._sort(b, campaign))

    def action_move(self, delta: int) -> None:
        found = self._selected_entry()
        if found is None or not self._writable():
            return
        session = self.session
        assert session is not None
        index, entry = found
        enc = session.campaign.encounter
        target = index + delta
        if not 0 <= target < len(enc.entries):
            return
        current = enc.entries[enc.turn].id if 0 <= enc.turn < len(enc.entries) else None

        def build(b: EditBuilder) -> None:
            b.move(("encounter", "entries"), index, target)
            if current is not None:
                turn = [e.id for e in enc.entries].index(current)
                if turn != enc.turn:
                    b.set(("encounter", "turn"), turn)

        self._change(f"{'Monter' if delta < 0 else 'Descendre'} {clean(entry.name)}", build)

    def action_delay(self) -> None:
        found = self._selected_entry()
        if found is None or not self._writable():
            return
        session = self.session
        assert session is not None
        campaign = session.campaign
        enc = campaign.encounter
        index, entry = found
        notices: list[str] = []
        if entry.delayed:
            def build(b: EditBuilder) -> None:
                turn = min(enc.turn, len(enc.entries) - 1)
                target = turn - 1 if index < turn else turn
                if enc.round == 0:
                    target = index
                if target != index:
                    b.move(("encounter", "entries"), index, target)
                b.set(("encounter", "entries", target, "delayed"), False)
                b.set(("encounter", "entries", target, "acted"), False)
                if enc.round > 0:
                    b.set(("encounter", "turn"), target)

            label = f"Revient : {clean(entry.name)}"
        else:
            def build(b: EditBuilder) -> None:
                b.set(("encounter", "entries", index, "delayed"), True)
                if enc.round > 0 and index == enc.turn:
                    following = self._first_ready(enc.entries, index + 1)
                    if following is None:
                        self._new_round(b, campaign, notices)
                    else:
                        b.set(("encounter", "turn"), following)

            label = f"Attend : {clean(entry.name)}"
        if self._change(label, build):
            for notice in notices:
                self._warn(notice, "information")
            self._follow_current()

    def action_remove(self) -> None:
        session = self.session
        if session is None:
            return
        timer = self._selected_timer()
        if timer is not None:
            if not self._writable():
                return
            index, t = timer
            self._change(f"Retirer le minuteur {clean(t.label)}", lambda b: b.delete(("timers",), index))
            return
        found = self._selected_entry()
        if found is None or not self._writable():
            return
        index, entry = found
        enc = session.campaign.encounter

        def build(b: EditBuilder) -> None:
            for j in range(len(enc.declared) - 1, -1, -1):
                if enc.declared[j].entry == entry.id:
                    b.delete(("encounter", "declared"), j)
            b.delete(("encounter", "entries"), index)
            turn = enc.turn
            if index < turn:
                turn -= 1
            elif index == turn:     # it was their turn: the next one ready plays (not one who waits)
                turn = next((i for i in range(turn, len(enc.entries)) if not enc.entries[i].delayed
                             and not enc.entries[i].acted), turn)
            turn = min(turn, max(len(enc.entries) - 1, 0))
            if turn != enc.turn:
                b.set(("encounter", "turn"), turn)

        self._change(f"Retirer {clean(entry.name)} de l'initiative", build)

    def action_adjust(self, delta: int) -> None:
        session = self.session
        if session is None:
            return
        timer = self._selected_timer()
        if timer is not None:
            index, t = timer
            if t.kind != "countdown":
                self._warn("+/− règlent les comptes à rebours ; r lance l'intervalle suivant d'un test")
                return
            if not self._writable():
                return
            left = max((t.rounds or 0) + delta, 0)

            def build(b: EditBuilder) -> None:
                b.set(("timers", index, "rounds"), left)
                status = "running" if left > 0 else "done"
                if status != t.status:
                    b.set(("timers", index, "status"), status)

            self._change(f"{clean(t.label)} : {left} round{'s' if left != 1 else ''}", build)
            return
        found = self._selected_entry()
        if found is None or not self._writable():
            return
        index, entry = found
        value = entry.initiative + delta
        self._change(f"Initiative {value} : {clean(entry.name)}",
                     lambda b: b.set(("encounter", "entries", index, "initiative"), value))

    # ------------------------------------------------------------ declared actions

    def action_declare(self) -> None:
        found = self._selected_entry()
        if found is None or not self._writable():
            return
        session = self.session
        assert session is not None
        campaign = session.campaign
        _, entry = found
        entry_id = entry.id
        note = ""
        if session.system.id == "arpeges":
            note = "Arpèges (R12) : chaque action en plus retire 3 à la difficulté de toutes (2 actions : −3 chacune)."

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            actions = [line.strip() for line in values["actions"].splitlines() if line.strip()]
            enc = campaign.encounter
            where = next((j for j, d in enumerate(enc.declared) if d.entry == entry_id), None)

            def build(b: EditBuilder) -> None:
                if where is not None:
                    if actions:
                        b.set(("encounter", "declared", where, "actions"), actions)
                    else:
                        b.delete(("encounter", "declared"), where)
                elif actions:
                    b.insert(("encounter", "declared"), None, Declaration(entry_id, actions))

            malus = self._malus(session, len(actions))
            label = f"Déclare {len(actions)} action{'s' if len(actions) != 1 else ''} : {clean(entry.name)}"
            if self._change(label, build) and malus:
                self._warn(f"{clean(entry.name)} : {len(actions)} actions simultanées, −{malus} à chacune",
                           "information")

        self.app.push_screen(_dialogs().PromptScreen(f"Actions déclarées par {clean(entry.name)} (une par ligne)", [
            _dialogs().Field("actions", "Actions du round", "\n".join(self._declared(campaign, entry_id)), multiline=True),
        ], note=note), done)

    # ------------------------------------------------------------ timers

    def action_roll_timer(self) -> None:
        session = self.session
        if session is None:
            return
        found = self._selected_timer()
        if found is None:
            running = [(i, t) for i, t in enumerate(session.campaign.timers)
                       if t.kind != "countdown" and t.status == "running"]
            if len(running) != 1:
                self._warn("choisissez un test étendu dans la liste (flèches), puis r")
                return
            found = running[0]
        if not self._writable():
            return
        index, timer = found
        if timer.kind == "countdown":
            self._warn("un compte à rebours avance à chaque round (+/− pour le régler)")
            return
        if timer.status != "running":
            self._warn(f"{clean(timer.label)} est déjà terminé ({STATUS_WORDS.get(timer.status, timer.status)})")
            return
        campaign = session.campaign
        interval = timer.request.get("interval", "")
        if (timer.kind == "extended" and campaign.encounter.round > 0 and interval not in ("", "tour")
                and self._r20_override != timer.id):
            self._r20_override = timer.id
            self._warn(f"R20 : pendant un combat, seul un test étendu Simple (1 tour) se fait ; "
                       f"celui-ci prend {INTERVAL_WORDS.get(interval, interval)}. r encore pour lancer quand même")
            return
        self._roll_interval(session, index, timer)

    def _roll_interval(self, session: CampaignSession, index: int, timer: Timer) -> None:
        campaign = session.campaign
        before = timer_result(timer)
        if before is None:
            self._warn(f"{clean(timer.label)} : le test de ce minuteur est illisible")
            return
        rng = random.Random(random.SystemRandom().getrandbits(63))
        dice = {k: [list(v) if isinstance(v, list) else v for v in vals] for k, vals in timer.dice.items()}
        if timer.kind == "extended":
            rolls = dice.get("rolls", [])
            rolls.append([1 + int(rng.random() * 12) for _ in range(before["dice_per_test"])])
            dice["rolls"] = rolls
            step = f"test {len(rolls)}"
        else:
            for field in ("actor_dice", "opponent_dice"):
                dice.setdefault(field, []).append(1 + int(rng.random() * 20))
            step = f"manche {len(dice['actor_dice'])}"
        request = {**timer.request, **dice}
        try:
            result = rules.resolve(request)
        except rules.RequestError as exc:
            self._warn(f"{clean(timer.label)} : {exc}", "error")
            return
        status = _status_of(result)
        who = _name_of(campaign, timer.who)
        self.app.record_roll(who=who, line=f"{timer.label} · {step}",  # type: ignore[attr-defined]
                             request=request, result=result)

        def build(b: EditBuilder) -> None:
            b.set(("timers", index, "dice"), dice)
            if status != timer.status:
                b.set(("timers", index, "status"), status)

        if not self._change(f"{clean(timer.label)} · {step}", build):
            return
        progress = timer_progress(campaign, campaign.timers[index])
        if status == "running":
            self._warn(f"{clean(timer.label)} · {step} : {progress}", "information")
        elif status in ("success", "actor"):
            self._warn(f"{clean(timer.label)} : réussi ({progress})", "information")
        elif status == "tie":
            self._warn(f"{clean(timer.label)} : égalité ({progress})", "information")
        else:
            self._warn(f"{clean(timer.label)} : échoué ({progress})", "warning")

    def action_new_timer(self) -> None:
        session = self.session
        if session is None or not self._writable():
            return
        options = [("countdown", "Compte à rebours (rounds)")]
        if session.system.id == "mir":
            options.append(("extended", "Test étendu (MIR) pour le personnage sélectionné"))
        if session.system.id == "magisphere":
            options.append(("opposition", "Opposition étendue (Magisphère)"))

        def chosen(kind: str | None) -> None:
            if kind == "countdown":
                self._new_countdown(session)
            elif kind == "extended":
                self._new_extended(session)
            elif kind == "opposition":
                self._new_opposition(session)

        if len(options) == 1:
            chosen("countdown")
        else:
            self.app.push_screen(_dialogs().ChoiceScreen("Nouveau minuteur", options), chosen)

    def _add_timer(self, session: CampaignSession, timer: Timer) -> None:
        timer.id = unique_slug(slugify(timer.label, "minuteur"), {t.id for t in session.campaign.timers})
        if self._change(f"Minuteur : {clean(timer.label)}", lambda b: b.insert(("timers",), None, timer)):
            self._cursor_to(f"t:{timer.id}")

    def _new_countdown(self, session: CampaignSession) -> None:
        def done(values: dict[str, str] | None) -> None:
            if values is not None:
                self._add_timer(session, Timer(id="", label=values["label"].strip(), kind="countdown",
                                               rounds=int(values["rounds"].strip())))

        self.app.push_screen(_dialogs().PromptScreen("Nouveau compte à rebours", [
            _dialogs().Field("label", "Ce qui arrive à la fin", check=_dialogs().nonempty("Libellé")),
            _dialogs().Field("rounds", "Dans combien de rounds ?", check=_dialogs().int_check(1, 999, what="Rounds")),
        ]), done)

    def _new_extended(self, session: CampaignSession) -> None:
        from ..screens.edit_character import fold

        campaign = session.campaign
        char_id = getattr(self.app, "selected_id", None)
        ch = campaign.character(char_id) if char_id else None
        if ch is None:
            self._warn("sélectionnez d'abord le personnage qui fait le test (roster)")
            return
        system = session.system
        skills = {s.key: s for s in system.group("skills").stats}   # type: ignore[union-attr]
        voies = {s.key: s for s in system.group("voies").stats}     # type: ignore[union-attr]

        def find_skill(text: str) -> list[str]:
            t = fold(text)
            exact = [k for k, s in skills.items() if fold(s.label) == t or k == t]
            return exact or [k for k, s in skills.items() if fold(s.label).startswith(t) or k.startswith(t)]

        def check_skill(text: str) -> str | None:
            found = find_skill(text) if text.strip() else []
            if len(found) == 1:
                return None
            if not found:
                return f"Compétence : aucune ne commence par {text.strip()!r}"
            return "Compétence ambiguë : " + ", ".join(skills[k].label for k in found)

        def check_interval(text: str) -> str | None:
            return None if fold(text) in INTERVAL_WORDS else "Temporalité : tour, heure, jour ou semaine"

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            key = find_skill(values["skill"])[0]
            skill = skills[key]
            sheet = ch.sheet
            level = sheet.get("skills", {}).get(key, 0)
            voie = sheet.get("voies", {}).get(skill.parent, 1)
            threshold = int(values["threshold"])
            cap = int(values["max"].strip() or "0")
            interval = fold(values["interval"])
            request = {"system": "mir", "kind": "extended", "skill": level, "voie": voie,
                       "threshold": threshold, "max_tests": cap, "interval": interval}
            label = (f"{skill.label} ({voies[skill.parent].label}) ({INTERVAL_WORDS[interval]}{f', {cap} max.' if cap else ''}) "
                     f"{threshold} succès")
            self._add_timer(session, Timer(id="", label=label, kind="extended", who=ch.id, request=request))

        self.app.push_screen(_dialogs().PromptScreen(f"Test étendu de {clean(ch.name)}", [
            _dialogs().Field("skill", "Compétence", check=check_skill),
            _dialogs().Field("threshold", "Succès à atteindre (SD étendu)", check=_dialogs().int_check(1, 99, what="SD")),
            _dialogs().Field("max", "Nombre de tests au plus (vide : sans limite)", check=_dialogs().int_check(0, 99, empty_ok=True,
                                                                                          what="Maximum")),
            _dialogs().Field("interval", "Temporalité (tour, heure, jour, semaine)", "jour", check=check_interval),
        ], note="R19 : « Guérison (Héritage) (1 jour, 3 max.) 8 succès »"), done)

    def _new_opposition(self, session: CampaignSession) -> None:
        campaign = session.campaign
        char_id = getattr(self.app, "selected_id", None)
        ch = campaign.character(char_id) if char_id else None
        if ch is None:
            self._warn("sélectionnez d'abord le personnage qui mène l'opposition (roster)")
            return
        others = {c.name.casefold(): c for c in campaign.characters if c.id != ch.id}

        def done(values: dict[str, str] | None) -> None:
            if values is None:
                return
            name = values["opponent"].strip()
            opponent = others.get(name.casefold())
            request = {"system": "magisphere", "kind": "extended_opposed", "target": int(values["target"]),
                       "actor_stat": int(values["actor_stat"]), "actor_skill": int(values["actor_skill"] or 0),
                       "opponent_stat": int(values["opponent_stat"]),
                       "opponent_skill": int(values["opponent_skill"] or 0)}
            self._add_timer(session, Timer(id="", label=values["label"].strip(), kind="opposition", who=ch.id,
                                           opponent=opponent.id if opponent else name, request=request))

        self.app.push_screen(_dialogs().PromptScreen(f"Opposition étendue de {clean(ch.name)}", [
            _dialogs().Field("label", "Libellé", check=_dialogs().nonempty("Libellé")),
            _dialogs().Field("opponent", "Adversaire (nom d'un personnage ou nom libre)", check=_dialogs().nonempty("Adversaire")),
            _dialogs().Field("target", "Réussites à obtenir (2 brève, 3 tendue, 5 majeure)", "3",
                  check=_dialogs().int_check(1, 10, what="Réussites")),
            _dialogs().Field("actor_stat", f"Statistique de {clean(ch.name)}", check=_dialogs().int_check(0, 30, what="Statistique")),
            _dialogs().Field("actor_skill", f"Compétence de {clean(ch.name)}", "0", check=_dialogs().int_check(0, 20, empty_ok=True,
                                                                                      what="Compétence")),
            _dialogs().Field("opponent_stat", "Statistique de l'adversaire", check=_dialogs().int_check(0, 30, what="Statistique")),
            _dialogs().Field("opponent_skill", "Compétence de l'adversaire", "0", check=_dialogs().int_check(0, 20, empty_ok=True,
                                                                                   what="Compétence")),
        ]), done)
