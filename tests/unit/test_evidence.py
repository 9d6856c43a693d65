from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from donecheck.actors.evidence import fingerprint as fp
from donecheck.actors.evidence import pairing, runner, shell, writes
from donecheck.actors.messages import LedgerEntry, ToolCall, ToolResult
from tests.unit.helpers import LedgerBuilder, view_of


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Exit code: 1", 1),
        ("lots of output\nexit status 2\n", 2),
        ("returncode=0", 0),
        ("Process exited with code 137", 137),
        ("Exit code: 0\n...\nExit code: 3", 3),
        ("=== 1 failed, 2 passed in 0.12s ===", 1),
        ("3 passed in 0.01s", 0),
        ("==== 2 passed, 1 skipped, 3 warnings in 1.20s ====", 0),
        ("=== 1 error in 0.30s ===", 1),
        ("=== no tests ran in 0.01s ===", 5),
        ("Ran 3 tests in 0.001s\n\nOK", 0),
        ("Ran 3 tests in 0.001s\n\nFAILED (failures=1)", 1),
        ("Tests:       1 failed, 3 passed, 4 total", 1),
        ("Tests:       4 passed, 4 total", 0),
        ("ok  \tgithub.com/x/y\t0.012s", 0),
        ("--- FAIL: TestAdd (0.00s)\nFAIL\tgithub.com/x/y\t0.01s", 1),
        ("test result: ok. 3 passed; 0 failed", 0),
        ("test result: FAILED. 2 passed; 1 failed", 101),
        ("Success: no issues found in 3 source files", 0),
        ("a.py:1: error: bad\nFound 1 error in 1 file (checked 3 source files)", 1),
        ("All checks passed!", 0),
        ("a.py:1:1: F401 unused\nFound 1 error.", 1),
        ("src/a.ts(3,5): error TS2322: Type 'string' is not assignable", 1),
        ("✖ 2 problems (1 error, 1 warning)", 1),
        ("✖ 1 problem (0 errors, 1 warning)", 0),
        ("", None),
        ("Hello, world", None),
        ("HTTP status code 404", None),
        # an explicit statement wins over a summary
        ("=== 1 failed in 0.1s ===\nExit code: 0", 0),
        # a failure count in any case is a failure, never a pass
        ("=== 1 FAILED in 0.1s ===", 1),
        ("1 Failed, 2 passed in 0.1s", 1),
        ("2 ERRORS in 1s", 1),
        ("1 faıled in 0.1s", 1),  # a dotless i: the summary pattern reads it as "failed"
        ("Tests:       1 FAILED, 2 passed, 3 total", 1),
        ("Tests  1 Failed | 2 passed (3)", None),
        # Elixir: ExUnit, Dialyxir and Credo (real output, tests/clients/public/claude-code-spotter)
        ("Finished in 0.4 seconds\n157 tests, 2 failures, 1 excluded", 2),
        ("3 doctests, 15 tests, 0 failures", 0),
        ("Total errors: 0, Skipped: 0, Unnecessary Skips: 0\ndone (passed successfully)", 0),
        ("Total errors: 1, Skipped: 0, Unnecessary Skips: 0\ndone (warnings were emitted)", 2),
        ("107 files)\n831 mods/funs, found no issues.", 0),
        ("14 mods/funs, found 1 code readability issue, 1 software design suggestion.", 1),
    ],
)
def test_exit_status_from_output(text: str, status: int | None) -> None:
    assert runner.exit_status_from_output(text) == status


