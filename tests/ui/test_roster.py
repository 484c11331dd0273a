"""Roster pane through real key presses on the samples: selection, sheet, form (hostile text
kept), edits, duplicates, resources, undo."""

from __future__ import annotations

import dataclasses

from textual.widgets import DataTable

from gmscreen.play.game import GameTable
from gmscreen.play.games import table_for
from gmscreen.play.sheet_look import FAINT, STRONG, Glance, SheetLook, stat_value
from gmscreen.rules import registry
from gmscreen.ui import GMScreenApp
from gmscreen.ui.screens.edit_character import EditCharacterScreen
from gmscreen.ui.screens.roster_dialogs import ChoiceScreen, ConfirmScreen, PromptScreen
from gmscreen.ui.screens.roster_sheet import SheetScreen
from gmscreen.ui.widgets.roster.pane import FIRST_ROWS, RosterPane, copy_names
from gmscreen.ui.widgets.roster.sheet import glance, glance_header, glance_legend, resource_of, sheet_content

from _pilot import ready


def roster_pane() -> RosterPane:
    return RosterPane(id="roster")


def make(pane_host, session):
    app = pane_host(session, roster_pane)
    notes: list[str] = []
    app.warn = lambda message, severity="warning": notes.append(message)
    return app, notes


def rows(app) -> list[str]:
    table = app.query_one(RosterPane).table
    return [" | ".join(str(c) for c in table.get_row_at(r)) for r in range(table.row_count)]


async def test_glance_and_selection_mir(pane_app):
    async with pane_app("mir", roster_pane) as (session, app, pilot, _):
        shown = rows(app)
        assert shown[0] == "PJ | Alexis | Ébloui par la… (1) | Hé2 Se2 Es1↓ Pe3↑ Do2 Me1↓"
        assert "Bl1" in shown[2] and "Fièvre grise" in shown[2]          # Callia: wound and condition
        assert shown[3].startswith("PNJ | Le garde de la porte")
        assert app.selected_id == "alexis"
        await pilot.press("down", "down")
        await pilot.pause()
        assert app.selected_id == "callia"
        app.select_character("geolier")
        await pilot.pause()
        assert app.query_one(RosterPane).current_id() == "geolier"


async def test_glance_other_systems(open_sample):
    expected = {
        "magisphere": ("shady", "Imp 2/3 Pui8 Agi12 PRE11"),
        "tedeum": ("louvensac", "Prov D6 XP 0 Pu6 Co8 Ad8 Se10 Sa8 En12"),
        "eclats": ("ysaure", "Ev3 Ag1 Fo0 En1 Be2 Pe2 In2 Em3 Ru1 Ch2"),
        "arpeges": ("thibault", "Co0 Ag+1 Itu+2 Itl+1 | Pu0 Ré\u22121 Ma+3 Pr+1"),
    }
    for system, (char_id, line) in expected.items():
        session = open_sample(system)
        assert glance(session.system, session.campaign.character(char_id)).plain == line
    mir = open_sample("mir")
    loriane = mir.campaign.character("loriane")
    trauma, lie = table_for("mir").sheet.marks(mir.system, loriane.sheet)
    assert (trauma, lie) == (["secret", "peur"], ["heritage"])
    # Trauma (↓) and Mensonge (↑) marked on the Voies themselves; --ascii marks them - and +
    assert glance(mir.system, loriane).plain == "Hé3↑ Se1↓ Es2 Pe1↓ Do2 Me2"
    assert glance(mir.system, loriane, ascii=True).plain == "Hé3+ Se1- Es2 Pe1- Do2 Me2"
    callia = mir.campaign.character("callia")
    assert glance(mir.system, callia).plain == "Bl1 Hé1↓ Se2 Es2 Pe1↓ Do1↓ Me3↑"


async def test_sheet_modal_and_edit_form(pane_app):
    async with pane_app("mir", roster_pane) as (session, app, pilot, _):
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)
        text = sheet_content(session.system, session.campaign.character("alexis")).plain
        assert "Trauma (Voie la plus faible) : Espoir, Mensonge" in text and "Tir 3" in text
        await pilot.press("e")                       # from the sheet straight to the form
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EditCharacterScreen)
        voie = form.query_one("#stat-voies-peur")
        voie.value = "9"                             # out of 1–6: refused, shown in the form
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form and voie.has_class("-invalid")
        assert "Peur : attendu un entier de 1 à 6, pas 9" in str(form.query_one("#form-errors").render())
        voie.value = "4"
        form.query_one("#f-name").value = "Alexis le Brave"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EditCharacterScreen)
        alexis = session.campaign.character("alexis")
        assert alexis.name == "Alexis le Brave" and alexis.sheet["voies"]["peur"] == 4
        assert session.last_label == "Fiche : Alexis le Brave"
        app.table.undo()
        await pilot.pause()
        alexis = session.campaign.character("alexis")
        assert alexis.name == "Alexis" and alexis.sheet["voies"]["peur"] == 3
        assert "Alexis" in rows(app)[0]


