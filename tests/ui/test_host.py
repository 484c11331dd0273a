from textual.widgets import Static
from gmscreen.ui.host import CampaignView

class V(CampaignView, Static):
    seen = 0
    def show_campaign(self, session):
        V.seen += 1
        self.update(session.campaign.name)

async def test_host(open_sample, pane_host):
    s = open_sample("mir")
    app = pane_host(s, lambda: V(id="v"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert V.seen == 1
        assert app.change("rename", lambda b: b.set(("name",), "X"))
        assert s.campaign.name == "X"
        app.undo(); await pilot.pause()
        assert s.campaign.name != "X"
        assert V.seen == 3