_SUMMARIES = [
    # each alone holds one of the hint's words: drop a word and its line fails
    ("3 passed in 0.01s", 0),
    ("1 failed in 0.1s", 1),
    ("=== 1 error in 0.30s ===", 1),
    ("1 skipped in 0.1s", 0),
    ("2 warnings in 0.1s", 0),
    ("3 deselected in 0.1s", 0),
    ("1 rerun in 0.1s", 0),
    ("=== no tests ran in 0.01s ===", 5),
    ("Tests:       4 total", 0),
    ("Ran 1 test in 0.001s\n\nOK", 0),
    ("ok  \tgithub.com/x/y\t0.012s", 0),
    ("test result: ok.", 0),
    ("Success: no issues found in 3 source files", 0),
    ("Found 1 error.", 1),
    ("✖ 1 problem (0 errors, 1 warning)", 0),
    ("FAIL\tgithub.com/x/y\t0.01s", 1),
    # issue 34: each runner's own words, read with or without an exit status
    ("# tests 3\n# suites 0\n# pass 3\n# fail 0\n# cancelled 0", 0),  # node --test, TAP
    ("# tests 3\n# pass 2\n# fail 1", 1),
    ("ℹ tests 3\nℹ pass 3\nℹ fail 0", 0),  # node --test, spec reporter
    ("ℹ tests 3\nℹ pass 2\nℹ fail 1", 1),
    ("  3 passing (12ms)", 0),  # mocha
    ("  2 passing (12ms)\n  1 failing", 1),
    ("3 examples, 0 failures", 0),  # rspec
    ("3 examples, 1 failure", 1),
    ("OK (3 tests, 5 assertions)", 0),  # phpunit
    ("FAILURES!\nTests: 3, Assertions: 5, Failures: 1.", 1),
    ("ok | 3 passed | 0 failed (20ms)", 0),  # deno test
    ("FAILED | 2 passed | 1 failed (20ms)", 1),
    (" 3 pass\n 0 fail\n Ran 3 tests across 1 files.", 0),  # bun test
    (" 2 pass\n 1 fail", 1),
    ("Passed!  - Failed:     0, Passed:     3, Skipped:     0, Total:     3", 0),  # dotnet
    ("Failed!  - Failed:     1, Passed:     2, Skipped:     0, Total:     3", 1),
    ("100% tests passed, 0 tests failed out of 3", 0),  # ctest
    ("67% tests passed, 1 tests failed out of 3", 1),
    ("Executed 3 tests, with 0 failures (0 unexpected) in 0.01 seconds", 0),  # swift test
    ("Executed 3 tests, with 1 failure (0 unexpected) in 0.01 seconds", 1),
]


@pytest.mark.parametrize(("text", "status"), _SUMMARIES)
def test_each_summary_passes_the_hint(text: str, status: int) -> None:
    assert runner._summary_of(text) == status
    assert runner._summary_status(text) == status


_EXITS = [
    ("Exit code: 3", 3),
    ("exit status 2", 2),
    ("returncode=0", 0),
    ("Return code: 4", 4),
    ("EXITCODE 9", 9),
    ("Process exited with code 137", 137),
]


@pytest.mark.parametrize(("text", "status"), _EXITS)
def test_each_explicit_exit_passes_the_hint(text: str, status: int) -> None:
    assert runner.exit_status_from_output(text) == status
    assert runner.exit_status_from_output(text + "\n3 passed in 0.1s") == status


def _searched_whole(text: str) -> int | None:
    """exit_status_from_output as it was: every pattern searched."""
    if not text:
        return None
    explicit = runner._EXPLICIT_EXIT.findall(text[-20_000:])
    return int(explicit[-1]) if explicit else runner._summary_of(text[-20_000:])


@settings(max_examples=500)
@given(
    st.lists(
        st.sampled_from(
            [t for t, _ in _SUMMARIES + _EXITS]
            + ["\n", " ", "=", "Ok", "ran", "in 0.1s", "7", "İ", "ı", "ſ", "\u212a", "é"]
        )
        | st.text(max_size=8),
        max_size=8,
    )
)
def test_the_hint_never_hides_a_status(parts: list[str]) -> None:
    """A text the word check passes over is one no pattern matches: the status read
    is the one searching every pattern gives."""
    text = "".join(parts)
    assert runner.exit_status_from_output(text) == _searched_whole(text)
    assert runner._summary_status(text) == runner._summary_of(text[-20_000:])


