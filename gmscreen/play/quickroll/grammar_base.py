"""The base of every game's quick-roll grammar: the error a line raises (`QuickRollError`),
what the scanner found in it (`Context`) and the hooks a game's grammar fills (`SystemGrammar`).

Kept apart from the scanner (`grammar.py`, which is handed the game table whose grammar it
runs): a game's line part (`line_rules.LineRules`) names its grammar class from here, and
nothing here imports an engine or the games.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any, Sequence

from gmscreen.rules import get_system
from gmscreen.rules.records import record

from ..exchange import Draft, Side
from .text import Candidate, Token, candidate

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character


class QuickRollError(ValueError):
    """A line that does not describe a test: a code and its parameters, and where (offsets).

    The words come from the catalogs (`gmscreen.play.messages`): `message` is the tray's
    words in the language spoken, `text(lang)` any language. A rules refusal is code "rule" with `error=`.
    """

    def __init__(self, code: str, position: int = 0, end: int | None = None, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        self.position = position
        self.end = position if end is None else end

    def text(self, lang: str | None = None) -> str:
        from gmscreen.play.messages import line_message

        return line_message(self.code, self.params, lang)

    @property
    def message(self) -> str:
        return self.text()

    def __str__(self) -> str:
        return self.message


@record
class Context:
    """Everything the scanner found; the system grammar reads and fills it."""

    line: str
    tokens: list[Token]
    campaign: Campaign
    selected: str | None
    sides: list[Side]
    helpers: list[tuple[int, Character, Token]] = field(default_factory=list)
    gm_only: bool = False
    hidden: bool = False
    faces: list[list[int]] | None = None
    faces_pos: int = 0
    values: dict[str, Any] = field(default_factory=dict)      # what the system grammar gathered
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    modifiers: list[str] = field(default_factory=list)
    without: list[tuple[tuple[str, ...], tuple[int, int]]] = field(default_factory=list)  # `sans X`: a condition left out
    scene: set[str] = field(default_factory=set)   # words of the moment the game's effects read (MIR `intrigue`)

    @property
    def side(self) -> Side:
        return self.sides[-1]

    @property
    def actor(self) -> Side:
        return self.sides[0]

    @property
    def opponent(self) -> Side | None:
        return self.sides[1] if len(self.sides) > 1 else None

    def once(self, key: str, value: Any, token: Token, what: str, end: Token | None = None) -> None:
        """Set a value that the line may give only once."""
        if key in self.values:
            raise QuickRollError("given_twice", token.start, (end or token).end, what=what)
        self.values[key] = value
        self.spans[key] = (token.start, (end or token).end)

    def add(self, key: str, value: int) -> None:
        self.values[key] = self.values.get(key, 0) + value



class SystemGrammar:
    """What one system's words mean. Subclasses fill the hooks; `parse` drives them.
    `system_id` left empty is the campaign's system (a game's grammar need not name it).
    `game`: the game table it reads for (its effects read the conditions, and the draft it
    builds carries it on to the roll), handed to it by `grammar.grammar_for` (typed `Any`:
    this base, which the games' line parts import, names no part back)."""

    system_id = ""
    keywords: frozenset[str] = frozenset()
    game: Any

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        if not self.system_id:
            self.system_id = campaign.system
        self.system = get_system(self.system_id)

    # hooks ---------------------------------------------------------------

    def keyword(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        """Consume a system keyword at i (and its argument): number of tokens used, or 0."""
        return 0

    def negated(self, ctx: Context, token: Token) -> bool:
        """`sans X`: True when X is understood."""
        return False

    def number(self, ctx: Context, tokens: Sequence[Token], i: int) -> int:
        """Consume a numeric token at i: number of tokens used, or 0 (then it is an error)."""
        return 0

    def traits(self, side: Side) -> list[Candidate]:
        """What may follow a name: skills, characteristics…"""
        return []

    def build(self, ctx: Context) -> Draft:
        raise QuickRollError("no_grammar")

    def split_faces(self, ctx: Context, request: dict[str, Any], kind: str) -> dict[str, Any]:
        """Put the typed faces into the kind's dice fields."""
        return {}

    # helpers for subclasses ----------------------------------------------

    def difficulty_candidates(self) -> list[Candidate]:
        return [candidate(d.label, d.value) for d in self.system.difficulties if d.label and d.value is not None]

    def rules_defaults(self, kind: str) -> dict[str, Any]:
        """The campaign's `[rules]` options that this kind accepts."""
        accepted = {f.name for f in self.system.kinds[kind].fields}
        rules = self.campaign.rules or {}
        return {k: v for k, v in rules.items() if k in accepted}