async def test_edit_free_groups_magisphere(pane_app):
    async with pane_app("magisphere", roster_pane) as (session, app, pilot, _):
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        skills = form.query_one("#group-skills")
        assert "PRE : Négociation = 3" in skills.text
        skills.text = "pre : Négociation = 5\nAgilité : Discrétion = 2\nInconnue : Vol = 1\nPRE : Chant = 99"
        await pilot.press("ctrl+s")
        await pilot.pause()
        errors = str(form.query_one("#form-errors").render())
        assert "'Inconnue' n'est pas parmi" in errors and "Chant attend un entier de 0 à 20, pas 99" in errors
        skills.text = "pre : Négociation = 5\nAgilité : Discrétion = 2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert session.campaign.character("shady").sheet["skills"] == {"PRE": {"Négociation": 5},
                                                                       "Agilité": {"Discrétion": 2}}


async def test_add_duplicate_remove(pane_app):
    async with pane_app("mir", roster_pane) as (session, app, pilot, notes):
        for _ in range(3):
            await pilot.press("down")
        assert app.selected_id == "garde"
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        await pilot.press("backspace", "3", "enter")
        await pilot.pause()
        names = [c.name for c in session.campaign.characters]
        assert names[3:7] == ["Le garde de la porte", "Le garde de la porte 2", "Le garde de la porte 3",
                              "Le garde de la porte 4"]
        ids = [c.id for c in session.campaign.characters][4:7]
        assert len(set(ids)) == 3 and all(i.startswith("le-garde-de-la-porte") for i in ids)
        assert session.campaign.characters[4].sheet == session.campaign.characters[3].sheet
        app.table.undo()
        await pilot.pause()
        assert len(session.campaign.characters) == 5
        # add a new NPC through the form
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, EditCharacterScreen)
        await pilot.press(*"Orc [A]", "enter")
        await pilot.pause()
        orc = session.campaign.characters[-1]
        assert orc.name == "Orc [A]" and orc.side == "npc" and orc.id == "orc-a"
        assert orc.sheet["voies"] == {k: 1 for k in ("heritage", "secret", "espoir", "peur", "dogme", "mensonge")}
        assert any(r.startswith(("PNJ | Orc [A] | ", "○ | Orc [A] | ")) for r in rows(app))
        # remove the garde: leaves the initiative order too, turn follows the current actor
        app.select_character("garde")
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("o")
        await pilot.pause()
        assert session.campaign.character("garde") is None
        enc = session.campaign.encounter
        assert [e.id for e in enc.entries] == ["callia", "alexis", "loriane", "chien"] and enc.turn == 1
        app.table.undo()
        await pilot.pause()
        assert session.campaign.character("garde") is not None and len(enc.entries) == 5


async def test_resources_and_conditions(pane_app):
    async with pane_app("magisphere", roster_pane) as (session, app, pilot, notes):
        shady = lambda: session.campaign.character("shady")  # noqa: E731
        await pilot.press("+")
        await pilot.pause()
        assert shady().sheet["resources"]["impulsion"] == 3
        await pilot.press("+")                       # at its maximum: refused, said
        await pilot.pause()
        assert shady().sheet["resources"]["impulsion"] == 3 and "déjà au maximum (3)" in notes[-1]
        await pilot.press("-", "-")
        await pilot.pause()
        assert shady().sheet["resources"]["impulsion"] == 1
        app.table.undo()
        await pilot.pause()
        assert shady().sheet["resources"]["impulsion"] == 2
        await pilot.press("c")
        await pilot.pause()
        await pilot.press(*"[/]", "tab", *"Malus 2", "tab", "3", "enter")
        await pilot.pause()
        cond = shady().conditions[-1]
        assert (cond.name, cond.effect, cond.rounds) == ("[/]", "Malus 2", 3)
        assert "[/] (3)" in rows(app)[0]
        await pilot.press("C")                       # two conditions: asks which one
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert [c.name for c in shady().conditions] == ["Ivre"]
        app.table.undo()
        await pilot.pause()
        assert [c.name for c in shady().conditions] == ["Ivre", "[/]"]


