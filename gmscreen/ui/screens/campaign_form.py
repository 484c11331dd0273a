"""The campaign's settings (ctrl+e, or the palette): name, notes, initiative dice, rule options.

Checked as the file is when it loads (`gmscreen.play.campaign_form`): a refused value is said
in one line under the form, which stays open, and nothing is written."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.model import Campaign
from gmscreen.i18n import _
from gmscreen.play import campaign_form

from ..sanitize import literal
from .roster_dialogs import DIALOG_CSS, PromptScreen


class CampaignFormScreen(PromptScreen):
    """Dismissed with {path: value} of the settings changed (maybe none), or None (escape)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="CampaignFormScreen") + """
    CampaignFormScreen TextArea { height: 6; }
    """

    def __init__(self, campaign: Campaign, file: str) -> None:
        super().__init__(_("Campaign settings"), campaign_form.fields(campaign))
        self.campaign = campaign
        self.file = file

    def action_submit(self) -> None:
        try:
            settings: Any = campaign_form.changes(self.campaign, self.values(), self.file)
        except CampaignError as exc:
            wrong = campaign_form.field_of(exc)
            for f in self.fields:
                self.query_one(f"#field-{f.name}").set_class(f.name == wrong, "-invalid")
            self.query_one("#dialog-error", Static).update(literal(campaign_form.message(exc)))
            return
        self.dismiss(settings)
