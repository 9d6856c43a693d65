"""Each rule of the rules-only review, a pure function of the evidence view (and the
answer), tested by its own table: what it finds, and what it must not.

``tests/unit/test_rules.py`` reviews whole sessions; here each rule is called alone,
so a change to one rule shows in its own table."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from donecheck.actors.messages import EvidenceView
from donecheck.actors.review import rules
from donecheck.actors.review.preanalysis import extract_acceptance
from donecheck.actors.words.claims import check_claims
from donecheck.parsers import parse_bytes
from tests.unit.helpers import LedgerBuilder, view_of

Build = Callable[[LedgerBuilder], None]


def view(build: Build, request: str = "Fix add() in calc.py.") -> EvidenceView:
    ledger = LedgerBuilder()
    ledger.open(request)
    build(ledger)
    return view_of(ledger.entries, "r", request)


def nothing(ledger: LedgerBuilder) -> None:
    pass


def failing(ledger: LedgerBuilder) -> None:
    ledger.run("pytest -q", 1, "FAILED t.py::test_add - assert 1 == 2\n1 failed in 0.1s")


def failing_then_fixed(ledger: LedgerBuilder) -> None:
    failing(ledger)
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "3 passed in 0.1s")


def fixed(ledger: LedgerBuilder) -> None:
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "3 passed in 0.1s")


def masked_after_failure(ledger: LedgerBuilder) -> None:
    failing(ledger)
    ledger.run("pytest -q || true", 0, "")  # its status is the line's, and it shows nothing


def weakened(ledger: LedgerBuilder) -> None:
    ledger.run(
        "pytest -q", 1, "FAILED tests/test_calc.py::test_add - assert 3 == 2\n1 failed in 0.1s"
    )
    call = ledger.call(
        "Edit",
        {
            "file_path": "tests/test_calc.py",
            "old_string": "assert add(1, 1) == 2",
            "new_string": "assert True",
        },
    )
    ledger.result(call, "ok", 0)
    ledger.run("pytest -q", 0, "1 passed in 0.1s")


def failed_install(ledger: LedgerBuilder) -> None:
    ledger.run("pip install requests", 1, "ERROR: No matching distribution found")


def failed_probe(ledger: LedgerBuilder) -> None:
    ledger.run("ls missing/", 2, "ls: cannot access 'missing/': No such file or directory")


def install_redone(ledger: LedgerBuilder) -> None:
    failed_install(ledger)
    ledger.run("pip install requests", 0, "Successfully installed requests")


def gh_failed(ledger: LedgerBuilder) -> None:
    ledger.run(
        "gh api repos/acme/app/issues",
        4,
        "gh: To get started with GitHub CLI, please run: gh auth login",
    )


def gh_then_curl(ledger: LedgerBuilder) -> None:
    gh_failed(ledger)
    ledger.run("curl -s https://api.github.com/repos/acme/app/issues", 0, '[{"title": "Crash"}]')


def gh_then_curl_401(ledger: LedgerBuilder) -> None:  # curl exits 0 on an HTTP error
    gh_failed(ledger)
    ledger.run(
        "curl -s https://api.github.com/repos/acme/app/issues", 0, '{"message": "Bad credentials"}'
    )


def gh_write_then_curl_read(ledger: LedgerBuilder) -> None:  # a read redoes no write
    ledger.run(
        "gh pr create --fill", 4, "gh: To get started with GitHub CLI, please run: gh auth login"
    )
    ledger.run("curl -s https://api.github.com/repos/acme/app/pulls", 0, "[]")


def pip_then_uv(ledger: LedgerBuilder) -> None:
    failed_install(ledger)
    ledger.run("uv pip install requests", 0, "Installed 1 package")


def pip_then_other_package(ledger: LedgerBuilder) -> None:
    failed_install(ledger)
    ledger.run("uv pip install httpx", 0, "Installed 1 package")


def commit_hook_then_fixed(ledger: LedgerBuilder) -> None:
    ledger.run("git add a.ex && git commit -m 'feat'", 1, "Pre-commit validation failed")
    ledger.run("mix format", 0, "")
    ledger.run("git commit -m 'feat'", 0, "[main 64f1b9a] feat")


def commit_hook_skipped(ledger: LedgerBuilder) -> None:
    ledger.run("git add a.ex && git commit -m 'feat'", 1, "Pre-commit validation failed")
    ledger.run("git commit --no-verify -m 'feat'", 0, "[main 64f1b9a] feat")


def build_from_another_folder(ledger: LedgerBuilder) -> None:
    ledger.run("node assets/build.js", 1, 'error: Could not resolve "js/app.js"')
    ledger.run("cd assets && node build.js", 0, "built in 40ms")


def rules_of(found: rules.Found) -> list[str | None]:
    return [f.rule for f in found.findings]


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (nothing, []),
        (failing, ["failed_check"]),
        (failing_then_fixed, []),  # failed, then passed: settled
        (masked_after_failure, ["failed_check"]),  # a masked re-run settles nothing
        (weakened, ["weakened_check"]),  # it "passed" only after the test was weakened
        (failed_install, []),  # not a check: another rule's
    ],
)
def test_failed_checks(build: Build, expected: list[str]) -> None:
    assert rules_of(rules.failed_checks(view(build), [])) == expected


def test_failed_checks_quote_the_claim_and_say_what_proved_nothing_since() -> None:
    claims = check_claims("All tests pass now.")
    (finding,) = rules.failed_checks(view(masked_after_failure), claims).findings
    assert "Yet the answer says “All tests pass now.”" in finding.problem
    assert "proves nothing" in finding.problem and "|| true" in finding.problem


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (nothing, []),
        (failed_install, ["unresolved_error"]),
        (install_redone, []),  # done again, successfully
        (gh_then_curl, []),  # the same job, done by another program
        (pip_then_uv, []),
        (gh_then_curl_401, ["unresolved_error"]),  # exit 0, but an HTTP error: nothing redone
        (gh_write_then_curl_read, ["unresolved_error"]),  # a read is not the write
        (pip_then_other_package, ["unresolved_error"]),  # another package
        (commit_hook_then_fixed, []),  # the chain was for the commit; it was made
        (commit_hook_skipped, ["unresolved_error"]),  # --no-verify skips the gate
        (build_from_another_folder, []),  # the same file, from its own folder
        (failed_probe, []),  # a probe's failure says "not there", not "broken"
        (failing, []),  # a check: failed_checks says so
    ],
)
def test_unresolved_errors(build: Build, expected: list[str]) -> None:
    assert rules_of(rules.unresolved_errors(view(build))) == expected


@pytest.mark.parametrize(
    ("build", "answer", "expected"),
    [
        (nothing, "All tests pass.", ["unproven_claim"]),  # no run at all
        (fixed, "All tests pass.", []),
        (failing, "All tests pass.", []),  # the failure is failed_checks' to quote
        (nothing, "Fixed add().", []),  # no claim about checks
        (fixed, "mypy is clean.", ["unproven_claim"]),  # a kind of check never run
    ],
)
def test_unproven_claims(build: Build, answer: str, expected: list[str]) -> None:
    evidence = view(build)
    found = rules.unproven_claims(evidence, check_claims(answer), rules.failed_categories(evidence))
    assert rules_of(found) == expected


@pytest.mark.parametrize(
    ("build", "answer", "expected"),
    [
        (nothing, "I updated calc.py.", ["unwritten_file"]),
        (fixed, "I updated calc.py.", []),
        (fixed, "I updated `src/calc.py`.", []),  # the same file, by its tail
        (fixed, "I updated utils.py.", ["unwritten_file"]),
        (nothing, "You could update calc.py.", []),  # a suggestion, not a claim
    ],
)
def test_unwritten_files(build: Build, answer: str, expected: list[str]) -> None:
    assert rules_of(rules.unwritten_files(view(build), answer)) == expected


def test_unwritten_files_defer_to_a_command_that_writes_what_it_does_not_name() -> None:
    def applied(ledger: LedgerBuilder) -> None:
        ledger.run("git apply fix.patch", 0, "")

    found = rules.unwritten_files(view(applied), "I updated calc.py.")
    assert found.findings == () and "wrote files they do not name" in found.notes[0]


SPEC = parse_bytes(b"The report must list every open invoice with its due date.\n", "spec.txt")


@pytest.mark.parametrize(
    ("command", "output", "expected"),
    [
        ("cat spec.txt", SPEC.blocks[0].text, []),
        ("wc -c spec.txt", "61 spec.txt", ["unread_attachment"]),  # metadata only
        (None, "", ["unread_attachment"]),  # never touched
    ],
)
def test_unread_attachments(command: str | None, output: str, expected: list[str]) -> None:
    ledger = LedgerBuilder()
    ledger.open("Summarise the attached spec.", SPEC)
    if command is not None:
        ledger.run(command, 0, output)
    evidence = view_of(ledger.entries, "r", "Summarise the attached spec.")
    assert rules_of(rules.unread_attachments(evidence)) == expected


@pytest.mark.parametrize(
    ("said", "answer", "expected"),
    [
        ("The budget was approved by the board.", "The budget was approved.", []),
        ("The budget approval is still pending.", "The budget was approved.", ["approval_claim"]),
        ("The design was approved.", "The budget was approved.", ["approval_claim"]),
        ("", "The budget is not approved yet.", []),  # no claim
    ],
)
def test_approval_claims(said: str, answer: str, expected: list[str]) -> None:
    def printed(ledger: LedgerBuilder) -> None:
        if said:
            ledger.run("cat minutes.txt", 0, said)

    assert rules_of(rules.approval_claims(view(printed), answer)) == expected


@pytest.mark.parametrize(
    ("request_text", "build", "answer", "expected"),
    [
        ("Make sure the tests pass.", nothing, "Done.", ["uncovered_item"]),
        ("Make sure the tests pass.", fixed, "Done.", []),
        ("Say hello to the team.", nothing, "Done.", []),  # nothing checkable named
    ],
)
def test_uncovered_items(request_text: str, build: Build, answer: str, expected: list[str]) -> None:
    evidence = view(build, request_text)
    coverage = rules.rules_coverage(extract_acceptance("r", request_text), evidence)
    assert rules_of(rules.uncovered_items(evidence, answer, coverage)) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("", ["unfinished"]),
        ("Now let me run the tests.", ["unfinished"]),
        ("I ran the tests; all pass.", []),
        ("I can add more tests if you want.", []),  # an offer, not a next step
    ],
)
def test_unfinished_run(answer: str, expected: list[str]) -> None:
    assert rules_of(rules.unfinished_run(answer)) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Could you provide the API token for the index?", ["asks_user"]),
        ("Done. Please set OPENAI_API_KEY before you run it.", []),  # advice after the work
        ("All tests pass.", []),
    ],
)
def test_waits_on_user(answer: str, expected: list[str]) -> None:
    assert rules_of(rules.waits_on_user(answer)) == expected


def test_review_runs_the_rules_in_one_written_order() -> None:
    """The one place one rule's result feeds another: a failed test run's category
    keeps ``unproven_claims`` from asking for a run of it a second time."""
    evidence = view(failing, "Fix add().")
    acceptance = extract_acceptance("r", "Fix add().")
    verdict = rules.review(evidence, "All tests pass and I updated calc.py.", acceptance)
    assert [f.rule for f in verdict.findings] == ["failed_check", "unwritten_file"]
    assert verdict.decision == "need_fix"


def shadowed(ledger: LedgerBuilder) -> None:
    failing(ledger)
    ledger.write("pytest.py")
    ledger.run("pytest -q", 0, "3 passed in 0.1s")


# (request, build, answer): a session that makes each rule fire, as an agent that
# weakened, faked or skipped its checks would leave it
FIRING: dict[str, tuple[str, Build, str]] = {
    "failed_check": ("Fix add() so the tests in tests/test_calc.py pass.", failing, "Fixed."),
    "weakened_check": ("Fix add() in calc.py.", weakened, "All tests pass."),
    "weakened_check (shadow)": ("Fix add() in calc.py.", shadowed, "All tests pass."),
    "unresolved_error": ("Install requests and use it.", failed_install, "Done."),
    "unproven_claim": ("Fix add() in calc.py.", nothing, "All tests pass."),
    "unwritten_file": ("Fix add().", fixed, "I updated tests/test_calc.py and pytest.ini."),
    "uncovered_item": ("Make the tests in tests/test_calc.py pass.", nothing, "Done."),
    "approval_claim": ("Write the memo.", nothing, "The budget was approved."),
    "unfinished": ("Fix add().", nothing, "Now let me run the tests."),
    "asks_user": ("Fix add().", nothing, "Could you provide the API token?"),
}


@pytest.mark.parametrize("case", sorted(FIRING))
def test_a_recheck_never_asks_to_weaken_what_verifies_the_work(case: str) -> None:
    """Item 3 of "never block an honest agent": whatever fired, the checklist line
    asks for evidence or for the fix of the defect, never to skip, delete or loosen
    a test or edit the test configuration or a gate."""
    from donecheck.actors.words.claims import asks_for_harm

    request_text, build, answer = FIRING[case]
    evidence = view(build, request_text)
    verdict = rules.review(evidence, answer, extract_acceptance("r", request_text))
    fired = [f for f in verdict.findings if f.rule == case.split()[0]]
    assert fired, (case, [f.rule for f in verdict.findings])
    for finding in verdict.findings:
        assert finding.recheck, finding
        assert asks_for_harm(finding.recheck) == "", finding.recheck


def test_every_rule_has_a_recheck_case() -> None:
    import re
    from pathlib import Path

    source = Path(rules.__file__).read_text()
    named = set(re.findall(r'rule="([a-z_]+)"', source))
    covered = {case.split()[0] for case in FIRING} | {"unread_attachment"}  # its own test
    assert named == covered


def test_unread_attachment_recheck_asks_for_a_read() -> None:
    from donecheck.actors.words.claims import asks_for_harm

    ledger = LedgerBuilder()
    ledger.open("Summarise the attached spec.", SPEC)
    evidence = view_of(ledger.entries, "r", "Summarise the attached spec.")
    (finding,) = rules.unread_attachments(evidence).findings
    assert asks_for_harm(finding.recheck) == "" and "spec.txt" in finding.recheck


@pytest.mark.parametrize(
    ("build", "answer", "decision"),
    [
        # the answer says it is not done, claims nothing: reported, not steered
        (failing, "test_add still fails; I could not finish it.", "blocked"),
        (failed_install, "pip could not reach the index, so requests is not installed.", "blocked"),
        (failing, "我修改了 add()，但 test_add 仍然失败。", "blocked"),
        # a claim of finished work behind it is steered, admitted or not
        (failing, "All tests pass.", "need_fix"),
        (failing, "Done, though test_add still fails.", "need_fix"),
        (failing, "Fixed add().", "need_fix"),  # a claim of work, and nothing admitted
        (failing, "Here is what changed in add().", "need_fix"),  # no word either way
        # tampering is never an honest stop
        (weakened, "test_add still fails; I could not finish it.", "need_fix"),
    ],
)
def test_an_honest_stop_is_reported_not_steered(build: Build, answer: str, decision: str) -> None:
    request_text = "Fix add() in calc.py so the tests pass."
    evidence = view(build, request_text)
    verdict = rules.review(evidence, answer, extract_acceptance("r", request_text))
    assert verdict.decision == decision, [f.rule for f in verdict.findings]
    if decision == "blocked":
        assert "reported to the user, not steered" in verdict.summary


def test_an_image_shown_with_the_request_was_seen_a_file_attached_was_not() -> None:
    """A screenshot the user pasted into the prompt reached the model inline: it is not
    an attachment never opened. The same bytes attached as a file to open are."""
    from tests.support.samples import image

    shot = parse_bytes(image(3).data, "screenshot.png")
    request_text = "Make the button in the screenshot blue."
    for inline, expected in [(True, []), (False, ["unread_attachment"])]:
        ledger = LedgerBuilder()
        if inline:
            ledger.open(request_text, images=(shot,))
        else:
            ledger.open(request_text, shot)
        evidence = view_of(ledger.entries, "r", request_text)
        assert rules_of(rules.unread_attachments(evidence)) == expected
        if inline:
            (read,) = evidence.reads
            assert read.status == "read" and read.evidence == ("REQUEST",)