async def test_tedeum_providence_steps(pane_app):
    async with pane_app("tedeum", roster_pane) as (session, app, pilot, notes):
        await pilot.press("-")
        await pilot.pause()
        assert session.campaign.character("louvensac").sheet["resources"]["providence"] == 4
        assert session.last_label == "Providence D6 → D4 : Mlle de Louvensac"
        await pilot.press("-", "-")
        await pilot.pause()
        assert session.campaign.character("louvensac").sheet["resources"]["providence"] == 0
        assert "déjà au minimum" in notes[-1]


async def test_new_session_magisphere(pane_app):
    async with pane_app("magisphere", roster_pane) as (session, app, pilot, notes):
        await pilot.press("N")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("o")
        await pilot.pause()
        c = session.campaign
        assert c.session == 3
        assert c.character("shady").sheet["resources"]["impulsion"] == 3
        assert c.character("granok").sheet["resources"]["impulsion"] == 2
        assert "gros-bob" not in [i for i in ("gros-bob",) if "resources" in c.character(i).sheet]
        app.table.undo()
        await pilot.pause()
        assert c.session == 2 and c.character("shady").sheet["resources"]["impulsion"] == 2


async def test_new_session_other_system_and_to_initiative(pane_app):
    async with pane_app("eclats", roster_pane) as (session, app, pilot, notes):
        await pilot.press("+")
        await pilot.pause()
        assert "ne garde pas de ressource" in notes[-1]
        await pilot.press("N", "o", "n")             # no recap of session 4
        await pilot.pause()
        assert session.campaign.session == 5
        app.select_character("meunier")
        await pilot.pause()
        before = len(session.rolls)
        await pilot.press("i")                       # rolled with the campaign's 1d10, logged
        await pilot.pause()
        if len(app.screen_stack) > 1:
            await pilot.press("down", "enter")       # 9 or 10: its slot has passed; the next round
            await pilot.pause()
        entry = next(e for e in session.campaign.encounter.entries if e.character == "meunier")
        assert 1 <= entry.initiative <= 10
        record = session.rolls[-1]
        assert len(session.rolls) == before + 1 and record.who == "Le meunier"
        assert record.result["total"] == entry.initiative and record.line == "initiative 1d10"
        enc = session.campaign.encounter
        assert enc.entries[enc.turn].id == "hantise"   # the current actor stays current
        await pilot.press("i")
        await pilot.pause()
        assert "déjà dans l'ordre" in notes[-1]


def test_copy_names():
    assert copy_names("Garde", 2, {"Garde", "Garde 2"}) == ["Garde 3", "Garde 4"]
    assert copy_names("Orc 4", 1, set()) == ["Orc 5"]


async def test_hostile_names(open_sample, pane_host):
    session = open_sample("arpeges")
    hostile = ["[/]", "[@click=app.quit]", "Orc [A]", "Bob\x1b]2;pwn\x07"]
    with session.edit("hostile") as b:
        for i, name in enumerate(hostile):
            b.set(("characters", i % 3, "name"), name) if i < 3 else b.set(("characters", 0, "notes"), name)
            b.insert(("characters", i % 3, "conditions"), None, {"name": name, "rounds": 2})
    app, _ = make(pane_host, session)
    async with app.run_test() as pilot:
        await pilot.pause()
        shown = "\n".join(rows(app))
        assert "[/]" in shown and "[@click=app.quit]" in shown and "Orc [A]" in shown
        assert "\x1b" not in shown and "\x07" not in shown
        await pilot.press("enter")
        await pilot.pause()
        sheet = str(app.screen.query_one("#sheet").render())
        assert "[/]" in sheet and "\x1b" not in sheet and "Bob\ufffd]2;pwn\ufffd" in sheet
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running


async def test_read_only_changes_nothing(campaign_file, pane_host):
    from gmscreen.campaign import open_session

    path = campaign_file("magisphere")
    session = open_session(path, read_only=True)
    try:
        app, notes = make(pane_host, session)
        async with app.run_test() as pilot:
            await pilot.pause()
            await pilot.press("+", "e", "d", "c")
            await pilot.pause()
            assert not app.screen.is_modal
            assert session.campaign.character("shady").sheet["resources"]["impulsion"] == 2
            assert len(notes) == 4 and all("lecture seule" in n for n in notes)
    finally:
        session.close()