@pytest.mark.parametrize(
    "text", ["1 ſkipped in 0.1s", "1 faıled in 0.1s", "=== 1 FAİLED in 0.1s ===", "\u212aOK"]
)
def test_letters_ignorecase_folds_are_still_read(text: str) -> None:
    """re.IGNORECASE matches ``ſ`` as ``s``, ``ı``/``İ`` as ``i``: such text is not
    skipped by a lower-case word check (which would not see them)."""
    assert runner.exit_status_from_output(text) == _searched_whole(text)


@given(st.text(max_size=2_000))
def test_exit_status_never_raises(text: str) -> None:
    result = runner.exit_status_from_output(text)
    assert result is None or isinstance(result, int)


@pytest.mark.parametrize(
    ("command", "normal", "kind"),
    [
        ("pytest -q", "pytest -q", "pytest"),
        ("cd app && FOO=1 python -m pytest  -q 2>&1 | tail -5", "pytest -q", "pytest"),
        ("python3 -m pytest tests/test_a.py", "pytest tests/test_a.py", "pytest"),
        ("uv run mypy src", "mypy src", "mypy"),
        ("bash -lc 'cd x && npm test'", "npm test", "npm test"),
        ("npm run test:unit", "npm run test:unit", "npm test"),
        ("pnpm lint", "pnpm lint", "pnpm lint"),
        ("yarn build", "yarn build", "yarn build"),
        ("ruff check . && pytest", "ruff check . && pytest", "ruff+pytest"),
        ("timeout 60 cargo test", "cargo test", "cargo test"),
        # wrappers whose options take a value: the value is not the command
        ("timeout -s KILL -k 5 60 pytest -q", "pytest -q", "pytest"),
        ("env -u DONECHECK_SESSION pytest -q", "pytest -q", "pytest"),
        ("env -C sub FOO=1 pytest", "pytest", "pytest"),
        ("env -S 'pytest -q'", "pytest -q", "pytest"),
        ("nice -n 10 pytest", "pytest", "pytest"),
        ("sudo -u ci npm test", "npm test", "npm test"),
        ("time -p go test ./...", "go test ./...", "go test"),
        ("stdbuf -o L pytest -q", "pytest -q", "pytest"),
        ("taskset -c 0 cargo test", "cargo test", "cargo test"),
        ("xvfb-run -a npm test", "npm test", "npm test"),
        ("nohup pytest -q", "pytest -q", "pytest"),
        ("command -v pytest", "command -v pytest", None),
        ("go test ./...", "go test ./...", "go test"),
        ("make test", "make test", "make test"),
        ("make", "make", "make"),
        ("npx tsc --noEmit", "tsc --noEmit", "tsc"),
        ("./node_modules/.bin/jest", "jest", "jest"),
        ("python -m unittest discover", "unittest discover", "unittest"),
        ("black --check .", "black --check .", "black"),
        ("black .", "black .", None),
        ("ruff format .", "ruff format .", None),
        ("ls -la", "ls -la", None),
        ("git status", "git status", None),
        ("cat README.md", "cat README.md", None),
        ("echo 'unbalanced", "echo 'unbalanced", None),
        ("cd app && mix test test/a_test.exs 2>&1", "mix test test/a_test.exs", "mix test"),
        ("mix credo --strict lib/a.ex", "mix credo --strict lib/a.ex", "mix credo"),
        ("mix dialyzer --format short", "mix dialyzer --format short", "mix dialyzer"),
        ("mix format --check-formatted", "mix format --check-formatted", "mix format"),
        ("mix format", "mix format", None),
        ("bundle exec rspec spec/a_spec.rb", "rspec spec/a_spec.rb", "rspec"),
    ],
)
def test_normalise_and_check_kind(command: str, normal: str, kind: str | None) -> None:
    assert shell.normalise_command(command) == normal
    assert shell.check_kind(command) == kind


