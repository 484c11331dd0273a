"""arpeges at the table: its parts, one module each (see gmscreen.play.game)."""

from ...game import GameTable

TABLE = GameTable("arpeges", package=__name__)
