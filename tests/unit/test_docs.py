"""The README and docs/ stay in step with the code (issue 37 item 2): every doc is
linked and every link resolves, the README's sample card is what `donecheck review`
prints for that example, the client table names the versions the tier pins, and the
corpus sizes the docs quote are the corpus's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").glob("*.md"))


def test_the_readme_is_short_and_links_every_doc() -> None:
    assert len(README) < 12_000, "the README is read in five minutes: move detail to docs/"
    linked = set(re.findall(r"\]\((docs/[^)#]+)\)", README))
    assert linked == {f"docs/{p.name}" for p in DOCS}
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            assert (doc.parent / target).resolve().exists(), f"{doc.name} links {target}"


def test_the_readme_has_exactly_two_set_up_commands() -> None:
    block = README.split("\n## Set up\n", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert len(commands) == 2 and all(c.startswith("python3 -m venv .venv") for c in commands)


def test_the_sample_card_is_what_review_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from donecheck.runtime.cli import main

    example = ROOT / "examples" / "transcripts" / "need_fix_claims_pass_but_failed.json"
    main(["review", str(example), "--data-dir", str(tmp_path)])
    printed = capsys.readouterr().out.strip()
    shown = README.split("Command 1 prints one verdict per transcript", 1)[1]
    shown = shown.split("```text\n", 1)[1].split("```", 1)[0].strip()
    assert shown == printed


def test_the_client_table_names_the_pinned_versions() -> None:
    pins = json.loads((ROOT / "tests" / "clients" / "package.json").read_text())["dependencies"]
    rows = re.findall(r"^\| [^|]*\(`(@?[\w./-]+)`\) \| ([\w.-]+) \|", README, re.M)
    pinned_clients = {name: version for name, version in pins.items() if name != "node"}
    assert dict(rows) == pinned_clients


def test_the_corpus_sizes_quoted_are_the_corpus() -> None:
    expected = json.loads((ROOT / "tests" / "corpus" / "expected.json").read_text())
    parts = {
        name: sum(k.startswith(f"{name}/") for k in expected) for name in ("generated", "hand")
    }
    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    said = re.search(r"holds ([\d,]+) sessions made by", cli)
    assert said is not None and int(said.group(1).replace(",", "")) == parts["generated"]
    hand = re.search(r"and ([\d,]+) written one by\s+one", cli)
    assert hand is not None and int(hand.group(1).replace(",", "")) == parts["hand"]


def test_every_transcript_form_is_documented_and_named_in_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from donecheck.runtime.cli import main
    from donecheck.runtime.transcripts.detect import FORMS

    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    cli = cli.split("| form | what it is | the request |", 1)[1].split("\n\n", 1)[0]
    table = set(re.findall(r"^\| ((?:`[\w-]+`(?:, )?)+) \|", cli, re.M))
    documented = {name for cell in table for name in re.findall(r"`([\w-]+)`", cell)}
    assert documented == set(FORMS)
    with pytest.raises(SystemExit):
        main(["review", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    for words in (
        "Claude Code session",
        "Codex rollout",
        "Gemini CLI chat log",
        "Copilot CLI",
        "opencode export",
        "mini-SWE-agent trajectory",
        "ATIF",
        "Anthropic Messages",
        "one chat message per line",
    ):
        assert words in helped, words
