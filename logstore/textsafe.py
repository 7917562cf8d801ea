"""Text from a record, a store or a link, made safe to show: one helper for the terminal
(:func:`clean`) and one for Markdown (:func:`markdown`, which the dashboard uses).

A player's name or a card's words come from whoever wrote the record. A terminal obeys the
escape sequences such text may hold (``ESC ] 52`` writes the clipboard, ``ESC ] 0`` the
window's title, ``ESC [ 2 J`` clears the screen), and Markdown turns it into links, remote
images (fetched as the page opens), colours and formulas. Neither is ever what the writer
of a record may decide for the reader.
"""

from __future__ import annotations

import io
import re
import unicodedata
from typing import Any, TextIO

_JOINERS = frozenset("\u200c\u200d")
"""Format characters kept: the joiners inside emoji and Indic names (bidi controls are not)."""


def _shown(ch: str) -> str:
    if ch in _JOINERS or unicodedata.category(ch)[0] != "C":
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: str, *, lines: bool = False) -> str:
    """``text`` with every control and format character (Unicode category C: ESC, BEL, the
    C1 controls, bidi overrides...) written out as ``\\xNN`` / ``\\uNNNN``, so a terminal
    shows it instead of obeying it. With ``lines``, newlines and tabs stay."""
    if text.isprintable():  # the common case, at C speed
        return text
    keep = "\n\t" if lines else ""
    return "".join(ch if ch in keep else _shown(ch) for ch in text)


_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|~$&"})
_AUTOLINK = re.compile(r"(?i)(://|www\.)")
"""A web address or ``www.`` that Markdown would turn into a link by itself."""


def markdown(text: str) -> str:
    """``text`` as literal characters inside Markdown (Streamlit's ``st.markdown``, ``st.error``,
    labels...): what Markdown, its HTML or KaTeX could read as syntax is backslashed (links
    and images need ``[``, colours ``:red[``, formulas ``$``, emphasis ``*`` ``_`` ``~``, HTML
    ``<`` and ``&``, and a heading, list or quote at the start), a bare address is kept from becoming a link (``http\\://``),
    and control characters are written out as in :func:`clean`. Newlines become spaces."""
    flat = clean(text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")).translate(_MARKDOWN)
    if flat.lstrip().startswith(("#", "-", "+", ">")):  # a heading, a list, a quote: only at the start
        flat = "\\" + flat.lstrip()
    return _AUTOLINK.sub(lambda found: "\\://" if found.group() == "://" else found.group()[:3] + "\\.", flat)


_STYLE = re.compile(r"\x1b\[[0-9;]*m")
"""A colour or weight (SGR), the one escape sequence warren writes itself (click.style, rich)."""


def _unstyled(text: str) -> str:
    """:func:`clean` with lines, except for warren's own colours."""
    out = []
    at = 0
    for found in _STYLE.finditer(text):
        out.append(clean(text[at:found.start()], lines=True))
        out.append(found.group())
        at = found.end()
    out.append(clean(text[at:], lines=True))
    return "".join(out)


class ShownText(io.TextIOBase):
    """A text stream that writes what a terminal shows, never what it obeys: every control
    character written to it is written out as :func:`clean` does, but newlines, tabs and
    the colour sequences warren itself writes. Everything else (``buffer`` for raw bytes,
    ``isatty``, ``encoding``) is the wrapped stream's."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.inner.write(text if text.isprintable() else _unstyled(text))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    # io.TextIOBase answers None for these; click would then take the stream for a
    # misconfigured one and write to its buffer, around this guard.
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(self.inner.encoding)

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.inner.errors

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
