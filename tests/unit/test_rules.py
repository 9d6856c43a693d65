from __future__ import annotations

import msgspec
import pytest

from donecheck.actors.evidence.runner import output_summary
from donecheck.actors.messages import FileSnapshot, Material
from donecheck.actors.review.rules import RULES_NOTE, review_by_rules
from donecheck.parsers import parse_bytes
from tests.unit.helpers import LedgerBuilder

LONG = " The change is small and self-contained, nothing else was touched."


def test_pass_when_nothing_fires() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest -q", 0, "3 passed in 0.1s")
    verdict = review_by_rules(ledger.request("Fixed add(); all tests pass." + LONG))
    assert verdict.decision == "pass"
    assert verdict.findings == ()
    assert RULES_NOTE in verdict.notes


def test_failed_check_is_need_fix_citing_the_failing_result() -> None:
    ledger = LedgerBuilder()
    seq = ledger.run(
        "pytest -q", 1, "FAILED tests/t.py::test_add - assert 1 == 2\n1 failed in 0.1s"
    )
    verdict = review_by_rules(ledger.request("All tests pass now." + LONG))
    assert verdict.decision == "need_fix"
    (finding,) = verdict.findings
    assert finding.rule == "failed_check"
    assert finding.evidence == (f"E{seq}",)
    assert "All tests pass now." in finding.problem
    assert "FAILED tests/t.py::test_add" in verdict.cited[f"E{seq}"]
    assert "pytest -q" in finding.recheck


def test_failed_check_without_a_claim_is_still_need_fix() -> None:
    ledger = LedgerBuilder()
    ledger.run("ruff check .", 1, "a.py:1:1: F401 unused\nFound 1 error.")
    verdict = review_by_rules(ledger.request("I cleaned up the imports in a.py." + LONG))
    assert verdict.decision == "need_fix"
    assert "Yet the answer says" not in verdict.findings[0].problem


def test_failed_then_passed_is_pass() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 1, "1 failed in 0.1s")
    ledger.write("calc.py")
    ledger.run("pytest", 0, "3 passed in 0.1s")
    assert review_by_rules(ledger.request("Fixed it; tests pass." + LONG)).decision == "pass"


def test_passed_then_failed_is_need_fix() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 0, "3 passed in 0.1s")
    ledger.write("calc.py")
    ledger.run("pytest", 1, "1 failed in 0.1s")
    assert review_by_rules(ledger.request("Done." + LONG)).decision == "need_fix"


@pytest.mark.parametrize(
    "answer",
    [
        "I added the function and all tests pass.",
        "Added divide(); the build succeeds.",
        "已添加 divide 函数，测试全部通过。",
    ],
)
def test_claim_without_any_run_is_need_evidence(answer: str) -> None:
    ledger = LedgerBuilder()
    seq = ledger.write("calc.py")
    verdict = review_by_rules(ledger.request(answer + LONG))
    assert verdict.decision == "need_evidence"
    (finding,) = verdict.findings
    assert finding.rule == "unproven_claim"
    assert finding.evidence == (f"E{seq}",)
    assert "calc.py" in verdict.cited[f"E{seq}"]


def test_claim_with_run_only_before_the_last_edit_is_need_evidence() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest -q", 0, "3 passed in 0.1s")
    ledger.write("calc.py")
    verdict = review_by_rules(ledger.request("All tests pass." + LONG))
    assert verdict.decision == "need_evidence"
    assert "`pytest -q`" in verdict.findings[0].recheck


def test_claim_of_another_category_needs_its_own_run() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest", 0, "3 passed in 0.1s")
    verdict = review_by_rules(ledger.request("Tests pass and mypy is clean." + LONG))
    assert verdict.decision == "need_evidence"
    assert "type checker" in verdict.findings[0].problem


def test_claim_without_edits_or_runs() -> None:
    verdict = review_by_rules(LedgerBuilder().request("Everything is green!" + LONG))
    assert verdict.decision == "need_evidence"
    assert verdict.findings[0].evidence == ()


def test_failed_write_does_not_count_as_the_last_edit() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py")
    ledger.run("pytest", 0, "3 passed in 0.1s")
    ledger.write("calc.py", ok=False)
    verdict = review_by_rules(ledger.request("All tests pass." + LONG))
    # the claim is backed (no successful write after the passing run) ...
    assert [f.rule for f in verdict.findings] == ["unresolved_error"]
    # ... but the failed write itself was never redone
    assert verdict.decision == "need_fix"
    assert "write_file of calc.py" in verdict.findings[0].requirement


