"""The player view (`gmscreen players`) against a session played by other real processes.

The view runs as the real program in a pseudo-terminal; the GM's side is `gmscreen line`,
`gmscreen turn` and small Python processes opening the campaign as the GM's screen does.
Each of them must find the campaign free (the view never takes the lock), and the view's
reading must leave every file as it was (bytes and mtimes). The same view in Pilot checks
exactly what each pane says; the GM's roster key `H` hides a character from it.
"""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import textwrap
from pathlib import Path

from _pilot import press, ready, screen_text
from _pty import REPO, drain, environment, read_until, stop, wait

from gmscreen.campaign import load_campaign, open_session
from gmscreen.campaign.lock import lock_path
from gmscreen.play.player_view import CampaignWatch
from gmscreen.ui import GMScreenApp
from gmscreen.ui.players.app import PlayersApp
from gmscreen.ui.widgets.roster.pane import RosterPane

APPEARS = 2.5       # s: the view looks every 0.3 s; the rest is room for a busy machine


def files_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir()) if p.is_file()}


def start_view(campaign: Path, tmp_path: Path, *args: str,
               stdin: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """`gmscreen players CAMPAIGN` on a 100×30 pty (`stdin`: another standard input)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = environment(tmp_path) | {"COLUMNS": "100", "LINES": "30"}
    process = subprocess.Popen([sys.executable, "-m", "gmscreen", "players", str(campaign), *args], cwd=REPO,
                               env=env, stdin=slave if stdin is None else stdin, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    return process, master


def gm(tmp_path: Path, *args: str) -> None:
    """One GM command as its own process (`gmscreen line ...`, `gmscreen turn ...`): it must find
    the campaign free and succeed."""
    done = subprocess.run([sys.executable, "-m", "gmscreen", *args], cwd=REPO, env=environment(tmp_path),
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")


def gm_python(tmp_path: Path, campaign: Path, code: str) -> None:
    """The GM's session in another process (`session` opened with the lock, saved, closed)."""
    script = textwrap.dedent("""
        import sys
        from gmscreen.campaign import open_session
        session = open_session(sys.argv[1], if_locked="raise")
        try:
        {code}
            session.save_now()
        finally:
            session.close()
    """).format(code=textwrap.indent(textwrap.dedent(code), "    "))
    done = subprocess.run([sys.executable, "-c", script, str(campaign)], cwd=REPO, env=environment(tmp_path),
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")


def mark_secret_rolls(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "config.toml").write_text("[players]\nmark_secret_rolls = true\n", encoding="utf-8")


def test_the_view_follows_other_processes_shows_only_what_players_may_see_and_writes_nothing(
        campaign_file, tmp_path: Path) -> None:
    campaign = campaign_file("mir")
    mark_secret_rolls(tmp_path)
    process, master = start_view(campaign, tmp_path)
    try:
        read_until(master, "Les geôles de Vaskov".encode(), 30)
        read_until(master, "au tour du garde de la porte".encode(), 5)
        drain(master, 0.5)
        assert not lock_path(campaign).exists()

        def after(*command: str, python: str | None = None) -> dict[str, tuple[bytes, int]]:
            if python is not None:
                gm_python(tmp_path, campaign, python)
            else:
                gm(tmp_path, *command)
            return files_of(tmp_path)

        # A roll: on the view within a look or two, the view's reading writing nothing.
        written = after("line", str(campaign), "loriane eloquence sd3")
        read_until(master, b"loriane eloquence sd3", APPEARS)
        drain(master, 0.5)
        assert files_of(tmp_path) == written

        # A GM-only roll: its mark only, never its line (nor, below, its dice).
        written = after("line", str(campaign), "alexis force sd3 mj")
        seen = read_until(master, b"JET SECRET DU MJ", APPEARS) + drain(master, 0.5)
        assert b"alexis force" not in seen
        assert files_of(tmp_path) == written

        # Revealed later: it shows then.
        written = after(python="session.reveal_roll(2)")
        read_until(master, b"alexis force sd3 mj", APPEARS)
        drain(master, 0.5)
        assert files_of(tmp_path) == written

        # `n`, as `gmscreen turn` moves it: the current actor follows.
        written = after("turn", str(campaign), "next")
        read_until(master, "au tour d'Alexis".encode(), APPEARS)
        drain(master, 0.5)
        assert files_of(tmp_path) == written

        # An NPC the GM hides leaves the turn order (the next roll says the view has looked).
        written = after(python="""
            index = next(i for i, c in enumerate(session.campaign.characters) if c.id == "garde")
            with session.edit("hide") as b:
                b.set(("characters", index, "hidden"), True)
        """)
        written = after("line", str(campaign), "callia instinct sd2")
        seen = read_until(master, b"callia instinct sd2", APPEARS) + drain(master, 0.5)
        assert b"garde de la porte" not in seen
        assert files_of(tmp_path) == written
        assert not lock_path(campaign).exists()

        os.write(master, b"q")
        assert wait(process, master, 10) == 0
        assert files_of(tmp_path) == written
    finally:
        stop(process, master)


def test_a_missing_or_invalid_campaign_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("format = 1\nname = \"x\"\nsystem = \"nope\"\n", encoding="utf-8")
    for target, words in ((tmp_path / "none.toml", "introuvable"), (bad, "system"), (tmp_path, "pas un fichier")):
        done = subprocess.run([sys.executable, "-m", "gmscreen", "players", str(target)], cwd=REPO,
                              env=environment(tmp_path), capture_output=True, timeout=60)
        lines = done.stderr.decode().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and words in lines[0], lines
        assert lines[0].startswith("gmscreen players") and done.stdout == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


async def test_each_pane_says_what_players_may_see(campaign_file, tmp_path: Path) -> None:
    campaign = campaign_file("tedeum")
    session = open_session(campaign)
    try:
        watch = CampaignWatch(campaign)
        watch.open()
        app = PlayersApp(watch)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            text = "\n".join(screen_text(app))
            assert "Pas encore de jet" in text and "Ordre du tour" in text
            from gmscreen import rules

            request = {"system": "tedeum", "kind": "simple", "die": 12, "negative_die": 6, "difficulty": 13,
                       "hidden": True}
            session.record_roll(who="Louvensac", line="louvensac entregent 13 cache", request=request,
                                result=rules.resolve(request, seed=2))
            for _ in range(40):
                await pilot.pause(0.05)
                if app.shown is not None and app.shown.rolls:
                    break
            text = "\n".join(screen_text(app))
            shown = app.shown.rolls[-1]
            assert "Louvensac" in text and shown.outcome.upper() in text
            assert "13" not in shown.detail + shown.test and "cache" not in text
        watch.close()
    finally:
        session.close()


async def test_h_on_the_roster_hides_a_character_from_the_players_undoably_and_saved(campaign_file) -> None:
    campaign = campaign_file("mir")
    app = GMScreenApp(campaign)
    async with app.run_test(size=(160, 32)) as pilot:       # room on the footer for the roster's every key
        await ready(app, pilot)
        app.select_character("garde")
        app.query_one(RosterPane).table.focus()
        await pilot.pause()
        assert any(k.key == "H" for k in app.query("FooterKey")), "H is not in the footer"
        await press(pilot, "H")
        assert app.session.campaign.character("garde").hidden
        watch = CampaignWatch(campaign)
        watch.open()
        assert "Le garde de la porte" not in [e.name for e in watch.state().order]
        await press(pilot, "ctrl+z")
        assert not app.session.campaign.character("garde").hidden
        await press(pilot, "H")
        await press(pilot, "q")
        watch.close()
    assert load_campaign(campaign).character("garde").hidden


def test_the_view_ends_on_sigterm_and_at_the_end_of_its_input(campaign_file, tmp_path: Path) -> None:
    campaign = campaign_file("eclats")
    before = files_of(tmp_path)
    process, master = start_view(campaign, tmp_path)
    try:
        read_until(master, b"Quitter", 30)
        process.terminate()
        assert wait(process, master, 10) == 128 + 15
    finally:
        stop(process, master)
    process, master = start_view(campaign, tmp_path, stdin=subprocess.DEVNULL)
    try:
        assert wait(process, master, 30) == 0
    finally:
        stop(process, master)
    assert files_of(tmp_path) == before
