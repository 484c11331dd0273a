"""The `gmscreen` command, and `python -m gmscreen`.

The collector is paused from the first import: start-up builds objects that live all session
(Textual's styles, the rules tables, the campaign), and scanning them while they are made
costs a tenth of the time to the first frame. The screen turns it back on once its first
frame is out (`gmscreen.ui.run`); every other command, once its arguments are read."""

from __future__ import annotations

import gc


def main() -> int:
    paused = gc.isenabled()
    gc.disable()
    try:
        from gmscreen.cli import main as run

        return run(gc_paused=paused)
    finally:
        if paused:
            gc.enable()


if __name__ == "__main__":
    raise SystemExit(main())
