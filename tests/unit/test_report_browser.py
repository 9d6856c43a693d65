"""The HTML report as a reader sees it: rendered by a real headless Chromium (its DOM
after layout, and a screenshot left in the test's folder), not only as a string."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from donecheck.runtime.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "transcripts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed here (.ci/run installs it)"
)
# The flags a headless Chromium needs on a closed network, in a folder of the test's
_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]
_ORDER = ["need_fix", "need_evidence", "unverified", "budget", "blocked", "skipped", "opted_out"]


def _chromium(tmp_path: Path, *args: str) -> str:
    assert CHROMIUM is not None
    done = subprocess.run(
        [CHROMIUM, *_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class _Page(HTMLParser):
    """What the test reads of the rendered DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[tuple[str, str]] = []  # (id, decision)
        self.links: list[str] = []
        self.ids: list[str] = []
        self.text: list[str] = []
        self.in_section = 0
        self.section_text: list[str] = []
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "section":
            self.sections.append((found.get("id") or "", found.get("data-decision") or ""))
            self.in_section += 1
        if found.get("id"):
            self.ids.append(found.get("id") or "")
        if tag == "a" and (found.get("href") or "").startswith("#"):
            self.links.append((found.get("href") or "")[1:])
        elif tag == "style":
            self._in_style = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.in_section -= 1
        elif tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.style += data
            return
        self.text.append(data)
        if self.in_section:
            self.section_text.append(data)


def test_the_report_reads_as_a_reader_wants_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "transcripts"
    shutil.copytree(EXAMPLES, folder)
    page = tmp_path / "report.html"
    main(["report", str(folder), "-o", str(page), "--data-dir", str(tmp_path / "data")])
    capsys.readouterr()
    dom = _chromium(tmp_path, "--dump-dom", page.as_uri())
    shot = tmp_path / "report.png"
    _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,3000", page.as_uri())
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    print(f"screenshot: {shot}")

    read = _Page()
    read.feed(dom)
    text = " ".join(" ".join(read.text).split())
    # an index: the count of each decision, and a link to every card
    ids = [anchor for anchor, _ in read.sections]
    assert len(ids) == len([p for p in folder.iterdir() if p.suffix in {".json", ".jsonl"}])
    assert len(set(ids)) == len(ids)
    assert sorted(link for link in read.links if link.startswith("card-")) == sorted(ids)
    assert {link for link in read.links if not link.startswith("card-")} <= set(read.ids)
    decisions = [decision for _, decision in read.sections]
    for decision in set(decisions):
        assert f"{decisions.count(decision)} {decision}" in text
    # the cards that ask most of the reader first
    rank = [_ORDER.index(d) if d in _ORDER else len(_ORDER) for d in decisions]
    assert rank == sorted(rank), decisions
    # what every card shares, once at the top; no doubled words
    shared = "Rules-only review: requirement coverage was not judged by a model."
    assert text.count(shared) == 1 and shared not in " ".join(read.section_text)
    assert "not verified (not verified)" not in text
    # a font stack that has CJK glyphs, and the Chinese card in the page
    assert "Noto Sans CJK SC" in read.style and "WenQuanYi Micro Hei" in read.style
    assert re.search("[\u4e00-\u9fff]{4}", text), "the Chinese example's card"
    # each card stands alone: the request and the final answer in it, code shown as
    # code (no literal backticks), a masked check never named with its mask
    assert text.count("Request:") == len(ids) and text.count("Final answer") == len(ids)
    assert "`" not in text
    assert "<code>python -m pytest -q</code>" in dom
    assert "make sure the test suite passes" in text  # the need_fix example's request
