"""tedeum at the table: its parts, one module each (see gmscreen.play.game)."""

from ...game import GameTable

TABLE = GameTable("tedeum", package=__name__)
