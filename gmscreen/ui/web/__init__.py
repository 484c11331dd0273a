"""The web door: `gmscreen serve`, the GM's screen or the player view in a browser.

`guard` holds the rules every request meets (the token, the hosts and origins answered, the
caps on sessions and sizes), `page` the page a browser loads, `server` the aiohttp server that
applies them and starts one gmscreen process a tab (through textual-serve's `AppService`),
`glyphs` what the served screen draws in place of the symbols the browser's font lacks.

Nothing here is imported by the terminal screen. `server` and `page` need the `web` extra
(aiohttp, textual-serve); `guard` and `glyphs` need only the standard library, for the app
side (`ui/terminal/web_driver.py`) reads them too.
"""