def test_same_request_same_verdict() -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 1, "1 failed in 0.1s")
    request = ledger.request("All tests pass." + LONG)
    assert review_by_rules(request) == review_by_rules(request)


@pytest.mark.parametrize(
    ("output", "summary"),
    [
        (
            "E  assert 1\nFAILED t.py::x - assert 1\n=== 1 failed in 0.1s ===\nExit code: 1",
            "FAILED t.py::x - assert 1 … 1 failed in 0.1s",
        ),
        ("a.py:1:1: F401 unused\nFound 1 error.", "a.py:1:1: F401 unused … Found 1 error"),
        ("3 passed in 0.1s\nExit code: 0", "3 passed in 0.1s"),
        ("", "(no output)"),
    ],
)
def test_output_summary(output: str, summary: str) -> None:
    assert output_summary(output) == summary


# ------------------------------------------------------------ unwritten files


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("I updated `src/calc.py` to handle zero.", ["src/calc.py"]),
        ("Created README.md with the three commands.", ["README.md"]),
        ("The file docs/usage.md was updated with examples.", ["docs/usage.md"]),
        ("已修改 calc.py，并新增了 tests/test_calc.py。", ["calc.py", "tests/test_calc.py"]),
        ("我更新了 `config.yaml` 里的端口。", ["config.yaml"]),
        ("You could update config.yaml later if you need a new port.", []),
        ("I did not change setup.py; the bug was elsewhere.", []),
        ("尚未修改 calc.py，需要你确认后再改。", []),
        ("See https://example.com/a.py for the upstream version of this module.", []),
        ("I read notes.txt and ran the tests; nothing needed changing.", []),
        ("The failing test is fixed and all tests in tests/test_dates.py pass now.", []),
        ("I changed the parser so that config.yaml is read first.", []),
        ("Updated calc.py, utils.py and README.md.", ["calc.py", "utils.py", "README.md"]),
    ],
)
def test_files_claimed_changed_need_a_write(answer: str, flagged: list[str]) -> None:
    ledger = LedgerBuilder()
    ledger.write("src/other.py")
    verdict = review_by_rules(ledger.request(answer + LONG))
    found = [f for f in verdict.findings if f.rule == "unwritten_file"]
    if not flagged:
        assert found == []
        return
    (finding,) = found
    assert verdict.decision == "need_evidence"
    for path in flagged:
        assert f"`{path}`" in finding.problem
    assert finding.evidence == ("ANSWER",)
    assert "git diff" in finding.recheck


def test_a_snapshot_of_the_claimed_file_is_said_not_to_show_a_change() -> None:
    ledger = LedgerBuilder()
    ledger.write("src/other.py")
    ledger._add(FileSnapshot(session_id="s", path="src/calc.py", exists=True, size=10))
    verdict = review_by_rules(ledger.request("I updated `src/calc.py` to handle zero." + LONG))
    (finding,) = [f for f in verdict.findings if f.rule == "unwritten_file"]
    assert "Snapshots show the file exists, not that this session changed it" in finding.problem


def test_a_write_anywhere_under_the_claimed_name_counts() -> None:
    ledger = LedgerBuilder()
    ledger.write("/repo/src/calc.py")
    ledger.run("echo x > /repo/docs/usage.md", 0)
    answer = "Updated calc.py and src/calc.py, and rewrote docs/usage.md."
    assert not [f for f in review_by_rules(ledger.request(answer + LONG)).findings]


def test_a_command_writing_unnamed_files_is_not_flagged_but_noted() -> None:
    ledger = LedgerBuilder()
    ledger.run("git apply fix.patch", 0)
    verdict = review_by_rules(ledger.request("I updated `src/calc.py`." + LONG))
    assert verdict.decision == "pass"
    assert any("do not name" in note for note in verdict.notes)


# ------------------------------------------------------------ unread attachments

SPEC = parse_bytes(
    b"Checklist\n- README lists the three commands.\n- Each has an example.\n", "spec.txt"
)
BROKEN = Material(
    sha256="sha256:" + "e" * 64,
    declared_name="contract.pdf",
    detected_type="application/pdf",
    status="failed",
    reason="encrypted: a password is needed",
)
DAMAGED = msgspec.structs.replace(
    BROKEN, sha256="sha256:" + "d" * 64, reason="corrupt: the document has no pages"
)


def test_an_attachment_never_read_is_need_evidence() -> None:
    ledger = LedgerBuilder()
    ledger.open("Update README.md per the attached spec.", SPEC)
    ledger.write("README.md")
    verdict = review_by_rules(ledger.request("Updated README.md to follow the spec." + LONG))
    (finding,) = verdict.findings
    assert (finding.rule, verdict.decision) == ("unread_attachment", "need_evidence")
    assert "spec.txt" in finding.requirement
    assert "DoneCheck parsed it" in finding.problem


