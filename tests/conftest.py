"""Setup shared by every test: each test starts in French, the screen's default language; no
test (nor a process it starts) reads the GM's own config.toml; the compiled code is kept from
one run to the next even where bytecode is not written beside it."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import sys
import tempfile

# The GM's own config.toml (a language, a keymap, recent campaigns) would change what the
# commands say: every test, and every process one starts, gets an empty config folder of its
# own, as on a fresh machine (tests/ui/conftest.py gives each screen test its own too).
os.environ["GMSCREEN_CONFIG_DIR"] = tempfile.mkdtemp(prefix="gmscreen-test-config-")
atexit.register(shutil.rmtree, os.environ["GMSCREEN_CONFIG_DIR"], ignore_errors=True)

# With PYTHONDONTWRITEBYTECODE set, every run compiles gmscreen and rewrites the asserts of every
# test module afresh, in each xdist worker: ~5 s of CPU per worker (half a minute for the six of
# the README's command on two cores). Kept in the user's cache folder, never beside the code: the
# tree stays as clean as the setting asks. Before any of our imports (the modules imported from
# here on are kept); child processes keep the setting as it is.
if sys.dont_write_bytecode and sys.pycache_prefix is None:
    _cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    sys.pycache_prefix = os.path.join(_cache, "gmscreen", "test-pycache")
    sys.dont_write_bytecode = False

# The suite builds and tears down hundreds of screens in each process, which no GM session does:
# with the default thresholds (700, 10, 10) the cycle collector took close to a tenth of the CPU
# of the screen and luck tests (2.3 s of 25), about half that with these (a few percent more
# memory). What is collected, and when a test asks for it (gc.collect), is the same.
gc.set_threshold(10_000, 10, 10)

import pytest  # noqa: E402

from gmscreen import i18n  # noqa: E402


@pytest.fixture(autouse=True)
def french():
    """The language is process-wide: a test that switches it leaves French behind."""
    i18n.set_language(i18n.DEFAULT)
    yield
    i18n.set_language(i18n.DEFAULT)


@pytest.fixture
def english():
    """Run the test in English (reset to French after it by `french`)."""
    i18n.set_language("en")
    yield
