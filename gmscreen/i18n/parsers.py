"""The words of Python's TOML and JSON parsers (tomllib, json) in the language spoken.

They write English whatever the language, so a campaign with a typo said « TOML invalide :
Expected '=' after a key in a key/value pair (at line 3, column 7) ». Their messages are read
back into their template and values (`reread`) and said from the catalog; a message not listed
here (another Python's) is shown as the parser wrote it. The ids are Python 3.11's own text.
"""

from __future__ import annotations

from . import N_, _
from .reread import fill, read, reword

# tomllib/_parser.py: the message before " (at …)".
TOML = (
    N_("Invalid statement"), N_("Expected newline or end of document after a statement"), N_("Expected %s"),
    N_("Found invalid character %s"), N_("Cannot declare %s twice"), N_("Cannot overwrite a value"),
    N_("Expected ']' at the end of a table declaration"), N_("Cannot mutate immutable namespace %s"),
    N_("Expected ']]' at the end of an array declaration"), N_("Cannot redefine namespace %s"),
    N_("Expected '=' after a key in a key/value pair"), N_("Invalid initial character for a key part"),
    N_("Unclosed array"), N_("Duplicate inline table key %s"), N_("Unclosed inline table"),
    N_("Unescaped '\\' in a string"), N_("Invalid hex value"), N_("Escaped character is not a Unicode scalar value"),
    N_("Unterminated string"), N_("Illegal character %s"), N_("Invalid date or datetime"), N_("Invalid value"),
)
AT = N_("%s (at line %s, column %s)")
AT_END = N_("%s (at end of document)")
# json/decoder.py and its C scanner: JSONDecodeError.msg.
JSON = (
    N_("Expecting value"), N_("Expecting property name enclosed in double quotes"), N_("Expecting ':' delimiter"),
    N_("Expecting ',' delimiter"), N_("Extra data"), N_("Unterminated string starting at"),
    N_("Invalid control character at"), N_("Invalid control character %s at"), N_("Invalid \\escape"),
    N_("Invalid \\escape: %s"), N_("Invalid \\uXXXX escape"),
)


def toml_message(message: str) -> str:
    """A tomllib message without its place ("Unclosed array"), in the language spoken."""
    return reword(message, TOML) or message


def toml_error(error: object) -> str:
    """A TOMLDecodeError (or its text) in the language spoken, its place too."""
    text = str(error)
    for template in (AT, AT_END):
        values = read(template, text)
        if values is not None:
            values["0"] = toml_message(values["0"])
            return fill(_(template), values)
    return toml_message(text)


def json_message(message: str) -> str:
    """A JSONDecodeError's `msg` ("Expecting value") in the language spoken."""
    return reword(message, JSON) or message