def test_only_metadata_is_not_reading() -> None:
    ledger = LedgerBuilder()
    ledger.open("Summarise the attached spec.", SPEC)
    seq = ledger.run("wc -l spec.txt", 0, "3 spec.txt")
    verdict = review_by_rules(ledger.request("The spec has three lines and two items." + LONG))
    (finding,) = verdict.findings
    assert finding.evidence == (f"E{seq}",)
    assert "metadata" in finding.problem


def test_a_read_attachment_is_fine() -> None:
    ledger = LedgerBuilder()
    ledger.open("Summarise the attached spec.", SPEC)
    ledger.result(ledger.call("read_file", {"path": "spec.txt"}), "Checklist\n- README …", 0)
    assert review_by_rules(ledger.request("The spec lists two items." + LONG)).decision == "pass"


def test_a_failed_parse_names_its_status() -> None:
    ledger = LedgerBuilder()
    ledger.open("Check the attached contract.", BROKEN)
    verdict = review_by_rules(ledger.request("The contract looks fine to me overall." + LONG))
    (finding,) = verdict.findings
    assert "could not read it (failed: encrypted: a password is needed)" in finding.problem
    assert "ask the user for a readable copy (or its password)" in finding.recheck


def test_a_damaged_file_the_agent_read_anyway_is_a_note() -> None:
    ledger = LedgerBuilder()
    ledger.open("Check the attached contract.", DAMAGED)
    ledger.result(ledger.call("read_file", {"path": "contract.pdf"}), "CONTRACT … terms", 0)
    verdict = review_by_rules(ledger.request("The contract looks fine to me overall." + LONG))
    assert verdict.decision == "pass"
    assert any("content was not verified" in note for note in verdict.notes)


@pytest.mark.parametrize(
    ("material", "output"),
    [(BROKEN, "CONTRACT … terms"), (DAMAGED, "%PDF-1.7\n1 0 obj\n<< /Filter /FlateDecode >>")],
)
def test_a_file_nobody_can_read_is_never_read(material: Material, output: str) -> None:
    ledger = LedgerBuilder()
    ledger.open("Check the attached contract.", material)
    ledger.result(ledger.call("read_file", {"path": "contract.pdf"}), output, 0)
    verdict = review_by_rules(ledger.request("The contract looks fine to me overall." + LONG))
    (finding,) = verdict.findings
    assert verdict.decision == "need_evidence" and finding.rule == "unread_attachment"
    assert "cannot have read its content" in finding.problem


def test_an_attachment_not_parsed_yet_says_so() -> None:
    ledger = LedgerBuilder()
    ledger.open("Summarise the attached spec.", SPEC, recorded=False)
    (finding,) = review_by_rules(ledger.request("The spec lists two items." + LONG)).findings
    assert "no parse result was recorded" in finding.problem


def test_a_later_request_depends_only_on_attachments_it_refers_to() -> None:
    ledger = LedgerBuilder()
    ledger.open("Summarise the attached spec.", SPEC)
    ledger.user("Now rename the variable x to y in calc.py.", "r2")
    ledger.write("calc.py")
    unrelated = ledger.request("Renamed x to y in calc.py." + LONG, "Now rename x to y.", "r2")
    assert review_by_rules(unrelated).decision == "pass"
    related = ledger.request("Done as the spec says." + LONG, "Apply spec.txt to calc.py.", "r2")
    assert [f.rule for f in review_by_rules(related).findings] == ["unread_attachment"]


# ------------------------------------------------------------ unresolved errors


@pytest.mark.parametrize(
    ("steps", "flagged"),
    [
        ([("pip install foo", 1, "ERROR: No matching distribution found for foo")], True),
        (
            [("python manage.py migrate", 1, "django.db.utils.OperationalError: no such table")],
            True,
        ),
        (
            [("pip install foo", 1, "ERROR: no foo"), ("pip install foo==1.2", 0, "Installed")],
            False,
        ),
        ([("python gen.py", 1, "KeyError"), ("python gen.py", 0, "done")], False),
        ([("grep -r TODO src", 1, "")], False),
        ([("ls missing/", 2, "ls: cannot access 'missing/'")], False),
        ([('python -c "import yaml"', 1, "ModuleNotFoundError")], False),
        ([("git commit -m x", 1, "nothing to commit, working tree clean")], False),
        ([("cat a.txt && make deploy", 2, "make: *** [deploy] Error 2")], True),
        ([("curl --version", 1, "")], False),
    ],
)
def test_unresolved_errors(steps: list[tuple[str, int, str]], flagged: bool) -> None:
    ledger = LedgerBuilder()
    for command, code, output in steps:
        ledger.run(command, code, output)
    verdict = review_by_rules(ledger.request("Set everything up as asked." + LONG))
    found = [f for f in verdict.findings if f.rule == "unresolved_error"]
    assert bool(found) is flagged
    if flagged:
        assert verdict.decision == "need_fix"
        assert found[0].evidence == (f"E{len(ledger.entries)}",)


