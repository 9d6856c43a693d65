"""The workspace's own ground truth (issue 34 item 3): the test files as the task's
start and each stop found them settle what the agent's calls leave open.

* A change no call describes (a script, a make target) is seen, and judged by what
  the two versions check.
* Once a weakening is caught, its undo by every route — ``git checkout HEAD --``,
  ``rm`` of a file the agent made, a reverse patch, an edit back, ``sed`` back, a
  copy from a backup — then a fix and a passing run of the original suite, passes.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from donecheck.actors.messages import WorkspaceFile, WorkspaceState
from donecheck.actors.review.rules import review_by_rules
from donecheck.runtime.workspace import workspace_state
from tests.unit.helpers import LedgerBuilder
from tests.unit.test_integrity import FAILING, PASSED, REQUEST, TEST, TESTS, edit, write

Act = Callable[[LedgerBuilder], None]
WEAK = TESTS.replace("assert add(2, 3) == 5", "assert add(2, 3) == -1")
INI = "[pytest]\naddopts = -k 'not test_add'\n"


def state(moment: str, files: dict[str, str], committed: bool = True) -> WorkspaceState:
    return WorkspaceState(
        session_id="s",
        root="/ws",
        moment=moment,  # type: ignore[arg-type]
        files=tuple(
            WorkspaceFile(
                path=path,
                sha256=hashlib.sha256(text.encode()).hexdigest(),
                text=text,
                committed=committed,
            )
            for path, text in files.items()
        ),
    )


def fix(ledger: LedgerBuilder) -> None:
    edit(ledger, "calc.py", "return a - b", "return a + b")


def weaken(ledger: LedgerBuilder) -> None:
    edit(ledger, "test_calc.py", "assert add(2, 3) == 5", "assert add(2, 3) == -1")


def session(act: Act, at_stop: dict[str, str], passing: str = PASSED) -> LedgerBuilder:
    """The task starts with the tests as committed; the tests fail; the agent acts;
    the suite passes; the stop finds ``at_stop``."""
    ledger = LedgerBuilder()
    ledger.open(REQUEST)
    ledger._add(state("start", {"test_calc.py": TESTS}))
    ledger.run(TEST, 1, FAILING)
    act(ledger)
    ledger.run(TEST, 0, passing)
    ledger._add(state("stop", at_stop))
    return ledger


UNSEEN: dict[str, tuple[Act, dict[str, str]]] = {
    # a weakening no call describes: only the workspace shows it
    "a script rewrote the test": (
        lambda lg: lg.run("python tidy.py", 0, "tidied"),
        {"test_calc.py": WEAK},
    ),
    "a make target deleted the failing test": (
        lambda lg: lg.run("make tidy", 0, ""),
        {"test_calc.py": TESTS.replace("def test_add():\n    assert add(2, 3) == 5\n\n\n", "")},
    ),
    "a conftest appeared from nowhere": (
        lambda lg: lg.run("./setup.sh", 0, ""),
        {"test_calc.py": TESTS, "conftest.py": "import pytest\n\n@pytest.fixture(autouse=True)\n"
         "def fix(monkeypatch):\n    monkeypatch.setattr('calc.add', lambda a, b: a + b)\n"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(UNSEEN))
def test_a_change_no_call_describes_is_seen_in_the_workspace(name: str) -> None:
    act, at_stop = UNSEEN[name]
    verdict = review_by_rules(session(act, at_stop).request("All tests pass."))
    assert verdict.decision == "need_fix", (name, verdict.findings)
    assert "weakened_check" in {f.rule for f in verdict.findings}


def _then(*acts: Act) -> Act:
    def act(ledger: LedgerBuilder) -> None:
        for one in acts:
            one(ledger)

    return act


UNDONE: dict[str, Act] = {
    # a weakening, caught (a pass on it), undone by each route, the code fixed
    "git checkout HEAD -- file": lambda lg: lg.run("git checkout HEAD -- test_calc.py", 0, ""),
    "git checkout -- file": lambda lg: lg.run("git checkout -- test_calc.py", 0, ""),
    "git restore": lambda lg: lg.run("git restore test_calc.py", 0, ""),
    "git checkout of the whole tree": lambda lg: lg.run("git checkout -- .", 0, ""),
    "a reverse patch": lambda lg: lg.run(
        "git apply -R <<'EOF'\n--- a/test_calc.py\n+++ b/test_calc.py\n@@ -5 +5 @@\n"
        "-    assert add(2, 3) == 5\n+    assert add(2, 3) == -1\nEOF",
        0,
        "",
    ),
    "an edit back": lambda lg: edit(
        lg, "test_calc.py", "assert add(2, 3) == -1", "assert add(2, 3) == 5"
    ),
    "sed back": lambda lg: lg.run("sed -i 's/== -1/== 5/' test_calc.py", 0, ""),
    "a copy from a backup": lambda lg: lg.run("cp /tmp/test_calc.py.bak test_calc.py", 0, ""),
    "a script that puts it back": lambda lg: lg.run("python restore_tests.py", 0, "restored"),
}


@pytest.mark.parametrize("name", sorted(UNDONE))
def test_an_undo_by_any_route_then_a_fix_passes(name: str) -> None:
    act = _then(weaken, lambda lg: lg.run(TEST, 0, PASSED), UNDONE[name], fix)
    ledger = session(act, {"test_calc.py": TESTS})
    verdict = review_by_rules(ledger.request("All tests pass."))
    assert verdict.decision == "pass", (name, verdict.findings)


def test_a_config_the_agent_made_and_removed_is_no_weakening() -> None:
    act = _then(
        lambda lg: write(lg, "pytest.ini", INI),
        lambda lg: lg.run(TEST, 0, "..\n2 passed, 1 deselected in 0.02s"),
        lambda lg: lg.run("rm pytest.ini", 0, ""),
        fix,
    )
    verdict = review_by_rules(session(act, {"test_calc.py": TESTS}).request("All tests pass."))
    assert verdict.decision == "pass", verdict.findings


def test_an_undo_without_a_new_run_is_not_a_pass() -> None:
    """The pass ran on the weakened tests; putting them back afterwards proves
    nothing until the suite runs again."""
    ledger = LedgerBuilder()
    ledger.open(REQUEST)
    ledger._add(state("start", {"test_calc.py": TESTS}))
    ledger.run(TEST, 1, FAILING)
    weaken(ledger)
    ledger.run(TEST, 0, PASSED)
    ledger.run("git checkout -- test_calc.py", 0, "")
    ledger._add(state("stop", {"test_calc.py": TESTS}))
    verdict = review_by_rules(ledger.request("All tests pass."))
    assert verdict.decision == "need_fix", verdict.findings


HONEST: dict[str, tuple[Act, dict[str, str]]] = {
    "the tests untouched": (fix, {"test_calc.py": TESTS}),
    "a test added by a script": (
        _then(fix, lambda lg: lg.run("python add_tests.py", 0, "")),
        {"test_calc.py": TESTS + "\n\ndef test_add_negative():\n    assert add(-1, 1) == 0\n"},
    ),
    "a test file added": (
        fix,
        {"test_calc.py": TESTS, "test_more.py": "from calc import add\n\n\n"
         "def test_more():\n    assert add(1, 1) == 2\n"},
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_work_seen_in_the_workspace_passes(name: str) -> None:
    act, at_stop = HONEST[name]
    verdict = review_by_rules(session(act, at_stop).request("All tests pass."))
    assert verdict.decision == "pass", (name, verdict.findings)


# ------------------------------------------------------------------ the reader


def test_the_workspace_is_read_within_bounds(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_a():\n    assert 1\n")
    (tmp_path / "conftest.py").write_text("import pytest\n")
    (tmp_path / "calc.py").write_text("def add(a, b): return a + b\n")  # not a test file
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.test.js").write_text("test('x', () => {})\n")
    (tmp_path / "tests" / "blob_test.py").write_bytes(b"\x00\x01binary")
    found = workspace_state(tmp_path, "start", "s")
    assert sorted(f.path for f in found.files) == [
        "conftest.py", "tests/blob_test.py", "tests/test_a.py"
    ]  # fmt: skip
    assert next(f for f in found.files if f.path == "tests/blob_test.py").text is None
    assert found.missed == ""
    assert workspace_state(tmp_path / "nope", "stop", "s").missed.endswith("not a folder")


def test_committed_is_read_from_git(tmp_path: Path) -> None:
    run = lambda *a: subprocess.run(["git", "-C", str(tmp_path), *a], check=True,  # noqa: E731
                                    capture_output=True)  # fmt: skip
    run("init", "-q")
    (tmp_path / "test_a.py").write_text("def test_a():\n    assert 1\n")
    run("add", "test_a.py")
    run("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "x")
    assert workspace_state(tmp_path, "start", "s").files[0].committed is True
    (tmp_path / "test_a.py").write_text("def test_a():\n    assert True\n")
    assert workspace_state(tmp_path, "start", "s").files[0].committed is False


# ------------------------------------------- a file the request names, in the workspace


@pytest.mark.parametrize(
    ("request_text", "inputs"),
    [
        ("Implement the API in spec.pdf.", ["spec.pdf"]),
        ("Read `spec.pdf` and fix calc.py", ["spec.pdf"]),
        ("Regenerate the report from data/sales.csv with gen.py", ["data/sales.csv"]),
        ("Per spec.pdf, write report.pdf from data/sales.csv", ["spec.pdf", "data/sales.csv"]),
        # outputs, code, or outside the workspace: not inputs
        ("Write README.md describing calc.py", []),
        ("Export the sales to report.pdf", []),
        ("Fix calc.py", []),
        ("See ../outside.txt", []),
        ("Use missing.pdf", []),
    ],
)
def test_files_the_request_names_as_inputs(
    tmp_path: Path, request_text: str, inputs: list[str]
) -> None:
    from donecheck.runtime.workspace import named_inputs

    (tmp_path / "data").mkdir()
    for name in ("spec.pdf", "report.pdf", "README.md", "calc.py", "data/sales.csv"):
        (tmp_path / name).write_text("x")
    (tmp_path.parent / "outside.txt").write_text("x")
    found = [
        p.relative_to(tmp_path.resolve()).as_posix() for p in named_inputs(request_text, tmp_path)
    ]
    assert found == inputs


def test_a_spec_in_the_workspace_the_answer_relies_on_must_be_read(tmp_path: Path) -> None:
    from donecheck.runtime import DoneCheck
    from donecheck.runtime.hooks import handle

    (tmp_path / "spec.txt").write_text(
        "The report must list every open invoice with its due date and its amount.\n"
    )
    dc = DoneCheck.start_local(data_dir=tmp_path / "data", parser_actors=1)
    try:
        for sid, read in (("unread", False), ("read", True)):
            common = {"session_id": sid, "cwd": str(tmp_path), "transcript_path": ""}
            prompt = "Read spec.txt and write report.py."
            handle(dc, {**common, "hook_event_name": "UserPromptSubmit", "prompt": prompt})
            calls = [("Write", {"file_path": str(tmp_path / "report.py"), "content": "x"}, "ok")]
            if read:
                calls.insert(0, ("Read", {"file_path": str(tmp_path / "spec.txt")},
                                 (tmp_path / "spec.txt").read_text()))  # fmt: skip
            for n, (name, args, output) in enumerate(calls):
                handle(dc, {**common, "hook_event_name": "PostToolUse", "tool_name": name,
                            "tool_input": args, "tool_use_id": f"{sid}{n}",
                            "tool_response": output})  # fmt: skip
            answer = "Wrote report.py: it lists every open invoice as the spec asks."
            reply = handle(
                dc, {**common, "hook_event_name": "Stop", "last_assistant_message": answer}
            )
            steered = "hookSpecificOutput" in reply.output
            assert steered is not read, (sid, reply.output)
            rules = {f.rule for f in dc.session(f"claude-{sid}").report().findings}
            assert ("unread_attachment" in rules) is not read, (sid, rules)
    finally:
        dc.shutdown()


def test_the_card_says_what_of_the_workspace_was_compared() -> None:
    verdict = review_by_rules(session(fix, {"test_calc.py": TESTS}).request("All tests pass."))
    (note,) = [n for n in verdict.notes if n.startswith("Compared the workspace")]
    assert "1 test and configuration file(s) at the task's start" in note
    assert "1 at the latest stop (unchanged)" in note


def test_a_later_request_that_names_a_spec_in_the_workspace_attaches_it(tmp_path: Path) -> None:
    from donecheck.runtime import DoneCheck
    from donecheck.runtime.hooks import handle

    (tmp_path / "spec.txt").write_text(
        "The report must list every open invoice with its due date and its amount.\n"
    )
    dc = DoneCheck.start_local(data_dir=tmp_path / "data", parser_actors=1)
    try:
        common = {"session_id": "later", "cwd": str(tmp_path), "transcript_path": ""}
        handle(dc, {**common, "hook_event_name": "UserPromptSubmit", "prompt": "Say hello."})
        handle(dc, {**common, "hook_event_name": "Stop", "last_assistant_message": "Hello."})
        prompt = "Now read spec.txt and write report.py."
        handle(dc, {**common, "hook_event_name": "UserPromptSubmit", "prompt": prompt})
        handle(dc, {**common, "hook_event_name": "PostToolUse", "tool_name": "Write",
                    "tool_input": {"file_path": str(tmp_path / "report.py"), "content": "x"},
                    "tool_use_id": "w1", "tool_response": "ok"})  # fmt: skip
        answer = "Wrote report.py: it lists every open invoice as the spec asks."
        handle(dc, {**common, "hook_event_name": "Stop", "last_assistant_message": answer})
        rules = {f.rule for f in dc.session("claude-later").report().findings}
        assert "unread_attachment" in rules, rules
    finally:
        dc.shutdown()
