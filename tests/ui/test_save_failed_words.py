"""A save that fails says what, by the names the GM knows (the character, the condition), not
a key path of the file; the change stays in the journal."""

from __future__ import annotations

from _pilot import ready, until

from gmscreen.campaign.errors import CampaignError, Problem
from gmscreen.campaign.session import CampaignSession
from gmscreen.ui import GMScreenApp


async def test_a_failed_save_names_the_character_not_the_key_path(campaign_file, monkeypatch):
    path = campaign_file("mir")

    def refuse(self):
        raise CampaignError([Problem(str(self.path), "characters[0].name", "too long")])

    monkeypatch.setattr(CampaignSession, "save_now", refuse)
    app = GMScreenApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        name = app.session.campaign.characters[0].name
        app.run_worker(app._save_in_thread, thread=True)
        assert await until(app, pilot, lambda: any("too long" in n.message for n in app.notices))
        [said] = [n.message for n in app.notices if "too long" in n.message]
        assert name in said and "characters[" not in said and str(path) not in said, said
