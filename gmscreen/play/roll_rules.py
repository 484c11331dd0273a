"""The RollRules part of a game: what a roll may ask (choices) and use up (spending), and how
the first interval of an extended test is rolled.

The base class is every default; a game overrides only what its rules change. A hook works on
the `Flow` it is given (`gmscreen.play.exchange`; the engine's is `quickroll.choices.RollFlow`:
`flow.draft`, `flow.request`, `flow.result`, `flow.prompt`) and its
helpers (`flow.face`, `flow.resolve_random`), never on a widget: the screen, `gmscreen line`
and the tests all run the same flow. Nothing heavy is imported at module level (start-up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gmscreen.campaign.model import Campaign

    from .exchange import Assumed, Draft, Flow, Spend


class RollRules:
    """Defaults shared by every game: no choice inside a roll, nothing spent."""

    def start(self, flow: Flow) -> None:
        """Enter on a draft carrying a `Choice` (`draft.choice`, built by the game's grammar):
        roll what comes before the choice and set `flow.prompt`, or resolve. Default: the
        game asks nothing, the roll is resolved at once."""
        flow.resolve_random()

    def plain(self, flow: Flow) -> None:
        """Enter on a draft with typed dice or no `Choice`: resolved at once. A game may still
        ask what the line leaves to the GM first, or what the result offers (a reward)."""
        flow.resolve_random()

    def choose(self, flow: Flow, action: str) -> None:
        """The option `action` of `flow.prompt` was taken (the prompt is already cleared):
        roll on, resolve, or set the next prompt. Default: nothing more to do."""

    def policy_key(self, flow: Flow) -> str:
        """The key the odds' policy takes at `flow.prompt` (what `gmscreen line` answers when
        told nothing): the chance shown while typing is the chance of this way of playing.
        Default: the prompt's own default, as Enter."""
        return "enter"

    def first_interval(self, flow: Flow) -> None:
        """An extended test starts its timer with one interval rolled (the others are rolled
        from the initiative pane). Default: the request resolved once."""
        flow.resolve_random()

    def spending(self, draft: Draft, result: dict[str, Any], campaign: Campaign) -> list[Spend]:
        """Resources the resolved roll uses up on the sheets, each an absolute new value.
        Default: nothing is spent."""
        return []

    def assumed(self, draft: Draft) -> Assumed | None:
        """The choice the odds of `draft` assume (the rules' policy) in words, and the same
        test played the other way (`gmscreen.play.choice_odds`). Default: none."""
        return None
