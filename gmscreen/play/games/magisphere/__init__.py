"""magisphere at the table: its parts, one module each (see gmscreen.play.game)."""

from ...game import GameTable

TABLE = GameTable("magisphere", package=__name__)
