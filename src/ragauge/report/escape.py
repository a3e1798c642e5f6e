"""User text made safe for the terminal and for Markdown: one function for each, used by every report.

Tags, ids, file names, metric names from a config and reasons come from the user's data; printed raw they
can clear the screen or retitle the window (ESC sequences), or turn a PR comment into HTML, links and
mentions (``<img src=...>``, ``</details>``, ``[c](javascript:...)``, ``@everyone``).

    >>> terminal_text("tag\\x1b]0;pwned\\x07\\x1b[2J!")
    'tag!'
    >>> md_text("<img src=x> [c](javascript:1)")
    '\\\\<img src=x\\\\> \\\\[c\\\\]\\\\(javascript:1\\\\)'
    >>> md_cell("context_precision|context_precision_ids _x_")
    'context_precision\\\\|context_precision_ids \\\\_x\\\\_'
"""

from __future__ import annotations

import re

__all__ = ["terminal_text", "md_text", "md_cell", "md_code"]

# ESC sequences: CSI (ESC [ ... final), OSC/DCS/APC/PM/SOS strings (ended by BEL or ESC \), and two-byte
# ESC x; the 8-bit CSI/OSC (0x9b / 0x9d) forms too. What is left of C0/C1 and DEL is dropped after them.
_ESC_SEQ = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
# C0 except tab/newline, DEL, C1; and the bidirectional overrides that reorder what is shown.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# ``_`` between two letters or digits never starts emphasis in GFM ("answer_relevancy" stays readable).
# ``@`` after a letter or digit (``ndcg@10``, ``a@b``) is never a mention; elsewhere it may be.
_MENTION = re.compile(r"(?<![^\W_])@")
_MD_SPECIAL = re.compile(r"([\\`*\[\]()<>#|~!]|(?<![^\W_])_|_(?![^\W_]))")


def terminal_text(text: object, *, newlines: bool = False) -> str:
    """``text`` without ESC sequences and control characters; tabs and (unless ``newlines``) line breaks
    become spaces, so one value stays on its line of the layout."""
    s = _CONTROL.sub("", _ESC_SEQ.sub("", "" if text is None else str(text)))
    s = s.replace("\t", " ")
    return s if newlines else s.replace("\n", " ")


def md_text(text: object) -> str:
    """User text for Markdown (one line): control characters dropped, line breaks as spaces, every
    character that Markdown or HTML would read (``\\ ` * _ [ ] ( ) < > # | ~ !``) backslash-escaped and
    ``@`` (unless it follows a letter or digit, as in ``ndcg@10``) escaped and followed by a word joiner
    (U+2060), so that ``@name`` is never a mention."""
    s = terminal_text(text)
    return _MENTION.sub("\\\\@\u2060", _MD_SPECIAL.sub(r"\\\1", s))


def md_cell(text: object) -> str:
    """User text for a GFM table cell: :func:`md_text` (``|`` comes out as ``\\|``, which GFM needs)."""
    return md_text(text)


def md_code(text: object) -> str:
    """A name shown as ``code`` (metric names): in backticks when it has none of its own, else escaped text.
    ``|`` is escaped even inside the backticks, as a GFM table cell requires."""
    s = terminal_text(text)
    if not s or "`" in s:
        return md_text(s)
    return "`" + s.replace("|", "\\|") + "`"