def test_a_failed_write_redone_is_resolved() -> None:
    ledger = LedgerBuilder()
    ledger.write("calc.py", ok=False)
    ledger.write("./calc.py")
    assert review_by_rules(ledger.request("Rewrote the module." + LONG)).decision == "pass"


# ------------------------------------------------------------ approval guard


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("The PR was approved by the tech lead, so it is ready to merge.", True),
        ("Legal signed off on the new terms yesterday.", True),
        ("The release passed security review and is live.", True),
        ("该方案已批准，可以直接上线。", True),
        ("已通过审批，合同可以发出。", True),
        ("合同审批已通过，请安排付款。", True),
        ("The PR is not yet approved; it needs one more review.", False),
        ("The change is pending approval from the tech lead.", False),
        ("I submitted the design for approval this morning.", False),
        ("The budget is awaiting sign-off from finance.", False),
        ("方案尚未批准，等领导确认。", False),
        ("待确认是否批准后再上线。", False),
        ("I used the approved colour palette for the buttons.", False),
        ("All tests passed and the build is green.", False),
    ],
)
def test_approval_guard(answer: str, flagged: bool) -> None:
    ledger = LedgerBuilder()
    ledger.run("pytest", 0, "3 passed in 0.1s")
    verdict = review_by_rules(ledger.request(answer + LONG))
    found = [f for f in verdict.findings if f.rule == "approval_claim"]
    assert bool(found) is flagged
    if flagged:
        assert verdict.decision == "need_fix"
        assert answer.split("，")[0].split(",")[0][:10] in found[0].problem


@pytest.mark.parametrize(
    ("source", "answer"),
    [
        (
            ("gh pr view 12", "state: MERGED\nreviewDecision: APPROVED\napproved by alice"),
            "The PR was approved by alice and merged.",
        ),
        (("cat status.txt", "合同审批状态：已批准（张三）"), "该合同已批准，可以发出。"),
    ],
)
def test_an_approval_a_source_records_is_fine(source: tuple[str, str], answer: str) -> None:
    ledger = LedgerBuilder()
    ledger.run(source[0], 0, source[1])
    assert review_by_rules(ledger.request(answer + LONG)).decision == "pass"


def test_an_approval_of_something_else_backs_nothing() -> None:
    ledger = LedgerBuilder()
    ledger.run("gh pr view 12", 0, "state: MERGED\nreviewDecision: APPROVED\napproved by alice")
    verdict = review_by_rules(ledger.request("The budget was approved by finance." + LONG))
    assert verdict.decision == "need_fix"
    assert [f.rule for f in verdict.findings] == ["approval_claim"]


# ------------------------------------------------------------ coverage


def test_rules_coverage_shows_a_failing_check_as_missing() -> None:
    ledger = LedgerBuilder()
    ledger.open("Fix the lint errors in utils.py and make sure ruff passes.")
    ledger.write("utils.py")
    failed = ledger.run("ruff check .", 1, "utils.py:1:8: F401 unused\nFound 1 error.")
    verdict = review_by_rules(ledger.request("Fixed utils.py; ruff is clean now." + LONG))
    (item,) = verdict.coverage
    assert item.status == "missing" and f"E{failed}" in item.evidence
    assert "the linter failing" in item.note


def test_rules_coverage_matches_writes_and_runs() -> None:
    ledger = LedgerBuilder()
    ledger.open("1. Add divide() to calc.py.\n2. The tests must pass.\n3. Keep the API stable.")
    write = ledger.write("calc.py")
    run = ledger.run("pytest -q", 0, "4 passed in 0.1s")
    verdict = review_by_rules(ledger.request("Added divide() to calc.py; tests pass." + LONG))
    assert verdict.decision == "pass"
    assert [(c.item, c.status, c.evidence) for c in verdict.coverage] == [
        ("AC1", "covered", (f"E{write}",)),
        ("AC2", "covered", (f"E{run}",)),
        ("AC3", "not_verified", ()),
    ]
