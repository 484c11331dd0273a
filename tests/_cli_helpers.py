"""Running `gmscreen` in-process and checking its one-line errors, for the command-line tests."""

from __future__ import annotations

from gmscreen import cli


def run(capsys, *args: str) -> tuple[int, str, str]:
    """`gmscreen ARGS` in this process: its exit status, stdout and stderr."""
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, out: str, err: str, *words: str) -> None:
    """Exit status 2, nothing on stdout, one line on stderr with each of `words`, no traceback."""
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)
