"""mir at the table: its parts, one module each (see gmscreen.play.game)."""

from ...game import GameTable

TABLE = GameTable("mir", package=__name__)