@given(st.text(max_size=300))
@example("²<")  # "²".isdigit() is true and int("²") raises: found by this test
@example("3²>&1 ٣> x")
def test_command_functions_never_raise(command: str) -> None:
    shell.normalise_command(command)
    shell.check_kind(command)
    shell.check_run(command)


@pytest.mark.parametrize(
    ("name", "arguments", "command"),
    [
        ("bash", {"command": "pytest"}, "pytest"),
        ("run_command", {"cmd": "ls"}, "ls"),
        ("Bash", {"command": "npm test", "description": "run"}, "npm test"),
        ("shell", {"command": ["bash", "-lc", "pytest -x"]}, "pytest -x"),
        ("exec_command", "make check", "make check"),
        ("str_replace_editor", {"command": "create", "path": "a"}, None),
        ("read_file", {"path": "a.py"}, None),
    ],
)
def test_command_of(name: str, arguments: dict | str, command: str | None) -> None:
    call = ToolCall(session_id="s", call_id="c", name=name, arguments=arguments)
    assert pairing.command_of(call) == command


def _ledger(*steps: tuple) -> list[LedgerEntry]:
    """Steps: ("call", id, name, args) | ("result", id, output, exit_code)."""
    entries = []
    for seq, step in enumerate(steps, 1):
        if step[0] == "call":
            event = ToolCall(session_id="s", call_id=step[1], name=step[2], arguments=step[3])
        else:
            event = ToolResult(
                session_id="s",
                call_id=step[1],
                output=step[2],
                exit_code=step[3] if len(step) > 3 else None,
            )
        entries.append(LedgerEntry(seq=seq, event=event))
    return entries


def run(call_id: str, command: str, exit_code: int | None, output: str = "") -> tuple:
    return (("call", call_id, "bash", {"command": command}), ("result", call_id, output, exit_code))


def flat(*runs: tuple) -> list[LedgerEntry]:
    return _ledger(*[step for r in runs for step in r])


def test_operations_pair_calls_with_results() -> None:
    ops = pairing.operations(flat(run("a", "pytest -q", 1), run("b", "ls", 0)))
    assert [(o.key, o.ok, o.exit_code, o.check, o.evidence_id) for o in ops] == [
        ("shell:pytest -q", False, 1, "pytest", "E2"),
        ("shell:ls", True, 0, None, "E4"),
    ]


def test_status_from_output_when_no_exit_code() -> None:
    (op,) = pairing.operations(flat(run("a", "pytest", None, "=== 2 failed in 1s ===")))
    assert (op.ok, op.exit_code, op.status_source) == (False, 1, "output")


def test_pipe_into_a_filter_does_not_hide_a_failure() -> None:
    (op,) = pairing.operations(flat(run("a", "pytest | tail -3", 0, "=== 1 failed in 1s ===")))
    assert (op.ok, op.status_source) == (False, "output")


def test_result_without_call_is_kept() -> None:
    ops = pairing.operations(_ledger(("result", "ghost", "Exit code: 2")))
    assert ops[0].tool == "?" and ops[0].ok is False


@pytest.mark.parametrize(
    ("runs", "failing"),
    [
        ([("pytest", 1), ("pytest", 0)], []),  # failed then passed
        ([("pytest", 0), ("pytest", 1)], ["pytest"]),  # passed then failed
        ([("pytest", 1), ("pytest", 1)], ["pytest"]),
        ([("pytest tests/a.py", 1), ("pytest", 0)], []),  # a broader run covers
        ([("pytest", 1), ("pytest tests/a.py", 0)], ["pytest"]),  # a narrower one does not
        ([("pytest tests/a.py::t", 1), ("pytest tests", 0)], []),
        ([("pytest -k slow", 1), ("pytest -k fast", 0)], ["pytest -k slow"]),
        ([("pytest tests/a.py", 1), ("pytest", 1), ("pytest", 0)], []),
        ([("ruff check .", 1), ("pytest", 0)], ["ruff check ."]),  # other kinds do not count
        ([("ls", 1)], []),  # not a check
    ],
)
def test_unresolved_failures(runs: list[tuple[str, int]], failing: list[str]) -> None:
    said = {0: "=== 2 passed in 0.1s ===", 1: "=== 1 failed in 0.1s ==="}  # a runner says how
    entries = flat(*(run(f"c{i}", cmd, code, said[code]) for i, (cmd, code) in enumerate(runs)))
    assert [
        op.command for op in pairing.unresolved_failures(pairing.operations(entries))
    ] == failing