async def test_a_long_roster_draws_a_screenful_first_then_the_rest(open_sample, pane_host):
    """A cast of 60 NPCs: the table gets a screenful before the frame and the rest right
    after; a redraw while the rest is pending neither loses nor doubles a row."""
    session = open_sample("mir")
    guard = session.campaign.characters[-1]
    session.campaign.characters += [dataclasses.replace(guard, id=f"garde-{i}", name=f"Garde {i}")
                                    for i in range(2, 62)]
    total = len(session.campaign.characters)
    app, _ = make(pane_host, session)
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(RosterPane)

        async def settled() -> int:
            """Rows once the rest has come (it comes after a refresh; give it a few)."""
            for _ in range(20):
                await pilot.pause()
                if pane._filling is None:
                    break
            return pane.table.row_count

        assert await settled() == total
        assert rows(app)[-1].startswith("○ | Garde 61")        # not all whole beside "PNJ": a mark
        pane.show_selection("garde-40")
        session.campaign.characters.reverse()                # a new order: the table is redrawn...
        session.campaign.revision += 1
        pane.show_campaign(session)
        assert pane.table.row_count == total                 # ...whole: no emptied table under the GM
        assert pane.current_id() == "garde-40"               # the cursor stayed on its character
        late = RosterPane(id="late")                         # a first draw: a screenful, then the rest
        await app.mount(late)
        late.show_campaign(session)
        assert late.table.row_count == FIRST_ROWS
        session.campaign.characters.reverse()
        session.campaign.revision += 1
        late.show_campaign(session)                          # redrawn before the rest came
        pane = late
        assert await settled() == total                      # the rest, once
        assert len(set(late._ids)) == total


def test_a_games_own_look_is_what_the_roster_and_sheet_show(open_sample):
    """The screen styles what the game's `SheetLook` says (faint dim, strong bold) and knows no
    game: a look registered at run time gives the line, header, notes, legend and resource."""
    eclats = open_sample("eclats")
    group = eclats.system.sheet[0]

    class Look(SheetLook):
        resource_key = (group.key, group.stats[1].key, None)
        glance_title = "Dés"

        def glance(self, system, sheet, *, ascii=False):
            line = Glance()
            line.add("Σ", STRONG)
            line.stat("d", "6", FAINT)
            line.stat("x", "+" if ascii else "↑")
            return line.pieces

        def glance_legend(self, system, sheet, *, ascii=False):
            return [("d", "dés"), ("x", "marque")]

        def value_text(self, group, stat, value):
            return f"{value}d6"

        def group_notes(self, system, group, sheet):
            return [("Total", "7")]

        def sheet_notes(self, system, sheet):
            return ["Trop de dés"]

    system = dataclasses.replace(eclats.system, id="look-test")
    registry.register(registry.Plugin("look-test", system=system, table=GameTable("look-test", sheet=Look())))
    try:
        ch = eclats.campaign.characters[0]
        line = glance(system, ch)
        assert line.plain == "Σ d6 x↑" and glance(system, ch, ascii=True).plain == "Σ d6 x+"
        assert [(line.plain[s.start:s.end], s.style) for s in line.spans] == [("Σ", "bold"), ("d", "dim"),
                                                                             ("6", "dim"), ("x", "dim")]
        assert glance_header(system) == "Dés" and glance_legend(system) == [("d", "dés"), ("x", "marque")]
        text = sheet_content(system, ch).plain
        first = group.stats[0]
        assert f"{first.label} {stat_value(ch.sheet, group, first)}d6" in text
        assert "  Total : 7" in text and "  Trop de dés" in text
        assert "d dés · x marque" in text
        resource = resource_of(system)
        assert resource is not None and resource.key == group.stats[1].key
    finally:
        registry.unregister("look-test")


