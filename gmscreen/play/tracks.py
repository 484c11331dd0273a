"""Damage tracks: hits counted on a character, and who they put out of the fight.

One semantics for every game: a track counts hits taken, from 0 up to its `max`; `+` is one
more hit, `-` one healed (as MIR's Blessures already count). A character with a track at its
maximum is *defeated*: the turn order passes over them (`turns.first_ready`) until a hit is
healed, and the roster and the initiative show it. Nothing is stored for it: it is read from
the tracks, so an undo of the hit that defeated them brings them back too.

A game declares the track the GM adds by default (`FightRules.default_track`): a generic
"Hits" the GM may rename, or the game's own (MIR: Blessures, bound to the sheet's
`state.blessures`, which removes dice in a fight by R4: a hit on the track is a wound there,
in the same change). Every change is one `EditBuilder` change through the caller's change
path, so the screen, `gmscreen.play.table.Table` and the command line share it.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Callable

from gmscreen.campaign.model import Track
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _
from gmscreen.rules.records import record

from .exchange import TrackSpec     # the track a game adds by default (`FightRules.default_track`)

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign, Character
    from gmscreen.campaign.session import EditBuilder

    from .game import GameTable

ChangeFn = Callable[[str, Callable[["EditBuilder"], None]], bool]
MAX_HITS = 999           # the largest maximum the form offers (the file allows more)


@record
class TrackMove:
    """What a change to a track did, for the screen or the command line to say."""

    moved: bool = False
    problem: str = ""                       # why nothing changed
    notices: list[str] = field(default_factory=list)   # defeated, back in the fight


def is_defeated(character: Character) -> bool:
    """Whether a track of theirs is at its maximum (see the module)."""
    return any(t.value >= t.max for t in character.tracks)


def defeated_ids(campaign: Campaign) -> frozenset[str]:
    """The characters out of the fight, by id (what the turn order passes over)."""
    return frozenset(ch.id for ch in campaign.characters if ch.tracks and is_defeated(ch))


def track_text(track: Track) -> str:
    """'Hits 3/5' (the name as typed, made safe to show)."""
    return f"{clean(track.name)} {track.value}/{track.max}"


def default_track(game: GameTable) -> TrackSpec:
    """The track `game` adds by default (its fight part's `default_track`)."""
    from gmscreen.rules import get_system

    return game.fight.default_track(get_system(game.system_id))


def _index(campaign: Campaign, char_id: str) -> int | None:
    return next((i for i, c in enumerate(campaign.characters) if c.id == char_id), None)


def _bound(game: GameTable, track: Track) -> tuple[str, str] | None:
    """The sheet value the game's own track stands for, when `track` is that one."""
    spec = default_track(game)
    return spec.sheet if spec.sheet is not None and track.name == spec.name else None


def _sheet_ops(b: EditBuilder, ch: Character, index: int, where: tuple[str, str], value: int) -> None:
    group, key = where
    if not isinstance(ch.sheet.get(group), dict):
        b.set(("characters", index, "sheet", group), {})
    b.set(("characters", index, "sheet", group, key), value)


def add_track(campaign: Campaign, char_id: str, name: str, maximum: int, change: ChangeFn,
              value: int | None = None, *, game: GameTable) -> TrackMove:
    """A new track on a character (one change). The game's own track (`game`: the campaign's)
    starts from the sheet value it stands for (MIR: the wounds already written), any other from 0."""
    index = _index(campaign, char_id)
    if index is None:
        return TrackMove(problem=_("no character {id!r}").format(id=char_id))
    ch = campaign.characters[index]
    name = name.strip()
    if not name:
        return TrackMove(problem=_("a track needs a name"))
    if not 1 <= maximum <= MAX_HITS:
        return TrackMove(problem=_("the track's maximum: expected an integer from 1 to {hi}, got {value}").format(
            hi=MAX_HITS, value=maximum))
    if any(t.name.casefold() == name.casefold() for t in ch.tracks):
        return TrackMove(problem=_("{name} already has a track {track}").format(name=clean(ch.name),
                                                                                 track=clean(name)))
    track = Track(name, 0, maximum)
    where = _bound(game, track)
    if value is None and where is not None:
        group = ch.sheet.get(where[0])
        found = group.get(where[1]) if isinstance(group, dict) else None
        value = found if isinstance(found, int) and not isinstance(found, bool) else 0
    track.value = min(max(value or 0, 0), maximum)
    notices = [_("Defeated: {name} (their place in the turn order is skipped)").format(name=clean(ch.name))] if track.value >= maximum and not is_defeated(ch) else []

    def build(b: EditBuilder) -> None:
        b.insert(("characters", index, "tracks"), None, track)

    moved = bool(change(_("Track {track} → {name}").format(track=clean(name), name=clean(ch.name)), build))
    return TrackMove(moved=moved, notices=notices if moved else [])


def move_track(campaign: Campaign, char_id: str, delta: int, change: ChangeFn, position: int = 0, *,
               game: GameTable) -> TrackMove:
    """`+`/`-`: `delta` hits more (or healed) on a character's track, one change; the game's
    own track (`game`: the campaign's) moves its sheet value with it. Says when it defeats them or brings them back."""
    index = _index(campaign, char_id)
    if index is None:
        return TrackMove(problem=_("no character {id!r}").format(id=char_id))
    ch = campaign.characters[index]
    if not 0 <= position < len(ch.tracks):
        return TrackMove(problem=_("{name} has no track (T adds one)").format(name=clean(ch.name)))
    track = ch.tracks[position]
    new = track.value + delta
    if new > track.max:
        return TrackMove(problem=_("{track} of {name} already at the maximum ({value})").format(
            track=clean(track.name), name=clean(ch.name), value=track.max))
    if new < 0:
        return TrackMove(problem=_("{track} of {name} already at 0").format(track=clean(track.name),
                                                                            name=clean(ch.name)))
    was_out = is_defeated(ch)
    before = track.value
    where = _bound(game, track)

    def build(b: EditBuilder) -> None:
        b.set(("characters", index, "tracks", position, "value"), new)
        if where is not None:
            _sheet_ops(b, ch, index, where, new)

    label = _("{what}: {name}").format(what=f"{clean(track.name)} {before} → {new}", name=clean(ch.name))
    if not change(label, build):
        return TrackMove()
    notices: list[str] = []
    now_out = is_defeated(campaign.characters[index])
    if now_out and not was_out:
        notices.append(_("Defeated: {name} (their place in the turn order is skipped)").format(name=clean(ch.name)))
    elif was_out and not now_out:
        notices.append(_("Back in the fight: {name}").format(name=clean(ch.name)))
    return TrackMove(moved=True, notices=notices)



def remove_track(campaign: Campaign, char_id: str, position: int, change: ChangeFn) -> TrackMove:
    """A track taken off a character (one change); the sheet value the game's own stood for
    stays as it is (MIR: the wounds remain written). Says when that brings them back in."""
    index = _index(campaign, char_id)
    if index is None:
        return TrackMove(problem=_("no character {id!r}").format(id=char_id))
    ch = campaign.characters[index]
    if not 0 <= position < len(ch.tracks):
        return TrackMove(problem=_("{name} has no track (T adds one)").format(name=clean(ch.name)))
    was_out = is_defeated(ch)
    name = ch.tracks[position].name
    if not change(_("End of the track {track}: {name}").format(track=clean(name), name=clean(ch.name)),
                  lambda b: b.delete(("characters", index, "tracks"), position)):
        return TrackMove()
    back = was_out and not is_defeated(campaign.characters[index])
    return TrackMove(moved=True, notices=[_("Back in the fight: {name}").format(name=clean(ch.name))] if back else [])