@pytest.mark.parametrize(
    ("name", "arguments", "paths"),
    [
        ("write_file", {"path": "a.py", "content": "x"}, ["a.py"]),
        ("Edit", {"file_path": "/w/b.py", "old_string": "a", "new_string": "b"}, ["/w/b.py"]),
        ("str_replace_editor", {"command": "str_replace", "path": "c.py"}, ["c.py"]),
        ("str_replace_editor", {"command": "view", "path": "c.py"}, []),
        (
            "apply_patch",
            {"input": "*** Begin Patch\n*** Update File: d.py\n@@\n-a\n+b\n"},
            ["d.py"],
        ),
        ("bash", {"command": "echo hi > out.txt"}, ["out.txt"]),
        ("bash", {"command": "sed -i 's/a/b/' e.py"}, ["e.py"]),
        ("bash", {"command": "git apply fix.patch"}, [None]),
        ("bash", {"command": "pytest > /dev/null 2>&1"}, []),
        ("bash", {"command": "pytest -q"}, []),
        ("read_file", {"path": "a.py"}, []),
        # what is text, not shell, writes nothing: a heredoc body, a quoted string
        (
            "bash",
            {"command": "git commit -m \"$(cat <<'EOF'\nfix\n\nBy: A <a@b.c>\nEOF\n)\""},
            [],
        ),
        ("bash", {"command": "cat > out.txt <<EOF\nx > y\nEOF"}, ["out.txt"]),
        ("bash", {"command": 'echo "a > b" > real.txt'}, ["real.txt"]),
        ("bash", {"command": 'echo hi > "my file.txt"'}, ["my file.txt"]),
        ("bash", {"command": 'sed -i "s/x/y/" "my file.py"'}, ["my file.py"]),
        ("bash", {"command": "sed -i 's/a>b/c/' calc.py"}, ["calc.py"]),
    ],
)
def test_edits(name: str, arguments: dict, paths: list[str | None]) -> None:
    entries = _ledger(("call", "c", name, arguments), ("result", "c", "ok", 0))
    assert [e.path for e in pairing.edits(entries)] == paths


def test_failed_write_is_not_the_last_edit() -> None:
    entries = _ledger(
        ("call", "a", "write_file", {"path": "a.py"}),
        ("result", "a", "ok", 0),
        ("call", "b", "write_file", {"path": "b.py"}),
        ("result", "b", "Permission denied", 1),
    )
    assert writes.last_edit_seq(pairing.operations(entries)) == 1


def test_fingerprint_is_order_preserving() -> None:
    a = flat(run("a", "pytest", 1), run("b", "pytest", 0))
    b = flat(run("b", "pytest", 0), run("a", "pytest", 1))
    assert fp.fingerprint(a) == fp.fingerprint(list(a))
    assert fp.fingerprint(a) != fp.fingerprint(b)
    assert fp.fingerprint(a[:-1]) != fp.fingerprint(a)


_FAILED = (1, "FAILED tests/test_calc.py::test_add\n1 failed in 0.1s")
_PASSED = (0, "3 passed in 0.1s")
_SILENT = (0, "")


