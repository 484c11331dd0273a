"""Conditions that bite: each side's conditions applied to the roll the line builds.

A condition's `effect` is read by its game (`GameTable.effects`, an `EffectRules`): applied to
the bearer's side of the request, left out for one roll (`sans ébloui` in the line), or kept as
a reminder when the game cannot read it or the test has no field for it. This module asks the
game's table and never branches on a system id: the grammar's common tail (`apply_conditions`),
the odds line (`conditions_said`), the roll log (`noted`), and the load notice and `validate`
(`campaign_problems`) all come through here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from gmscreen.campaign.errors import Problem
from gmscreen.i18n import _
from gmscreen.rules import get_system
from gmscreen.rules.records import record

if TYPE_CHECKING:
    from pathlib import Path

    from gmscreen.campaign.model import Campaign, Character, Condition

    from .effect_rules import EffectRules
    from .exchange import Draft, Side
    from .game import GameTable

APPLIED, LEFT_OUT, REMINDER, UNREADABLE, NO_FIELD = "applied", "left_out", "reminder", "unreadable", "no_field"
OUT_OF_SCENE = "out_of_scene"       # read, but it bites elsewhere (MIR R4: in a fight or an Intrigue)
KEPT = (REMINDER, UNREADABLE, NO_FIELD, OUT_OF_SCENE)    # shown as reminders, no number changed


@record(frozen=True)
class ConditionEffect:
    """One condition met by a roll, and what became of it."""

    who: str            # the bearer's name
    role: str           # "actor", "opponent" or "helper"
    name: str           # the condition's name, as the campaign writes it
    effect: str         # its effect as shown ("−1 dé"; the comment in parentheses dropped)
    state: str          # APPLIED, LEFT_OUT, REMINDER (meant as one), UNREADABLE, NO_FIELD (not in this
                        # test), OUT_OF_SCENE (not at this moment)
    brief: str = ""     # the effect as a narrow line names it ("−2"), "" : as `effect`
    note: str = ""      # what the game adds: a cap that cut it (MIR R3), where it bites (R4)

    @property
    def said(self) -> str:
        """The effect with its note: "+1 dé (R3 : ±2D au plus)"."""
        return f"{self.effect} ({self.note})" if self.note else self.effect


def effect_hint(game: GameTable, text: str) -> str:
    """What the condition dialog says, live, of an effect being typed: "applies: −1 die" (the
    game's reading, in the UI language), "a reminder only" (nothing the rules read: a reminder
    meant as one, or words the game does not use, then with a few it does), "" while empty."""
    if not str(text).strip():
        return ""
    rules = game.effects
    effect = rules.read(text)
    if effect is not None and not effect.reminder:
        return _("applies: {effect}").format(effect=rules.said(effect))
    examples = rules.examples() if effect is None else ""
    return (_("a reminder only ({game} reads e.g. {examples})").format(game=get_system(game.system_id).game,
                                                                         examples=examples)
            if examples else _("a reminder only"))


def scene_of(campaign: Campaign, words: Iterable[str] = ()) -> frozenset[str]:
    """The moment a roll is made in, as the games' effects read it (`EffectRules.out_of_scene`):
    `FIGHT` while a fight runs, and the words the line added (MIR `intrigue`)."""
    from .effect_rules import FIGHT

    return frozenset(words) | ({FIGHT} if campaign.encounter.round > 0 else set())


def apply_conditions(game: GameTable, kind: str, request: dict[str, Any], sides: Sequence[Side],
                     without: Sequence[Sequence[str]] = (), helpers: Sequence[Character] = (),
                     scene: frozenset[str] = frozenset(),
                     ) -> tuple[dict[str, Any], list[ConditionEffect], list[int]]:
    """The request with the conditions of each side (and of each helper, in the order named)
    applied as they bite in `scene` (`scene_of`), capped as the game caps them, what became of
    each condition met, and the indexes of the `without` phrases (folded words, `sans X`) that
    named none. `game`: the campaign's game, whose `effects` part reads each effect."""
    from dataclasses import replace

    from .effect_rules import effect_shown
    from .quickroll.text import candidate, match

    rules = game.effects
    fields = {f.name for f in get_system(game.system_id).kinds[kind].fields}
    out = dict(request)
    met: list[ConditionEffect] = []
    applied: list[tuple[str | int, Any, int]] = []     # where it went, the effect, its place in `met`
    used: set[int] = set()
    bearers: list[tuple[Character, str, Side | int]] = [(s.character, s.role, s) for s in sides
                                                        if s.character is not None]
    bearers += [(helper, "helper", n) for n, helper in enumerate(helpers)]
    for character, role, where in bearers:
        for condition in character.conditions:
            if not str(condition.effect).strip():
                continue
            shown = effect_shown(condition.effect)
            named = [n for n, words in enumerate(without) if match(list(words), [candidate(condition.name)])]
            if named:
                used.update(named)
                met.append(ConditionEffect(character.name, role, condition.name, shown, LEFT_OUT))
                continue
            effect = rules.read(condition.effect)
            note = ""
            if effect is None:
                state: str | None = UNREADABLE
            elif effect.reminder:
                state = REMINDER
            elif (elsewhere := rules.out_of_scene(effect, scene)) is not None:
                state, note = OUT_OF_SCENE, elsewhere
            else:
                done = (rules.apply_helper(effect, out, fields, where) if isinstance(where, int)
                        else rules.apply(effect, out, fields, role, where))
                state = None if done is None else APPLIED if done else NO_FIELD
                if done:
                    applied.append((where if isinstance(where, int) else role, effect, len(met)))
            if state is not None:
                met.append(ConditionEffect(character.name, role, condition.name, shown, state,
                                           effect.brief if effect is not None else "", note))
    if applied:
        notes = rules.settle(out, dict(request), fields, [(where, effect) for where, effect, _n in applied])
        for index, text in notes.items():
            place = applied[index][2]
            met[place] = replace(met[place], note=text)
    unused = [n for n in range(len(without)) if n not in used]
    return out, met, unused


