"""The player view's own style: few words, large type, the outcome in colour."""

CSS = """
Screen { layout: vertical; }
#players-title { height: 1; padding: 0 1; background: $panel; color: $text; text-style: bold; }
RoundBanner { height: auto; min-height: 3; padding: 0 1; }
RoundBanner > Digits { width: auto; margin-right: 2; color: $accent; }
RoundBanner > #round-word { width: auto; height: 3; content-align: left middle; color: $text-muted;
                            margin-right: 2; }
RoundBanner > #turn-of { width: 1fr; height: 3; content-align: left middle; text-style: bold; }
#players-middle { height: 1fr; }
TurnOrder { width: 1fr; height: 1fr; border: round $primary; border-title-style: bold; padding: 0 1;
            text-wrap: nowrap; text-overflow: ellipsis; }
LatestRoll { width: 1fr; height: 1fr; border: round $accent; border-title-style: bold; padding: 0 1; }
LatestRoll > #latest-who { height: auto; text-style: bold; }
LatestRoll > #latest-outcome { height: 3; content-align: center middle; text-style: bold; margin: 1 0 0 0; }
LatestRoll > #latest-outcome.-good { background: $success 40%; }
LatestRoll > #latest-outcome.-bad { background: $error 30%; }
LatestRoll > #latest-outcome.-crit { background: $success; color: $background; }
LatestRoll > #latest-outcome.-fumble { background: $error; color: $background; }
LatestRoll > #latest-outcome.-plain { background: $panel; }
LatestRoll > #latest-dice { height: auto; content-align: center middle; text-style: bold; margin-top: 1; }
LatestRoll > #latest-detail { height: auto; content-align: center middle; color: $text-muted; }
RollList { height: auto; max-height: 8; border: round $primary; border-title-style: bold; padding: 0 1;
           text-wrap: nowrap; text-overflow: ellipsis; }
#players-problem { height: auto; padding: 0 1; color: $warning; display: none; }
#players-problem.-shown { display: block; }
.-ascii RoundBanner > Digits { display: none; }
.-narrow #players-middle { layout: vertical; }
.-narrow RollList { display: none; }
"""
