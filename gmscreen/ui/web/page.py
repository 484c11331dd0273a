"""The page a browser loads from `gmscreen serve`: textual-serve's terminal (xterm.js in its
`textual.js`) and nothing from any other host.

It differs from textual-serve's own page (`templates/app_index.html`) in what a careful local
tool needs: Roboto Mono, regular and italic, comes from textual-serve's static folder through
`@font-face` (its page asked a third-party host for the regular face only, so italics, and the
accents in them, were drawn from whatever font was at hand); the terminal starts once those
faces are loaded (xterm.js draws each glyph once and keeps it); the token a first visit
carried is taken out of the address bar (the cookie keeps the tab signed in); its few words
come from the catalog. The websocket address is built from the Host the server has checked.
"""

from __future__ import annotations

from html import escape

from gmscreen.i18n import _

STATIC = "/static/"
FONTS = {"normal": "fonts/RobotoMono-VariableFont_wght.ttf", "italic": "fonts/RobotoMono-Italic-VariableFont_wght.ttf"}
USED = ("css/xterm.css", "js/textual.js", "images/background.png", *FONTS.values())   # from textual-serve's static folder

_STYLE = """
@font-face { font-family: "Roboto Mono"; font-style: normal; font-weight: 100 700; font-display: block;
             src: url("%(normal)s") format("truetype"); }
@font-face { font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700; font-display: block;
             src: url("%(italic)s") format("truetype"); }
body { background: #0c181f; }
.dialog-container { position: absolute; width: 100vw; height: 100vh; display: flex; align-items: center;
                    justify-content: center; z-index: 10; }
.shade { position: absolute; width: 100%%; height: 100%%; background: #0c181f;
         background-image: url("%(background)s"); }
.intro { width: 640px; height: 240px; font-size: 16px; z-index: 20; font-family: "Roboto Mono", monospace;
         text-align: center; color: rgba(255, 255, 255, 0.95); background-color: #12232d; display: flex;
         align-items: center; justify-content: center; margin: 32px; }
body.-first-byte .intro-dialog, body.-first-byte .intro-dialog .shade { opacity: 0; display: none; }
body .textual-terminal { opacity: 0; transition: opacity 0.3s ease-out; }
body.-first-byte .textual-terminal { opacity: 1; transition: opacity 0.3s ease-out; }
body button { padding: 16px 32px; background-color: #5e0ba7; color: rgba(255, 255, 255, 0.95); border: none;
              font-family: "Roboto Mono", monospace; margin: 16px; display: block; }
button:hover { background: #ac5af4; cursor: pointer; }
.closed-dialog { opacity: 0; display: none; }
body.-closed .closed-dialog { opacity: 1; display: flex; }
#start { display: none; }
#start.-delay { display: flex; }
"""

# After textual.js (which starts the terminal on `load`): start it once the faces are loaded,
# take the token out of the address bar, and let the buttons start a new session.
_SCRIPT = """
(function () {
  var start = window.onload;
  window.onload = function (event) {
    var faces = ["16px 'Roboto Mono'", "italic 16px 'Roboto Mono'", "bold 16px 'Roboto Mono'",
                 "italic bold 16px 'Roboto Mono'"];
    var loaded = document.fonts ? Promise.all(faces.map(function (f) { return document.fonts.load(f); }))
                                : Promise.resolve();
    loaded.catch(function () {}).then(function () { if (start) { start(event); } });
  };
  var url = new URL(window.location.href);
  if (url.searchParams.has("token")) {
    url.searchParams.delete("token");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  window.gmscreenRestart = function () {
    var again = new URL(window.location.href);
    again.searchParams.delete("delay");
    window.location.href = again.pathname + again.search;
  };
})();
"""


def static(path: str) -> str:
    return STATIC + path


def render(*, title: str, websocket_url: str, font_size: int, lang: str) -> str:
    """The page: `websocket_url` already checked (this server's own host)."""
    style = _STYLE % {"normal": static(FONTS["normal"]), "italic": static(FONTS["italic"]),
                      "background": static("images/background.png")}
    preload = "".join(f'<link rel="preload" href="{static(path)}" as="font" type="font/ttf" crossorigin>\n'
                      for path in FONTS.values())
    return f"""<!DOCTYPE html>
<html lang="{escape(lang)}">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>{escape(title)}</title>
{preload}<link rel="stylesheet" href="{static("css/xterm.css")}">
<style>{style}</style>
<script src="{static("js/textual.js")}"></script>
<script>{_SCRIPT}</script>
</head>
<body>
<div class="dialog-container intro-dialog">
  <div class="shade"></div>
  <div class="intro">
    <div>{escape(title)}</div>
    <button type="button" onclick="gmscreenRestart()" id="start">{escape(_("Start"))}</button>
  </div>
</div>
<div class="dialog-container closed-dialog">
  <div class="shade"></div>
  <div class="intro">
    <div class="message">{escape(_("Session ended."))}</div>
    <button type="button" onclick="gmscreenRestart()">{escape(_("Restart"))}</button>
  </div>
</div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{escape(websocket_url)}"
     data-font-size="{font_size}"></div>
</body>
</html>
"""