async def test_duplicated_npcs_with_long_names_stay_apart_in_the_roster(campaign_file) -> None:
    app = GMScreenApp(campaign_file("mir"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("1", *["up"] * 8, "down", "down", "down", "d")   # Le garde de la porte
        await pilot.pause()
        await pilot.press("backspace", "2", "enter")
        await pilot.pause()
        names = [c.name for c in app.session.campaign.characters]
        assert "Le garde de la porte 2" in names and "Le garde de la porte 3" in names
        table = app.pane("roster").query_one("DataTable")
        shown = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        garde = [s for s in shown if s.startswith("Le garde")]
        assert len(garde) == 3 and len(set(garde)) == 3, garde
        assert garde[1].endswith(" 2") and garde[2].endswith(" 3")


async def test_edit_form_shows_escapes_neutralised_and_keeps_them(pane_host, open_sample):
    """An ESC in a name, note or skill from the file never reaches the terminal through the form's
    fields, and saving an untouched field keeps its characters as they were in the file."""
    from gmscreen.campaign.model import Character
    from gmscreen.ui.screens.edit_character import EditCharacterScreen
    from gmscreen.ui.widgets.roster.pane import RosterPane

    session = open_sample("arpeges")
    name, notes, skill = "Bob\x1b]2;pwn\x07", "[red]x[/red]\x1b[2J", "Lame\x1b]2;x\x07"
    session.campaign.characters.insert(0, Character(
        id="bob", name=name, side="npc", notes=notes,
        sheet={"caracteristiques": {"corps": 1, "agilite": 0, "intuition": 0, "intelligence": 0},
               "moyens": {"puissance": 0, "resistance": 0, "manoeuvre": 0, "precision": 0},
               "skills": {skill: 2, "[b]Épée[/b]": 1}}))
    app = pane_host(session, lambda: RosterPane(id="roster"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.select_character("bob")
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EditCharacterScreen)
        fields = [form.query_one("#f-name").value, form.query_one("#f-notes").text,
                  form.query_one("#group-skills").text]
        assert not any("\x1b" in f or "\x07" in f for f in fields)
        assert fields[0] == "Bob\ufffd]2;pwn\ufffd" and "[b]Épée[/b] = 1" in fields[2]
        form.query_one("#stat-caracteristiques-corps").value = "2"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EditCharacterScreen)
        bob = session.campaign.character("bob")
        assert bob.name == name and bob.notes == notes
        assert bob.sheet["skills"] == {skill: 2, "[b]Épée[/b]": 1}
        assert bob.sheet["caracteristiques"]["corps"] == 2


async def test_impulsion_given_to_an_npc_without_a_maximum_shows_no_bogus_cap(campaign_file) -> None:
    app = GMScreenApp(campaign_file("magisphere"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        await pilot.press("1", "down", "down", "down")      # Capitaine Morgane: no Impulsion at all
        await pilot.pause()
        assert app.selected_id == "rival"
        await pilot.press("plus", "plus")
        await pilot.pause()
        rival = next(c for c in app.session.campaign.characters if c.id == "rival")
        assert rival.sheet["resources"] == {"impulsion": 2}
        table = app.pane("roster").query_one(DataTable)
        rows = [" | ".join(str(c) for c in table.get_row_at(r)) for r in range(table.row_count)]
        morgane = next(row for row in rows if "Morgane" in row)
        assert "Imp 2 " in morgane and "2/0" not in morgane   # was "Imp 2/0": 2 above a max of 0


# ---------------------------------------------------------------- gendered labels, English


async def test_tedeum_providence_level_in_the_characters_gender(pane_app, campaign_file):
    """Mlle de Louvensac (gender = "f" in the sample) is a Fille prodigue, the captain (no
    gender) a Pauvre pécheur; the form sets the gender, saved in the file and undone."""
    from gmscreen.campaign import load_campaign

    async with pane_app("tedeum", roster_pane) as (session, app, pilot, notes):
        louvensac = session.campaign.character("louvensac")
        assert louvensac.gender == "f"
        text = sheet_content(session.system, louvensac).plain
        assert "D6 (Fille prodigue)" in text and "Fils prodigue" not in text
        captain = next(c for c in session.campaign.characters if c.gender is None and c.side == "npc")
        assert "D4 (Pauvre pécheur)" in sheet_content(session.system, captain).plain
        await pilot.press("-")                       # a level down: a Pauvre pécheresse
        await pilot.pause()
        assert "D4 (Pauvre pécheresse)" in sheet_content(session.system, session.campaign.character("louvensac")).plain
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EditCharacterScreen)
        gender = form.query_one("#f-gender")
        assert gender.value == "f"
        gender.value = "m"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert session.campaign.character("louvensac").gender == "m"
        assert "D4 (Pauvre pécheur)" in sheet_content(session.system, session.campaign.character("louvensac")).plain
        session.save_now()
        assert load_campaign(session.path).character("louvensac").gender == "m"
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#f-gender").value = "-"     # not said: the key leaves the file
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert session.campaign.character("louvensac").gender is None
        session.save_now()
        assert "gender" not in session.path.read_text(encoding="utf-8").split("[[characters]]")[1]
        app.table.undo()
        app.table.undo()
        await pilot.pause()
        assert session.campaign.character("louvensac").gender == "f"


async def test_the_roster_in_english_keeps_the_games_words(pane_app, english):
    async with pane_app("tedeum", roster_pane, size=(120, 30)) as (session, app, pilot, notes):
        pane = app.query_one(RosterPane)
        assert pane.border_title == "Characters"
        headers = [str(column.label) for column in pane.table.columns.values()]
        assert headers[1:3] == ["Name", "Conditions"] and headers[3] == "Providence · XP"
        text = sheet_content(session.system, session.campaign.character("louvensac")).plain
        assert "D6 (Fille prodigue)" in text                     # the game's own words
        assert "Conditions" in text and "Abbreviations of the table" in text and "États" not in text
        await pilot.press("-", "-", "-")
        await pilot.pause()
        assert notes[-1] == "Providence of Mlle de Louvensac already at the minimum (0)"
        await pilot.press("c")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PromptScreen)
        labels = [str(w.render()) for w in dialog.query(".field-label")]
        assert labels == ["Name", "Effect (in the game's terms, optional)",
                          "Length in rounds (empty: until it is removed)"]
        assert "New condition for Mlle de Louvensac" in str(dialog.query_one("#dialog-title").render())
        assert dialog.query_one("#field-effect").placeholder == "Malus, Bonus…"      # Te Deum's own words
        dialog.query_one("#field-rounds").value = "0"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Length: expected a whole number from 1 to 999, not 0" in str(dialog.query_one("#dialog-error").render())


async def test_remove_dialog_says_de_with_the_name_in_french(pane_app):
    """Names with an article contract: "Retirer quel état du capitaine…", never "de le capitaine"."""
    async with pane_app("tedeum", roster_pane, size=(120, 30)) as (session, app, pilot, notes):
        captain = next(i for i, c in enumerate(session.campaign.characters) if c.name.startswith("le capitaine"))
        with session.edit("états") as b:
            for name in ("Blessé", "Essoufflé"):
                b.insert(("characters", captain, "conditions"), None, {"name": name})
        app.refresh_views()
        app.select_character(session.campaign.characters[captain].id)
        await pilot.pause()
        pane = app.query_one(RosterPane)
        pane.show_selection(session.campaign.characters[captain].id)
        await pilot.pause()
        await pilot.press("C")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        title = str(dialog.query_one("#dialog-title").render())
        assert title == "Retirer quel état du capitaine de Saint-Gelais ?"


async def test_free_text_editor_refuses_an_unknown_stat_before_saving(pane_app):
    """A skill typed under a characteristic or statistic the sheet does not have is refused in
    the form (named, with the ones it has), nothing saved; typed under a known one, it saves."""
    async with pane_app("tedeum", roster_pane, size=(100, 40)) as (session, app, pilot, _):
        before = session.campaign.characters[0].sheet
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        skills = form.query_one("#group-skills")
        skills.focus()
        await pilot.press(*["down"] * 9, "end", "enter", *"Chance : Escrime = 3", "ctrl+s")
        await pilot.pause()
        errors = str(form.query_one("#form-errors").render())
        assert app.screen is form and skills.has_class("-invalid")
        assert "'Chance' n'est pas parmi" in errors and "sensibilite" in errors
        assert session.campaign.characters[0].sheet == before
        await pilot.press("home", *["delete"] * len("Chance"), *"adresse", "ctrl+s")
        await pilot.pause()
        assert not isinstance(app.screen, EditCharacterScreen)
        assert session.campaign.characters[0].sheet["skills"]["adresse"] == {"Escrime": 3}
    async with pane_app("magisphere", roster_pane, size=(100, 40)) as (session, app, pilot, _):
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        form.query_one("#group-stats").focus()          # PRE renamed: its skills have no statistic now
        await pilot.press(*["down"] * 9, "end", *["backspace"] * len("PRE = 11"), *"Présence = 11", "ctrl+s")
        await pilot.pause()
        assert app.screen is form
        assert "'PRE' n'est pas parmi : Agilité, Présence, Puissance" in str(form.query_one("#form-errors").render())
        assert session.campaign.character("shady").sheet["stats"]["PRE"] == 11
