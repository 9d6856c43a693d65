"""Evidence first without a judge: a rules-only pass means every checkable acceptance item
has covering evidence; a claim of completion without it asks for the evidence."""

from __future__ import annotations

import pytest

from donecheck.actors.review.rules import review_by_rules
from donecheck.actors.words.claims import completion_claims
from tests.unit.helpers import LedgerBuilder

PASSED = "=== 4 passed in 0.2s ==="


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        ("Done!", True),
        ("Done! I implemented the validation and everything works.", True),
        ("Implementation complete and verified, ready to merge.", True),
        ("The fix is in and it works now.", True),
        ("Ready for review.", True),
        ("No errors remain.", True),
        ("The run confirms it.", True),
        ("已完成。", True),
        ("搞定了，可以合并。", True),
        ("没问题，一切正常。", True),
        ("All good!", True),
        ("LGTM, shipped.", True),
        ("改好了。", True),
        ("It is not done yet.", False),
        ("Once the tests pass it will be complete.", False),
        ("Is it done?", False),
        ("I will fix it next.", False),
        ("还没有完成。", False),
        ("是否完成还需要确认。", False),
        ("Here is the plan for the migration.", False),
    ],
)
def test_completion_claims(sentence: str, claim: bool) -> None:
    assert bool(completion_claims(sentence)) is claim


def test_a_claim_with_no_tool_call_at_all_is_not_a_pass() -> None:
    ledger = LedgerBuilder()
    ledger.open("Add input validation to signup.py and make sure the test suite passes.")
    verdict = review_by_rules(
        ledger.request("Done! I implemented the validation and everything works.")
    )
    assert verdict.decision == "need_evidence"
    rules = [f.rule for f in verdict.findings]
    assert rules.count("uncovered_item") == 1
    (finding,) = [f for f in verdict.findings if f.rule == "uncovered_item"]
    assert finding.requirement.startswith("AC1: ")
    assert "Done!" in finding.problem and finding.evidence == ("ANSWER",)


@pytest.mark.parametrize(
    "answer",
    [
        "Implementation complete and verified, ready to merge.",
        "All done; the change works.",
        "已完成，可以合并。",
        "I changed signup.py as asked.",  # not even a completion claim: still not shown
    ],
)
def test_no_checkable_item_covered_is_never_a_pass(answer: str) -> None:
    ledger = LedgerBuilder()
    ledger.open("Update signup.py to reject empty e-mail addresses. 请确保测试通过。")
    verdict = review_by_rules(ledger.request(answer))
    assert verdict.decision == "need_evidence", answer


def test_every_checkable_item_covered_passes() -> None:
    ledger = LedgerBuilder()
    ledger.open("Add input validation to signup.py and make sure the test suite passes.")
    ledger.write("signup.py")
    ledger.run("pytest -q", 0, PASSED)
    verdict = review_by_rules(ledger.request("Done: signup.py validates input; 4 tests pass."))
    assert verdict.decision == "pass", verdict.findings
    assert [c.status for c in verdict.coverage] == ["covered"]


def test_an_item_about_reading_a_file_is_covered_by_reading_it() -> None:
    ledger = LedgerBuilder()
    ledger.open("Explain what main.py does.")
    ledger.result(ledger.call("read_file", {"path": "main.py"}), "def main(): ...", 0)
    verdict = review_by_rules(ledger.request("main.py starts the server and is done."))
    assert verdict.decision == "pass"


def test_reading_a_file_does_not_cover_changing_it() -> None:
    ledger = LedgerBuilder()
    ledger.open("Update README.md with the new install command.")
    ledger.result(ledger.call("read_file", {"path": "README.md"}), "# Project", 0)
    verdict = review_by_rules(ledger.request("README.md now has the new install command."))
    assert verdict.decision == "need_evidence"


def test_nothing_checkable_nothing_to_show() -> None:
    ledger = LedgerBuilder()
    ledger.open("Explain the difference between a process and a thread.")
    verdict = review_by_rules(
        ledger.request("A process has its own address space; threads share one. Done.")
    )
    assert verdict.decision == "pass"
    assert [c.status for c in verdict.coverage] == ["not_verified"]  # the card lists it


def test_a_file_named_as_a_checks_target_is_shown_by_a_passing_run_on_it() -> None:
    ledger = LedgerBuilder()
    ledger.open("Add divide(). Make sure the tests in test_calc.py pass.")
    ledger.write("calc.py")
    ledger.run("python -m unittest -v test_calc", 0, "Ran 3 tests in 0.001s\n\nOK")
    verdict = review_by_rules(ledger.request("divide() is in calc.py; 3 tests ran, OK."))
    assert verdict.decision == "pass", verdict.findings
    (item,) = [c for c in verdict.coverage if "test_calc.py" in c.requirement]
    assert item.status == "covered" and "a passing run on test_calc.py" in item.note


