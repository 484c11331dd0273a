from textual.widgets import Static
from gmscreen.ui.view import CampaignView

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
        app.table.undo(); await pilot.pause()
        assert s.campaign.name != "X"
        assert V.seen == 3


class Watcher(CampaignView, Static):
    seen: list[bool] = []

    def show_watching(self, watching):
        Watcher.seen.append(watching)
        self.update("masqué" if watching else "tout")


async def test_players_watching_is_one_state_every_view_follows(open_sample, pane_host):
    s = open_sample("mir")
    app = pane_host(s, lambda: Watcher(id="a"), lambda: Watcher(id="b"))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.players_watching is False
        app.toggle_players_watching()
        await pilot.pause()
        assert app.players_watching is True and Watcher.seen == [True, True]
        assert str(app.query_one("#a", Watcher).render()) == "masqué"
        app.toggle_players_watching()
        await pilot.pause()
        assert Watcher.seen == [True, True, False, False]
