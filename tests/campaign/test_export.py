"""Markdown export: notes and the roll log by session, masked secrets, literal text."""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt

from _store_helpers import mir_campaign, mir_result
from gmscreen.campaign.export import escape_block, escape_inline, export_markdown
from gmscreen.campaign.model import RollRecord
from gmscreen.rules import resolve

MD = MarkdownIt("commonmark").enable("table").enable("strikethrough")


def roll(seq, session=1, *, who="Alexis", line="alexis tir sd2", gm_only=False, revealed=False, hidden=False,
         seed=None, request=None, result=None, time=None):
    if result is None:
        request, result = mir_result(seed or seq, hidden=hidden)
    return RollRecord(seq, time or f"2025-03-0{session}T21:{seq % 60:02d}:00+01:00", session, who, line,
                      request or {}, result, gm_only, revealed, seed)


def rows(markdown: str) -> list[list[str]]:
    """Table body rows as rendered cells (text only)."""
    out = []
    for tr in re.findall(r"<tr>(.*?)</tr>", MD.render(markdown), re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        if cells:
            out.append([html.unescape(re.sub(r"<[^>]+>", "", c)) for c in cells])
    return out


def test_header_notes_and_sessions_in_order():
    campaign = mir_campaign(2)
    campaign.characters[1].notes = "   "
    text = export_markdown(campaign, [roll(1, 1), roll(2, 1), roll(3, 2), roll(4, 3, time="pas une date")])
    assert text.startswith("# Campagne d'essai\n\nMIR (`mir`) · session en cours : 2 · 4 jets\n")
    assert "## Notes\n\nDes notes\\\nsur deux lignes\n" in text
    assert "### Personnage 0\n" in text and "### Personnage 1\n" not in text      # blank notes skipped
    assert text.index("### Session 1 — 2025-03-01") < text.index("### Session 2 — 2025-03-02") \
        < text.index("### Session 3\n")
    table = rows(text)
    assert [r[0] for r in table] == ["1", "2", "3", "4"]
    assert all(len(r) == 6 for r in table)
    assert table[0][1] == "21:01" and table[3][1] == "pas une date"


def test_a_row_reads_in_the_games_words():
    request, result = mir_result(3)
    assert result["successes"] == 3 and result["dice"] == [3, 7, 5, 8, 8]
    (row,) = rows(export_markdown(mir_campaign(1), [roll(1, request=request, result=result)]))
    assert row == ["1", "21:01", "Alexis", "alexis tir sd2", "3 7 5 8 8", "réussite — 3 succès pour SD 2 · marge +1"]
    text = export_markdown(mir_campaign(1), [roll(1, request=request, result=result)])
    assert "| 3 **7** 5 **8** **8** |" in text                                  # counted dice in bold


def test_opposed_rolls_name_both_sides():
    request = {"system": "mir", "kind": "opposed", "actor_pool": 3, "opponent_pool": 3,
               "actor_dice": [7, 8, 1], "opponent_dice": [2, 3, 12]}
    result = resolve(request)
    (row,) = rows(export_markdown(mir_campaign(1), [roll(1, request=request, result=result)]))
    assert row[4] == "acteur : 7 8 1 · opposant : 2 3 12!"
    assert row[5].startswith("l'acteur l'emporte")


def test_gm_only_rolls_are_masked_until_revealed():
    secret = roll(1, who="Garde", line="garde instinct sd3", gm_only=True)
    shown = roll(2, who="Garde", line="garde vigilance sd2", gm_only=True, revealed=True)
    text = export_markdown(mir_campaign(1), [secret, shown])
    masked, revealed = rows(text)
    assert masked == ["1", "21:01", "—", "jet secret du MJ", "—", "—"]
    assert "Garde" not in text.split("| 1 |")[1].split("\n")[0] and "instinct" not in text
    assert revealed[2:4] == ["Garde", "garde vigilance sd2"] and revealed[5].endswith("(jet secret du MJ, révélé)")
    everything = rows(export_markdown(mir_campaign(1), [secret, shown], reveal_all=True))
    assert everything[0][3] == "garde instinct sd3" and "(jet secret du MJ)" in everything[0][5]


def test_secret_difficulty_shows_the_outcome_not_what_was_needed():
    hidden = roll(1, line="loriane eloquence sd3", hidden=True, seed=3)
    (row,) = rows(export_markdown(mir_campaign(1), [hidden]))
    assert row[3] == "difficulté secrète" and row[5] == "réussite (difficulté secrète)" and "SD" not in row[5]
    hidden.revealed = True
    (row,) = rows(export_markdown(mir_campaign(1), [hidden]))
    assert row[3] == "loriane eloquence sd3" and "SD 2" in row[5] and row[5].endswith("(difficulté secrète, révélée)")


def test_typed_text_shows_literally():
    campaign = mir_campaign(1)
    campaign.name = "La *campagne* <b>"
    campaign.notes = "# pas un titre\n- pas une liste\n1. pas numéroté\n    pas du code\n<script>x</script> & [lien](u)\n\n" \
                     "---\nfin_de_ligne\\"
    campaign.characters[0].name = "Bob | le <i>Rouge</i>"
    campaign.characters[0].notes = "> pas une citation\n+ plus\n=== souligné"
    rec = roll(1, who="Bob | *le Rouge*", line="bob `tir` | sd2\nligne ~~deux~~")
    text = export_markdown(campaign, [rec])
    page = MD.render(text)
    assert page.count("<h1>") == 1 and "<h1>La *campagne* &lt;b&gt;</h1>" in page
    assert "<ul>" not in page and "<ol>" not in page and "<pre>" not in page and "<blockquote>" not in page
    assert "<script>" not in page and "<a " not in page and "<hr" not in page and "<i>" not in page
    assert "<h2>Notes</h2>" in page and page.count("<h2>") == 2 and "<h3>Bob | le &lt;i&gt;Rouge&lt;/i&gt;</h3>" in page
    body = html.unescape(re.sub(r"<[^>]+>", "", page))
    for line in ("# pas un titre", "- pas une liste", "1. pas numéroté", "<script>x</script> & [lien](u)", "---",
                 "fin_de_ligne\\", "> pas une citation", "+ plus", "=== souligné"):
        assert line in body, line
    (row,) = rows(text)
    assert row[2] == "Bob | *le Rouge*" and row[3] == "bob `tir` | sd2 ligne ~~deux~~"


def test_escape_helpers():
    assert escape_inline("a|b*c_d") == "a\\|b\\*c\\_d"
    assert escape_block("1) un\n2. deux\n\n  - trois") == "1\\) un\\\n2\\. deux\n\n\u00a0\u00a0\\- trois"


def test_results_the_system_cannot_describe_still_export():
    weird = RollRecord(1, "2025-03-01T20:00:00+01:00", 1, "A", "a", {}, {"outcome": "success", "dice": [7, 12]})
    broken = RollRecord(2, "2025-03-01T20:01:00+01:00", 1, "B", "b", {},
                        {"kind": "extended", "outcome": "failure", "rolls": [[1, 2], [3]]})
    unknown = RollRecord(3, "2025-03-01T20:02:00+01:00", 1, "C", "c", {}, {"winner": "tie"})
    campaign = mir_campaign(1)
    one, two, three = rows(export_markdown(campaign, [weird, broken, unknown]))
    assert one[5].startswith("réussite")
    assert two[4] == "rolls : 1 2 3" and two[5] == "échec"
    assert three[5] == "égalité"
    campaign.system = "nosuchsystem"
    (row,) = rows(export_markdown(campaign, [weird]))
    assert row[4] == "dice : 7 12" and row[5] == "réussite"      # the key, said in the language


def test_empty_log():
    campaign = mir_campaign(1, notes="")
    campaign.characters[0].notes = ""
    text = export_markdown(campaign, [])
    assert "## Notes" not in text and text.rstrip().endswith("Aucun jet enregistré.")


# ---------------------------------------------------------------- in English


def test_the_export_speaks_english_when_english_is_chosen(english):
    """Headings, the table header, the legend, the results and the masks in English; what
    people typed and the game's own words (SD, names, notes) as written."""
    request, result = mir_result(3)
    campaign = mir_campaign(1)
    text = export_markdown(campaign, [roll(1, request=request, result=result), roll(2, gm_only=True),
                                      roll(3, hidden=True, seed=5)])
    assert text.startswith("# Campagne d'essai\n\nMIR (`mir`) · current session: 2 · 3 rolls\n")
    assert "## Notes\n\nDes notes\\\nsur deux lignes\n" in text and "## Roll log\n" in text
    assert "Dice: **7** counted, **12!** critical, _1_ fumble" in text
    assert "| # | Time | Who | Roll | Dice | Result |" in text and "### Session 1" in text
    first, secret, hidden = rows(text)
    assert first[5] == "success — 3 successes for SD 2 · margin +1"
    assert secret[3] == "secret GM roll" and hidden[3] == "secret difficulty"
    for french in ("Journal", "Heure", "réussite", "marge", "jet secret", "session en cours", "Dés :"):
        assert french not in text, french
    assert export_markdown(campaign, []).rstrip().endswith("No roll recorded.")


def test_the_export_command_takes_the_language_before_the_subcommand(tmp_path, capsys):
    """`gmscreen --lang en export FILE`: the same document, in English (a real file on disk)."""
    from _store_helpers import copy_sample
    from gmscreen import cli

    path = copy_sample(tmp_path)
    assert cli.main(["--lang", "en", "export", str(path)]) in (0, None)
    out = capsys.readouterr().out
    assert "· current session: " in out and "## Notes" in out and "session en cours" not in out