def test_make_sure_is_not_a_request_to_change_a_file() -> None:
    from donecheck.actors.words.claims import asks_for_change

    assert not asks_for_change("Make sure the tests in test_calc.py pass.")
    assert asks_for_change("Make calc.py export divide().")
    assert asks_for_change("请修改 calc.py。")


@pytest.mark.parametrize(
    ("request_text", "decision"),
    [
        # the file is what the check runs: a passing run on it shows it
        ("Fix the parser and make sure tests/test_dates.py passes.", "pass"),
        # the file is to be changed: a passing run on it does not show the change
        (
            "Add a test for parse_iso to tests/test_dates.py and make sure it passes.",
            "need_evidence",
        ),
    ],
)
def test_a_check_target_is_not_a_file_to_change(request_text: str, decision: str) -> None:
    ledger = LedgerBuilder()
    ledger.open(request_text)
    ledger.write("utils/dates.py")
    ledger.run("python -m pytest -q tests/test_dates.py", 0, "=== 2 passed in 0.04s ===")
    verdict = review_by_rules(ledger.request("Done: tests/test_dates.py has 2 passing tests."))
    assert verdict.decision == decision, verdict.findings


WELCOME = "Write a script that creates welcome.txt in /home/alice with a greeting, and run it."


def _script_then_cat(ledger: LedgerBuilder) -> None:
    ledger.write("setup.sh")
    ledger.run("bash setup.sh", 0, "")
    ledger.run("cat /home/alice/welcome.txt", 0, "Welcome, Alice!")


def _cat_then_script(ledger: LedgerBuilder) -> None:
    ledger.run("cat /home/alice/welcome.txt", 0, "Welcome, Alice!")
    ledger.write("setup.sh")
    ledger.run("bash setup.sh", 0, "")


def _cat_only(ledger: LedgerBuilder) -> None:
    ledger.write("setup.sh")
    ledger.run("cat /home/alice/welcome.txt", 0, "Welcome, Alice!")


@pytest.mark.parametrize(
    ("steps", "decision"),
    [
        (_script_then_cat, "pass"),  # the script it wrote may have written it: not verified
        (_cat_then_script, "need_evidence"),  # shown before anything could have written it
        (_cat_only, "need_evidence"),  # the script was never run
    ],
)
def test_a_file_a_script_of_the_agent_may_have_written_is_not_steered(
    steps: object, decision: str
) -> None:
    ledger = LedgerBuilder()
    ledger.open(WELCOME)
    steps(ledger)  # type: ignore[operator]
    verdict = review_by_rules(
        ledger.request("Done: setup.sh created /home/alice/welcome.txt with the greeting.")
    )
    assert verdict.decision == decision, verdict.findings
    (item,) = verdict.coverage
    assert item.status == "not_verified"
    if decision == "pass":
        assert "a command may have written it" in item.note


def test_a_glob_write_may_include_the_named_file() -> None:
    ledger = LedgerBuilder()
    ledger.open("Replace the tabs in utils.py with four spaces.")
    ledger.run("sed -i 's/\\t/    /g' *.py", 0, "")
    verdict = review_by_rules(ledger.request("Done: utils.py uses spaces now."))
    assert verdict.decision == "pass", verdict.findings
    assert "a command may have written it" in verdict.coverage[0].note


@pytest.mark.parametrize(
    ("answer", "decision"),
    [
        ("README.md now has the new install command.", "need_evidence"),  # a claim of state
        ("The install command is in.", "need_evidence"),  # a claim the rules cannot read
        # the answer says it is not done: reported, not steered
        ("README.md is not updated yet: the install command is not decided.", "blocked"),
        ("I could not update README.md: which install command should it show?", "blocked"),
        ("Ich habe README.md noch nicht geändert.", "blocked"),
        ("README.md 还没有更新：无法确定安装命令。", "blocked"),
    ],
)
def test_an_answer_that_says_the_work_is_not_done_is_reported_not_steered(
    answer: str, decision: str
) -> None:
    ledger = LedgerBuilder()
    ledger.open("Update README.md with the new install command.")
    verdict = review_by_rules(ledger.request(answer))
    assert verdict.decision == decision, verdict.findings
    assert verdict.coverage[0].status == "not_verified"
    assert "no write to README.md" in verdict.coverage[0].note