@pytest.mark.parametrize(
    ("results", "decision"),
    [
        ([_FAILED, _PASSED], "need_fix"),  # a repeated id cannot answer a failure with a pass
        ([_PASSED, _FAILED], "need_fix"),  # but a failure under it counts
        ([_FAILED, _SILENT, _PASSED], "need_fix"),
        ([_PASSED, _PASSED], "pass"),
        ([_PASSED, _SILENT], "pass"),
    ],
)
def test_a_second_result_for_one_call_can_only_fail_it(
    results: list[tuple[int, str]], decision: str
) -> None:
    from donecheck.actors.messages import (
        LedgerEntry,
        ReviewRequest,
        SessionOpened,
        ToolCall,
        ToolResult,
    )
    from donecheck.actors.review.rules import review_by_rules

    request = "Fix add() in calc.py and make sure `pytest -q` passes."
    events = [
        SessionOpened(session_id="s", request_id="r", request=request),
        ToolCall(
            session_id="s",
            call_id="w",
            name="write_file",
            arguments={"path": "calc.py", "content": "def add(a, b):\n    return a + b\n"},
        ),
        ToolResult(session_id="s", call_id="w", exit_code=0, output="ok"),
        ToolCall(session_id="s", call_id="c1", name="bash", arguments={"command": "pytest -q"}),
        *(
            ToolResult(session_id="s", call_id="c1", exit_code=code, output=output)
            for code, output in results
        ),
    ]
    entries = [LedgerEntry(seq=n, event=e) for n, e in enumerate(events, 1)]
    review = review_by_rules(
        ReviewRequest(
            review_id="rv",
            session_id="s",
            request_id="r",
            request=request,
            answer="I fixed add() in calc.py; all tests pass now.",
            view=view_of(entries, "r", request),
        )
    )
    assert review.decision == decision


@pytest.mark.parametrize(
    ("output", "decision"),
    [
        ("✔ adds (0.5ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0", "pass"),
        ("TAP version 13\nok 1 - adds\n# tests 1\n# pass 1\n# fail 0", "pass"),
        ("not ok 1 - adds\n# tests 3\n# pass 2\n# fail 1", "need_fix"),
        ("# tests 0\n# pass 0\n# fail 0", "need_evidence"),
    ],
)
def test_node_test_runs_are_read_without_an_exit_status(output: str, decision: str) -> None:
    """Codex sends no exit status: `node --test`'s own summary says how it ended."""
    from donecheck.actors.evidence.shell import check_run
    from donecheck.actors.review.rules import review_by_rules
    from tests.unit.helpers import LedgerBuilder

    assert check_run("node --test").kind == "node test"
    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.js so the tests pass.")
    ledger.result(
        ledger.call(
            "apply_patch",
            {"input": "*** Begin Patch\n*** Update File: calc.js\n@@\n-a\n+b\n*** End Patch"},
        ),
        "Success.",
    )
    ledger.result(ledger.call("shell", {"command": ["bash", "-lc", "node --test"]}), output)
    verdict = review_by_rules(ledger.request("I fixed add() in calc.js; all tests pass."))
    assert verdict.decision == decision, verdict.findings


_BG = (
    "Command running in background with ID: b7636e2. Output is being written to:"
    " /tmp/t/tasks/b7636e2.output"
)


def _task_output(code: int, output: str) -> str:
    """Claude Code's TaskOutput result, as its transcript records it."""
    return (
        "<retrieval_status>success</retrieval_status>\n\n<task_id>b7636e2</task_id>\n\n"
        f"<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n"
        f"<exit_code>{code}</exit_code>\n\n<output>\n{output}\n</output>"
    )


