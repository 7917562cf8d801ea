"""Text from records and links stays text: hostile player names and game ids are shown by
every command and every dashboard page as the characters they are, never obeyed by the
terminal (escape sequences) nor rendered by Markdown (links, remote images, colours,
formulas). logstore.textsafe holds the two helpers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.record import event_to_dict, header_to_dict, seal
from engine.simulate import simulate_one
from logstore.cli import main
from logstore.store.event_store import Store
from logstore.textsafe import ShownText, clean, markdown

TERMINAL = "Mal\x1b]52;c;aGVsbG8=\x07\x1b]0;pwned\x07\x1b[2J\x9b\u202eory"
"""A clipboard write, a window title, a clear screen, a C1 CSI and a bidi override."""
MARKUP = "[log in](http://evil.example/) ![x](http://evil.example/i.png) :red[Bo] $x^2$ [link=http://e]r[/link]"

OBEYED = re.compile("[\x07\x1b\x9b\u202e](?!\\[[0-9;]*m)")
"""What a terminal would obey (a colour of warren's own, ESC [ ... m, is allowed)."""


def hostile_game() -> bytes:
    game = simulate_one(BUNNIES, 41, 0)
    head = header_to_dict(game.header)
    head["source"] = "recorded"
    head["players"] = [{"seat": 0, "name": TERMINAL}, {"seat": 1, "name": MARKUP}]
    return b"".join(seal(head, [event_to_dict(e) for e in game.events]))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "warren.db"
    with Store(path) as store:
        store.import_bytes(hostile_game(), "hostile.jsonl")
    return path


def game_id(db: Path) -> str:
    with Store(db) as store:
        return store.games()[0].game_id


def test_clean_writes_controls_out() -> None:
    assert clean(TERMINAL) == "Mal\\x1b]52;c;aGVsbG8=\\x07\\x1b]0;pwned\\x07\\x1b[2J\\x9b\\u202eory"
    assert clean("José\tBo") == "José\\x09Bo" and clean("a\nb", lines=True) == "a\nb"
    assert clean("👩\u200d👩\u200d👧") == "👩\u200d👩\u200d👧"  # the joiners of an emoji stay


def test_markdown_leaves_nothing_to_render() -> None:
    for text in (MARKUP, LINK):
        assert unescaped(text) and not unescaped(markdown(text))
    assert "\\[log in\\](http\\://" in markdown(MARKUP) and "!\\[x\\]" in markdown(MARKUP)


def test_the_stream_guard_keeps_warrens_colours_only() -> None:
    import io

    inner = io.StringIO()
    ShownText(inner).write("\x1b[31mred\x1b[0m " + TERMINAL + "\n")  # type: ignore[arg-type]
    shown = inner.getvalue()
    assert shown.startswith("\x1b[31mred\x1b[0m Mal\\x1b]52") and shown.endswith("\n")
    assert not OBEYED.search(shown)


@pytest.mark.parametrize("args", [
    ["ls"], ["players"], ["players", "show", TERMINAL], ["ratings"], ["verify"],
    ["replay", "{game}", "--seq", "3"], ["replay", "{game}", "--as", "0", "--seq", "5"],
    ["ls", "--json"], ["export", "no such \x1b]0;game\x07"],
])
def test_no_command_prints_what_a_terminal_obeys(db: Path, args: list[str]) -> None:
    args = [a.replace("{game}", game_id(db)) for a in args]
    result = CliRunner().invoke(main, [*args, "--db", str(db)], catch_exceptions=False)
    for stream in (result.stdout, result.stderr):
        assert not OBEYED.search(stream), (args, stream[:400])
    assert result.exit_code in (0, 1, 2)
    if args[0] in ("ls", "players") and len(args) == 1:
        assert "Mal\\x1b]52" in result.stdout
        assert "[log in](http://evil.example/)" in result.stdout  # as typed, not a link


def test_a_record_exported_to_stdout_is_byte_for_byte(db: Path) -> None:
    result = CliRunner().invoke(main, ["export", game_id(db), "--db", str(db)], catch_exceptions=False)
    assert result.stdout_bytes == hostile_game()


# -- the dashboard ---------------------------------------------------------------------------
APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
LINK = "x](http://evil.example/login) ![a](http://evil.example/a.png) :red[expired] $\\int$"

MARKDOWN_ELEMENTS = ("markdown", "error", "warning", "info", "success", "caption", "subheader", "title")


def rendered(at: object) -> list[str]:
    out = []
    for kind in MARKDOWN_ELEMENTS:
        out.extend(str(e.value) for e in at.get(kind))  # type: ignore[attr-defined]
    return out


def unescaped(text: str) -> list[str]:
    """Markdown a renderer would obey: a link or image, a colour, a formula (an unescaped
    bracket, colon-directive or dollar sign)."""
    found = []
    for pattern in (r"(?<!\\)\]\(", r"(?<!\\)!\[", r"(?<!\\):red\[", r"(?<!\\)\$\\int"):
        if re.search(pattern, text):
            found.append(pattern)
    return found


@pytest.mark.parametrize(("screen", "params"), [
    ("screens/players.py", {"player": MARKUP}),
    ("screens/players.py", {"player": LINK}),
    ("screens/replay.py", {"game": LINK}),
    ("screens/replay.py", {"game": "{game}", "seq": LINK}),
    ("screens/replay.py", {"game": "{game}", "as": LINK}),
    ("screens/disputes.py", {"game": LINK}),
    ("screens/disputes.py", {"game": "{game}"}),
    ("screens/record.py", {"game": LINK}),
])
def test_no_page_renders_text_from_a_record_or_a_link(db: Path, monkeypatch: pytest.MonkeyPatch,
                                                       screen: str, params: dict[str, str]) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("WARREN_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value.replace("{game}", game_id(db))
    at.switch_page(screen).run()
    assert not at.exception, at.exception
    shown = rendered(at)
    assert shown, "the page drew nothing"
    for text in shown:
        assert not unescaped(text), (screen, params, text[:300])