def condition_names(campaign: Campaign, character_ids: Sequence[str | None] = ()) -> list[str]:
    """The names of the conditions with an effect, of the characters named (all when none)."""
    out: list[str] = []
    for character in campaign.characters:
        if character_ids and character.id not in character_ids:
            continue
        out += [c.name for c in character.conditions if str(c.effect).strip() and c.name not in out]
    return out


# ---------------------------------------------------------------- the odds line

@record(frozen=True)
class ConditionsSaid:
    """The odds line's words about conditions: the effects applied with the chance before and
    after them ("Ébloui par la lanterne −1 dé", "91 %", "74 %"), those left out, the reminders."""

    applied: str = ""
    before: float | None = None
    after: float | None = None
    left_out: str = ""
    reminders: str = ""


def _bearer(effect: ConditionEffect, short: bool) -> str:
    """The condition's name (its first word when `short`), with its bearer's when not the actor's."""
    name = effect.name.split()[0] if short and effect.name.split() else effect.name
    if effect.role != "actor" and not short:
        name = _("{name} ({who})").format(name=name, who=effect.who)
    return name


def _named(effect: ConditionEffect, short: bool) -> str:
    return f"{_bearer(effect, short)} {(effect.brief or effect.effect) if short else effect.said}".strip()


def conditions_said(draft: Draft, chance: Callable[[Mapping[str, Any]], float], *, short: bool = False,
                    ascii: bool = False) -> ConditionsSaid:
    """What the odds line says of the draft's conditions; `short`: each by the first word of
    its name (80 columns); `chance` the memoized odds (`gmscreen.play.chances.chance`). The
    chances are None when the request without them is refused by the rules."""
    met = draft.conditions
    if not met:
        return ConditionsSaid()
    dash = "-" if ascii else "—"
    applied = [e for e in met if e.state == APPLIED]
    before = after = None
    if applied and draft.unconditioned is not None:
        from gmscreen.rules import RequestError

        try:
            before, after = chance(draft.unconditioned), chance(draft.odds_request)
        except RequestError:
            before = after = None
    left = [e for e in met if e.state == LEFT_OUT]
    kept = [e for e in met if e.state in KEPT]
    return ConditionsSaid(
        applied=", ".join(_named(e, short) for e in applied),
        before=before, after=after,
        left_out=_("without {names}").format(names=", ".join(e.name for e in left)) if left else "",
        reminders=_("reminder: {items}").format(items=", ".join(
            f"{_bearer(e, short)} {dash} {e.effect if short else e.said}" for e in kept)) if kept else "",
    )


# ---------------------------------------------------------------- the roll log

def noted(result: Mapping[str, Any], draft: Draft) -> dict[str, Any]:
    """The result as logged: with `conditions` saying which effects were applied, which left
    out for this roll, and which only reminded ("Ébloui par la lanterne: −1 dé")."""
    return noted_conditions(result, draft.conditions)


