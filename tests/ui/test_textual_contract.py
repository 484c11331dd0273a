"""What `gmscreen/ui/terminal/` assumes of Textual's (and Rich's) private insides, one test each.

Nothing else in gmscreen names a private Textual or Rich name (the last tests check that). A
Textual upgrade that renames, moves or reshapes one of these fails here, in the test named
after it, rather than somewhere in the screen; `GMSCREEN_PLAIN_TEXTUAL=1` then runs the
screen on stock Textual until the package is brought up to date.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

TERMINAL = Path(__file__).resolve().parents[2] / "gmscreen" / "ui" / "terminal"
UI = TERMINAL.parent


def resolve(path: str) -> Any:
    """`module:Name.attr` -> the object."""
    module, _, names = path.partition(":")
    found: Any = importlib.import_module(module)
    for name in names.split(".") if names else ():
        found = inspect.getattr_static(found, name) if inspect.isclass(found) else getattr(found, name)
        if isinstance(found, (staticmethod, classmethod)):
            found = found.__func__
    return found


# Functions and methods called or overridden: (where, its parameters' names, a coroutine?).
SIGNATURES = [
    # driver.py: the terminal's input thread, rebuilt
    ("textual._loop:loop_last", ["values"], False),
    ("textual._xterm_parser:XTermParser.__init__", ["self", "debug"], False),
    ("textual._xterm_parser:XTermParser.feed", ["self", "data"], False),
    ("textual._xterm_parser:XTermParser.tick", ["self"], False),
    ("textual.drivers.linux_driver:LinuxDriver.run_input_thread", ["self"], False),
    # web_driver.py
    ("textual.drivers.web_driver:WebDriver.__init__", ["self", "app", "debug", "mouse", "size"], False),
    ("textual.drivers.web_driver:WebDriver.on_meta", ["self", "packet_type", "payload"], False),
    ("textual.drivers.web_driver:WebDriver.run_input_thread", ["self"], False),
    # wire.py: partial updates written from the first cell changed
    ("textual._compositor:ChopsUpdate.__init__", ["self", "chops", "spans", "chop_ends"], False),
    ("textual._compositor:ChopsUpdate.render_segments", ["self", "console"], False),
    # repaint.py
    ("textual.screen:Screen._refresh_layout", ["self", "size", "scroll"], False),
    ("textual.widgets:OptionList._get_left_gutter_width", ["self"], False),
    ("textual.app:App._begin_batch", ["self"], False),
    ("textual.app:App._end_batch", ["self"], False),
    # steady.py
    ("textual.screen:Screen._on_resize", ["self", "event"], True),
    ("textual.screen:ModalScreen._on_resize", ["self", "event"], True),
    # footer.py
    ("textual.widgets._footer:FooterKey.__init__",
     ["self", "key", "key_display", "description", "action", "disabled", "tooltip", "classes"], False),
    ("textual.widgets:Footer.bindings_changed", ["self", "screen"], False),
    # toasts.py
    ("textual.app:App._refresh_notifications", ["self"], False),
    # palette.py
    ("textual.command:CommandPalette._start_no_matches_countdown", ["self", "search_value"], False),
    ("textual.command:CommandPalette._stop_no_matches_countdown", ["self"], False),
    # option_list.py
    ("textual.widgets:OptionList._size_updated", ["self", "size", "virtual_size", "container_size", "layout"], False),
    ("textual.widgets:OptionList._update_lines", ["self"], False),
    ("textual.widgets:OptionList._on_resize", ["self"], False),
]


@pytest.mark.parametrize(("where", "parameters", "coroutine"), [pytest.param(*each, id=each[0]) for each in SIGNATURES])
def test_textual_function_keeps_its_signature(where: str, parameters: list[str], coroutine: bool) -> None:
    function = resolve(where)
    assert callable(function), where
    assert list(inspect.signature(function).parameters) == parameters
    assert inspect.iscoroutinefunction(function) == coroutine


@lru_cache(maxsize=None)
def _set_on_self(klass: type) -> frozenset[str]:
    """The names `klass`'s own code sets on `self`."""
    try:
        source = inspect.getsource(klass)
    except (OSError, TypeError):
        return frozenset()
    return frozenset(re.findall(r"\bself\.(\w+)\s*(?::[^=\n]*)?=[^=]", source))


def provides(cls: type, name: str) -> bool:
    """`cls` (or a Textual class it derives from) defines `name`, or sets it on its instances."""
    return any(name in vars(klass) or (klass.__module__.split(".")[0] in ("textual", "rich")
                                       and name in _set_on_self(klass)) for klass in cls.__mro__)


