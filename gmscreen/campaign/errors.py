"""Problems found in a campaign file, reported as FILE:LINE: key.path: what was expected."""

from __future__ import annotations


from gmscreen.i18n import _
from gmscreen.rules.records import record


@record(frozen=True)
class Problem:
    file: str
    path: str            # dotted key path ("characters[2].sheet.voies.peur"), "" for the whole file
    message: str         # what was expected
    line: int | None = None
    warning: bool = False

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        key = f" {self.path}:" if self.path else ""
        kind = " " + _("warning:") if self.warning else ""
        return f"{where}:{kind}{key} {self.message}"


class CampaignError(Exception):
    """A campaign that cannot be loaded or saved; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class CampaignLocked(Exception):
    """Another gmscreen holds the campaign's lock; `holder` says who (pid, host)."""

    def __init__(self, path: str, holder: str) -> None:
        self.path = path
        self.holder = holder
        super().__init__(_("{path} is open in another gmscreen ({holder})").format(path=path, holder=holder))
