"""A widget's keys changed while it runs: Textual builds a node's keys once, from its class's
`BINDINGS`, into the private `_bindings` map, and offers no public way to change them later.
The choice prompt's keys are its options' own (a game may key an option `s`), so its map is
rebuilt for each prompt here, and read for the keys screen and the palette.
`tests/ui/test_textual_contract.py` checks the map's shape."""

from __future__ import annotations

from typing import Iterable

from textual.binding import BindingsMap, BindingType
from textual.dom import DOMNode


def set_bindings(node: DOMNode, bindings: Iterable[BindingType]) -> None:
    """`node` answers exactly `bindings` from now on (the keymap still applies to their ids)."""
    node._bindings = BindingsMap(bindings)


def has_binding(node: DOMNode, key: str) -> bool:
    """`key` is one of `node`'s own keys."""
    return key in node._bindings.key_to_bindings


def bindings_of(node: DOMNode) -> BindingsMap:
    """A copy of `node`'s own keys as it answers them (a keymap may be applied to the copy)."""
    return node._bindings.copy()


def has_bindings(node: DOMNode) -> bool:
    """`node` answers keys of its own."""
    return bool(node._bindings.key_to_bindings)