# Attributes read or written: class:name.
ATTRIBUTES = [
    # bindings.py, footer.py: a node's own keys
    "textual.dom:DOMNode._bindings",
    # driver.py, web_driver.py
    "textual.driver:Driver._app",
    "textual.driver:Driver._loop",
    "textual.driver:Driver._debug",
    "textual.drivers.linux_driver:LinuxDriver.fileno",
    "textual.drivers.linux_driver:LinuxDriver.exit_event",
    "textual.drivers.linux_driver:LinuxDriver.attrs_before",
    "textual.drivers.web_driver:WebDriver._size",
    "textual.drivers.web_driver:WebDriver._write",
    "textual.drivers.web_driver:WebDriver.exit_event",
    # wire.py
    "textual._compositor:ChopsUpdate.chops",
    "textual._compositor:ChopsUpdate.chop_ends",
    "textual._compositor:ChopsUpdate.spans",
    # repaint.py
    "textual.screen:Screen._compositor",
    "textual.screen:Screen._update_timer",
    "textual._compositor:Compositor.visible_widgets",
    "textual.widget:Widget._repaint_regions",
    "textual.widgets.option_list:Option._divider",
    "textual.widgets:OptionList._index_to_line",
    "textual.app:App._batch_count",
    # footer.py
    "textual.widgets:Footer._bindings_ready",
    "textual.widgets._footer:FooterKey._disabled",
    "textual.widgets._footer:FooterKey.key",
    # palette.py
    "textual.command:CommandPalette._NO_MATCHES",
    "textual.command:CommandPalette._NO_MATCHES_COUNTDOWN",
    "textual.command:CommandPalette._list_visible",
    "textual.command:CommandPalette._no_matches_timer",
    # option_list.py
    "textual.widgets:OptionList._line_cache",
]


@pytest.mark.parametrize("where", ATTRIBUTES, ids=ATTRIBUTES)
def test_textual_attribute_is_still_there(where: str) -> None:
    owner, _, name = where.rpartition(".")
    cls = resolve(owner)
    assert inspect.isclass(cls)
    assert provides(cls, name), f"{where}: neither defined nor set any more"


# Classes imported from Textual's private modules, and what they must be.
CLASSES = [
    ("textual._parser:ParseError", Exception),
    ("textual._xterm_parser:XTermParser", object),
    ("textual._compositor:ChopsUpdate", object),
    ("textual.widgets._footer:FooterKey", "textual.widget:Widget"),
    ("textual.widgets._footer:FooterLabel", "textual.widget:Widget"),
    ("textual.widgets._footer:KeyGroup", "textual.widget:Widget"),
    ("textual.widgets._toast:ToastRack", "textual.widget:Widget"),
]


@pytest.mark.parametrize(("where", "base"), [pytest.param(*each, id=each[0]) for each in CLASSES])
def test_textual_private_class_is_still_there(where: str, base: Any) -> None:
    cls = resolve(where)
    assert inspect.isclass(cls) and issubclass(cls, resolve(base) if isinstance(base, str) else base)


# The shapes of what is read, on live objects (cheap ones, made without an app).
def _bindings_map() -> None:
    from textual.binding import Binding, BindingsMap
    from textual.widget import Widget

    from gmscreen.ui.terminal.bindings import bindings_of, has_binding, set_bindings

    widget = Widget()
    assert isinstance(widget._bindings, BindingsMap)
    set_bindings(widget, [Binding("s", "pick('s')", "Pick")])
    assert has_binding(widget, "s") and list(bindings_of(widget).key_to_bindings) == ["s"]


def _repaint_regions() -> None:
    from textual.widget import Widget

    assert isinstance(Widget()._repaint_regions, set)


def _option_divider_and_lines() -> None:
    from textual.widgets import OptionList
    from textual.widgets.option_list import Option

    assert Option("x")._divider is False
    option_list = OptionList()
    assert isinstance(option_list._line_cache.lines, list)


def _palette_constants() -> None:
    from textual.command import CommandPalette

    assert isinstance(CommandPalette._NO_MATCHES, str)
    assert isinstance(CommandPalette._NO_MATCHES_COUNTDOWN, (int, float))


def _visible_widgets() -> None:
    from textual._compositor import Compositor

    assert isinstance(inspect.getattr_static(Compositor, "visible_widgets"), property)


def _chops_update() -> None:
    from rich.console import Console
    from textual._compositor import ChopsUpdate
    from textual.strip import Strip

    from gmscreen.ui.terminal.wire import render_from_first_cell

    update = ChopsUpdate([{0: Strip.blank(4)}], [(0, 2, 3)], [[4]])
    assert update.chops and update.chop_ends and update.spans
    assert render_from_first_cell(update, Console(width=4)) == "\x1b[1;3H "     # cells 2 to 3, not 0 to 3


SHAPES = {
    "textual.dom:DOMNode._bindings is a BindingsMap": _bindings_map,
    "textual.widget:Widget._repaint_regions is a set": _repaint_regions,
    "textual.widgets:OptionList._line_cache.lines, Option._divider": _option_divider_and_lines,
    "textual.command:CommandPalette._NO_MATCHES, _NO_MATCHES_COUNTDOWN": _palette_constants,
    "textual._compositor:Compositor.visible_widgets is a property": _visible_widgets,
    "textual._compositor:ChopsUpdate(chops, spans, chop_ends)": _chops_update,
}


