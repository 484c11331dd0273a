"""Setup shared by every test: each test starts in French, the screen's default language."""

from __future__ import annotations

import pytest

from gmscreen import i18n


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
