"""The rules' refusals in the game's words, for the quick-roll line.

`gmscreen.rules` raises `RequestError(field, code, **params)`: its English text is the
library's contract. The tray speaks the language chosen: the words come from the catalog of
the same code (`gmscreen.play.messages`), never from reading the English back.
"""

from __future__ import annotations

from gmscreen.play.messages import field_words, rule_message, rule_reason

__all__ = ["field_words", "rule_message", "rule_reason"]