@pytest.mark.parametrize(
    ("fetch", "decision"),
    [
        # Claude Code: Bash in the background, then TaskOutput
        (lambda lg: lg.result(lg.call("TaskOutput", {"task_id": "b7636e2", "block": True}),
                              _task_output(0, "...\n3 passed in 0.1s")), "pass"),
        (lambda lg: lg.result(lg.call("TaskOutput", {"task_id": "b7636e2", "block": True}),
                              _task_output(1, "F..\n1 failed, 2 passed in 0.1s")), "need_fix"),
        # ... or the output file read
        (lambda lg: lg.result(lg.call("Read", {"file_path": "/tmp/t/tasks/b7636e2.output"}),
                              "...\n3 passed in 0.1s"), "pass"),
        (lambda lg: lg.run("tail -5 /tmp/t/tasks/b7636e2.output", 0, "1 failed, 2 passed in 0.1s"),
         "need_fix"),
        # ... still running: nothing came back
        (lambda lg: lg.result(lg.call("TaskOutput", {"task_id": "b7636e2", "block": False}),
                              "<retrieval_status>not_ready</retrieval_status>\n<status>running"
                              "</status>"), "need_evidence"),
    ],
)  # fmt: skip
def test_a_run_in_the_background_counts_when_its_result_comes_back(
    fetch: object, decision: str
) -> None:
    from donecheck.actors.review.rules import review_by_rules
    from tests.unit.helpers import LedgerBuilder

    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py so the tests pass.")
    ledger.result(
        ledger.call("Edit", {"file_path": "calc.py", "old_string": "-", "new_string": "+"}), "ok"
    )
    ledger.result(
        ledger.call("Bash", {"command": "python -m pytest -q", "run_in_background": True}), _BG
    )
    fetch(ledger)  # type: ignore[operator]
    verdict = review_by_rules(ledger.request("I fixed add() in calc.py; all tests pass."))
    assert verdict.decision == decision, verdict.findings


def _notice(code: int, task: str = "b7636e2", *, used: str = "", agent: bool = False) -> str:
    """Claude Code's notice, put into the user's turn, that a background command
    ended: the form of a public session (tests/corpus/real/spotter-8463c716.jsonl,
    line 1588; Claude Code 2.1.39); ``used``: the ``<tool-use-id>`` later versions
    add; ``agent``: a sub-agent's notice instead (``Agent "…" finished``)."""
    tag = f"<tool-use-id>{used}</tool-use-id>\n" if used else ""
    summary = (
        'Agent "audit" finished'
        if agent
        else (f'Background command "Run tests" completed (exit code {code})')
    )
    return (
        f"<task-notification>\n<task-id>{task}</task-id>\n{tag}"
        f"<output-file>/tmp/t/tasks/{task}.output</output-file>\n<status>completed</status>\n"
        f"<summary>{summary}</summary>\n"
        "</task-notification>\nRead the output file to retrieve the result:"
        f" /tmp/t/tasks/{task}.output"
    )


def _read_output(lg: LedgerBuilder, text: str) -> None:
    lg.result(lg.call("Read", {"file_path": "/tmp/t/tasks/b7636e2.output"}), text)