@pytest.mark.parametrize("check", list(SHAPES.values()), ids=list(SHAPES))
def test_textual_internal_has_the_shape_assumed(check: Any) -> None:
    check()


# ---------------------------------------------------------------- the quarantine itself

_PRIVATE_MODULE = re.compile(r"\b(?:textual|rich)(?:\.\w+)*\._\w+")


def _private_imports(path: Path) -> set[str]:
    """The private Textual/Rich modules and names `path` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("textual", "rich"):
            if _PRIVATE_MODULE.search(node.module):
                found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name.startswith("_"))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if _PRIVATE_MODULE.search(alias.name))
    return found


def test_every_private_module_the_terminal_package_imports_is_in_this_contract() -> None:
    listed = {where.partition(":")[0] for where, *_rest in SIGNATURES + CLASSES} | {
        where.partition(":")[0] for where in ATTRIBUTES}
    imported = set().union(*(_private_imports(path) for path in TERMINAL.glob("*.py")))
    assert imported and imported <= listed, sorted(imported - listed)


def test_nothing_outside_the_terminal_package_imports_textuals_insides() -> None:
    outside = {str(path.relative_to(UI)): _private_imports(path) for path in UI.rglob("*.py")
               if TERMINAL not in path.parents}
    assert not {name: found for name, found in outside.items() if found}


def _automatic_names() -> set[str]:
    """What Textual's metaclass and `__init_subclass__` put in every subclass's namespace."""
    from textual.app import App
    from textual.screen import ModalScreen
    from textual.widget import Widget

    class ProbeWidget(Widget):
        pass

    class ProbeApp(App):
        pass

    class ProbeScreen(ModalScreen):
        pass

    return {name for probe in (ProbeWidget, ProbeApp, ProbeScreen) for name in vars(probe)} | {"_abc_impl"}


def _reactive_names(cls: type) -> set[str]:
    """What a reactive declared by `cls` keeps its default and value under."""
    from textual.reactive import Reactive

    return {f"{prefix}{name}" for name, value in vars(cls).items() if isinstance(value, Reactive)
            for prefix in ("_default_", "_reactive_")}


def test_nothing_outside_the_terminal_package_overrides_or_reads_textuals_private_names() -> None:
    """For each class of the screen derived from Textual's: no private name of a Textual base
    overridden, none read through `self` or `super()` that gmscreen's own classes do not define."""
    import gmscreen.ui

    automatic = _automatic_names()
    problems: list[str] = []
    for info in pkgutil.walk_packages(gmscreen.ui.__path__, "gmscreen.ui."):
        if info.name.startswith(("gmscreen.ui.terminal", "gmscreen.ui.web")):
            continue
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            theirs = [k for k in cls.__mro__ if k.__module__.split(".")[0] in ("textual", "rich")]
            if not theirs:
                continue
            ours = [k for k in cls.__mro__ if k not in theirs and k is not object]
            own = set().union(*(vars(k) for k in ours))
            for k in ours:
                own |= _set_on_self(k)
            overridden = {name for name in vars(cls) if name.startswith("_") and not name.startswith("__")
                          and name not in automatic | _reactive_names(cls) and any(provides(k, name) for k in theirs)}
            read = set(re.findall(r"(?:self|super\(\))\.(_[a-zA-Z]\w*)", inspect.getsource(cls))) - own
            if overridden or read:
                problems.append(f"{info.name}.{cls.__name__}: overrides {sorted(overridden)}, reads {sorted(read)}")
    assert not problems, problems


def _defined_names(root: Path) -> set[str]:
    """The private names the code under `root` defines (functions, class attributes, names set
    on an object)."""
    found: set[str] = set()
    for path in root.rglob("*.py"):
        text = path.read_text(errors="replace")
        found.update(re.findall(r"\bdef (_[A-Za-z]\w*)", text))
        found.update(re.findall(r"^\s*(_[A-Za-z]\w*)\s*(?::[^=\n]*)?=", text, re.M))
        found.update(re.findall(r"\w\.(_[A-Za-z]\w*)\s*(?::[^=\n]*)?=[^=]", text))
        found.update(re.findall(r"\w\.(_[A-Za-z]\w*)\s*,[^=\n]*=[^=]", text))     # a, b = ...
    return found


def test_nothing_outside_the_terminal_package_names_a_private_textual_attribute() -> None:
    """Any `x._name` in the screen's code outside the package, where `_name` is one of Textual's
    or Rich's and gmscreen defines no such name of its own."""
    import rich
    import textual

    theirs = _defined_names(Path(textual.__file__).parent) | _defined_names(Path(rich.__file__).parent)
    ours = _defined_names(UI.parent)
    found = []
    for path in UI.rglob("*.py"):
        if TERMINAL in path.parents:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            names = set(re.findall(r"\w\.(_[A-Za-z]\w*)", line.split("#")[0])) & theirs
            if names - ours:
                found.append(f"{path.relative_to(UI)}:{number}: {sorted(names - ours)}")
    assert not found, found
