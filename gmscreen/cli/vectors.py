"""`gmscreen vectors FILE…`: a game's golden vectors checked through `resolve`, what differs printed.

Exit 0 when every entry comes out as written, 1 when one differs, 2 for a file that is not a
vector file or a usage error. The checks are `gmscreen.rules.vectors`'; the format is
`gmscreen/docs/vectors.md`.
"""

from __future__ import annotations

import sys

from gmscreen.i18n import _, ngettext

from .argwords import Worded, reworded

PROG = "gmscreen vectors"


class _Usage(Exception):
    pass


class _Parser(Worded):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _Usage(f"{self.prog}: {reworded(message)}")


def cmd_vectors(argv: list[str]) -> int:
    from gmscreen.rules.vectors import VectorFileError, check_file

    parser = _Parser(prog=PROG, description=_("Check a game's golden vectors through resolve and print "
                                              "what differs (format: gmscreen/docs/vectors.md)."))
    parser.add_argument("files", nargs="+", metavar="FILE", help=_("a vector file (TOML)"))
    try:
        ns = parser.parse_args(argv)
    except _Usage as error:
        print(error, file=sys.stderr)
        return 2
    status = 0
    for path in ns.files:
        try:
            count, differences = check_file(path)
        except VectorFileError as error:
            print(f"{PROG}: {error}", file=sys.stderr)
            status = 2
            continue
        for difference in differences:
            print(f"{path}: {difference.case}: {difference.text}")
        wrong = len({d.case for d in differences})
        if wrong:
            status = max(status, 1)
            print(ngettext("{file}: {wrong} of {n} entry differs", "{file}: {wrong} of {n} entries differ",
                           count).format(file=path, wrong=wrong, n=count))
        else:
            print(ngettext("{file}: {n} entry checked, as written", "{file}: {n} entries checked, all as written",
                           count).format(file=path, n=count))
    return status