@pytest.mark.parametrize(
    ("after", "decision"),
    [
        # the notice alone: its status fails a run; a zero status shows no test ran
        (lambda lg: lg.result("task:b7636e2", _notice(1)), "need_fix"),
        (lambda lg: lg.result("task:b7636e2", _notice(0)), "need_evidence"),
        # ... then the output file read: what it printed, with the notice's status
        (lambda lg: (lg.result("task:b7636e2", _notice(0)),
                     _read_output(lg, "...\n3 passed in 0.1s")), "pass"),
        (lambda lg: (lg.result("task:b7636e2", _notice(1)),
                     _read_output(lg, "...\n3 passed in 0.1s")), "need_fix"),
        (lambda lg: (lg.result("task:b7636e2", _notice(0)),
                     _read_output(lg, "F..\n1 failed, 2 passed in 0.1s")), "need_fix"),
        # another task's notice says nothing of it
        (lambda lg: lg.result("task:c0ffee1", _notice(1, "c0ffee1")), "need_evidence"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("hook", [False, True], ids=["transcript", "hook"])
def test_the_clients_notice_that_a_background_run_ended_is_its_result(
    after: object, decision: str, hook: bool
) -> None:
    from donecheck.actors.evidence.background import notices
    from donecheck.actors.review.rules import review_by_rules
    from donecheck.runtime.transcripts.claude import tool_output

    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py so the tests pass.")
    ledger.result(
        ledger.call("Edit", {"file_path": "calc.py", "old_string": "-", "new_string": "+"}), "ok"
    )
    # the transcript's text names the output file; a hook's structured result does not
    # (its form: tests/corpus/real/spotter-8463c716.jsonl), the notice does
    started = tool_output(
        {"stdout": "", "stderr": "", "interrupted": False, "isImage": False,
         "noOutputExpected": False, "backgroundTaskId": "b7636e2"}
    )[0] if hook else _BG  # fmt: skip
    ledger.result(
        ledger.call("Bash", {"command": "python -m pytest -q", "run_in_background": True}),
        started,
    )
    after(ledger)  # type: ignore[operator]
    verdict = review_by_rules(ledger.request("I fixed add() in calc.py; all tests pass."))
    assert verdict.decision == decision, verdict.findings
    block = _notice(1).split("\nRead the output")[0]
    assert notices(_notice(1)) == [("b7636e2", block)]
    assert notices(_notice(1, used="toolu_01"))[0][0] == "b7636e2"
    assert notices(_notice(1, agent=True)) == []  # a sub-agent's: not a command's
    assert [t for t, _ in notices(_notice(0) + "\n" + _notice(1, "c0ffee1"))] == [
        "b7636e2",
        "c0ffee1",
    ]


@pytest.mark.parametrize(("exited", "decision"), [(0, "pass"), (1, "need_fix")])
def test_a_codex_run_that_yielded_counts_when_it_exits(exited: int, decision: str) -> None:
    from donecheck.actors.review.rules import review_by_rules
    from tests.unit.helpers import LedgerBuilder

    ledger = LedgerBuilder()
    ledger.open("Fix add() in calc.py so the tests pass.")
    ledger.result(
        ledger.call("apply_patch", "*** Begin Patch\n*** Update File: calc.py\n@@\n-a\n+b\n"
                    "*** End Patch"), "Success."
    )  # fmt: skip
    ledger.result(
        ledger.call("exec_command", {"cmd": "python -m pytest -q", "yield_time_ms": 1000}),
        "Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 42\nOutput:\n...",
    )
    summary = "3 passed in 0.1s" if exited == 0 else "1 failed, 2 passed in 0.1s"
    ledger.result(
        ledger.call("write_stdin", {"session_id": 42, "chars": ""}),
        f"Chunk ID: b\nWall time: 2.0 seconds\nProcess exited with code {exited}\n"
        f"Original token count: 9\nOutput:\n{summary}\n",
    )
    verdict = review_by_rules(ledger.request("I fixed add() in calc.py; all tests pass."))
    assert verdict.decision == decision, verdict.findings


def test_digits_that_are_not_ascii_are_no_numbers() -> None:
    """``str.isdigit`` is true of ``²`` and ``int`` refuses it: every reader that turns
    digits into a number takes ASCII digits only (a shell fd, a sed address or group,
    a tool's numeric argument, a Word heading's level, an answer's label)."""
    from donecheck.actors.actions import sed
    from donecheck.actors.actions.dialects import _int
    from donecheck.parsers.office import _heading_level

    assert shell.simple_commands("echo hi 2>err") == (("echo", "hi"),)
    assert shell.simple_commands("echo ²>out") == (("echo", "²"),)  # a word, then `>out`
    assert _int("12") == 12 and _int("²") is None
    assert _heading_level("Heading 2") == 2 and _heading_level("Heading ²") == 1
    assert sed.parse("²d") is None  # no address sed knows
    group, other = sed.parse(r"s/\(a\)/\1\1/"), sed.parse(r"s/\(a\)/\²/")
    assert group and sed.apply(group, "a\n") == "aa\n"
    assert other and sed.apply(other, "a\n") == "²\n"  # sed's `\²` is a plain ²