def noted_conditions(result: Mapping[str, Any], conditions: Sequence[ConditionEffect]) -> dict[str, Any]:
    """The result with `conditions` grouped as `noted` logs them (an interval's too)."""
    out = dict(result)
    if not conditions:
        return out
    groups: dict[str, list[str]] = {}
    for e in conditions:
        key = "reminded" if e.state in KEPT else e.state
        groups.setdefault(key, []).append(f"{e.who} · {e.name}: {e.said}")
    out["conditions"] = groups
    return out


# ---------------------------------------------------------------- the campaign as it loads

def unreadable(campaign: Campaign, rules: EffectRules) -> list[tuple[int, int, Condition]]:
    """(character index, condition index, condition) for each effect the system cannot read
    (`rules`: its game's `effects` part)."""
    return [(i, j, c) for i, character in enumerate(campaign.characters)
            for j, c in enumerate(character.conditions)
            if str(c.effect).strip() and rules.read(c.effect) is None]


def campaign_problems(campaign: Campaign, file: str, text: str | None = None, *,
                      game: GameTable | None) -> list[Problem]:
    """A warning per condition effect the campaign's system cannot read: the file, the key path
    (`characters[2].conditions[0].effect`, its line when `text`, the file's text, is given),
    and what the system accepts. Such an effect is shown as a reminder, never applied. `game`:
    the campaign's game as the caller found it (None: a system no package provides, which the
    loader has said; nothing more is said here)."""
    from gmscreen.campaign.textsafe import clean

    if game is None:
        return []
    try:
        rules = game.effects
        found = unreadable(campaign, rules)
        game_name = get_system(game.system_id).game
    except KeyError:              # a system no package provides: the loader has said so
        return []
    if not found:
        return []
    lines: dict[tuple, int] = {}
    if text is not None:
        from gmscreen.campaign.validate import key_lines

        lines = key_lines(text)
    accepted = _(rules.accepted) if rules.accepted else _("no effect (every effect is a reminder)")
    return [Problem(file, f"characters[{i}].conditions[{j}].effect",
                    _("“{effect}” is not an effect {game} can apply (it accepts {accepted}): shown as a reminder, "
                      "not applied").format(effect=clean(c.effect), game=game_name, accepted=accepted),
                    lines.get(("characters", i, "conditions", j, "effect")), warning=True)
            for i, j, c in found]


@record(frozen=True)
class EffectNotice(Problem):
    """A problem as the screen says it: about whom and what (`about`), then what is wrong."""

    about: str = ""

    def __str__(self) -> str:
        return _("{about}: {problem}").format(about=self.about, problem=self.message) if self.about \
            else super().__str__()


def validate_problems(campaign: Campaign, path: Path, *, game: GameTable | None) -> list[Problem]:
    """`campaign_problems` of the campaign read from `path`, with lines from the file's text:
    what `gmscreen validate` says (the file, the line, the key path)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = None
    return campaign_problems(campaign, str(path), text, game=game)


def file_problems(campaign: Campaign, path: Path, *, game: GameTable | None) -> list[Problem]:
    """The same problems as the screen says them, one notice each: by the names the GM knows
    ("Ada Quill · Inspired: …"), not the file's path nor a key path
    (`characters[0].conditions[1].effect`), which `gmscreen validate` gives (`validate_problems`)."""
    found = campaign_problems(campaign, str(path), game=game)
    if not found or game is None:
        return []
    from gmscreen.campaign.textsafe import clean

    places = unreadable(campaign, game.effects)
    return [EffectNotice(p.file, p.path, p.message, p.line, p.warning,
                         about=_("{name} · {condition}").format(name=clean(campaign.characters[i].name),
                                                                condition=clean(c.name)))
            for p, (i, j, c) in zip(found, places)]


def conditions_lines(draft: Draft, chance: Callable[[Mapping[str, Any]], float], *, ascii: bool = False) -> list[str]:
    """The draft's conditions in plain words, one a line, for the command line: "Ébloui par la
    lanterne −1 dé : 91 % → 84 %", "sans Fièvre grise", "rappel : Blessé — ne peut pas agir"."""
    from gmscreen.i18n.typography import percent

    said = conditions_said(draft, chance, ascii=ascii)
    out = []
    if said.applied:
        out.append(said.applied if said.before is None or said.after is None else
                   said.applied + _(": {before} {arrow} ").format(before=percent(said.before),
                                                                   arrow="->" if ascii else "→") + percent(said.after))
    return out + [text for text in (said.left_out, said.reminders) if text]
