"""Runners' summaries beyond pytest/jest/go/cargo: a run that exits 0 while its own
summary counts failures is a failure, and a run that tested nothing is no pass.

Each table row is one command line, the status it exited with and what it printed
(the runners' own words: Maven Surefire, Gradle, Bazel, Playwright, cargo-nextest,
AVA, Karma, Cypress, minitest, ExUnit, XCTest/swift-testing, PHPUnit, dotnet test,
CTest, bun, tox). Beside every row that must fail or be hollow stands one that looks
the same and is a real pass: it must stay one.
"""

from __future__ import annotations

import pytest

from donecheck.actors.evidence.runner import outcome
from donecheck.actors.messages import ToolResult
from donecheck.actors.review.rules import review_by_rules
from tests.unit.helpers import LedgerBuilder

MVN_PASS = (
    "[INFO] -------------------------------------------------------\n"
    "[INFO]  T E S T S\n"
    "[INFO] -------------------------------------------------------\n"
    "[INFO] Running calc.CalcTest\n"
    "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.04 s"
    " -- in calc.CalcTest\n"
    "[INFO] \n[INFO] Results:\n[INFO] \n"
    "[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n"
    "[INFO] \n[INFO] BUILD SUCCESS\n"
)
MVN_FAILURE_IGNORED = (
    "[INFO] Running calc.CalcTest\n"
    "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s"
    " <<< FAILURE! -- in calc.CalcTest\n"
    "[ERROR] calc.CalcTest.adds -- Time elapsed: 0.01 s <<< FAILURE!\n"
    "org.opentest4j.AssertionFailedError: expected: <5> but was: <-1>\n"
    "[INFO] \n[INFO] Results:\n[INFO] \n[ERROR] Failures: \n"
    "[ERROR]   CalcTest.adds:9 expected: <5> but was: <-1>\n"
    "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n"
    "[INFO] \n[INFO] BUILD SUCCESS\n"
)
GRADLE_PASS = (
    "> Task :compileJava\n> Task :processResources NO-SOURCE\n> Task :classes\n"
    "> Task :compileTestJava\n> Task :processTestResources NO-SOURCE\n"
    "> Task :testClasses\n> Task :test\n\n"
    "BUILD SUCCESSFUL in 3s\n4 actionable tasks: 4 executed\n"
)

# (command, exit code, output, ok, source)
Row = tuple[str, int | None, str, bool | None, str]

FAILS_AT_EXIT_0: list[Row] = [
    # a failure summary, whatever the exit status and whatever "BUILD SUCCESS" says
    ("mvn test -Dmaven.test.failure.ignore=true", 0, MVN_FAILURE_IGNORED, False, "output"),
    ("mvn test", 0, MVN_FAILURE_IGNORED, False, "output"),
    ("mvn verify", 0, MVN_FAILURE_IGNORED.replace("Failures: 1, Errors: 0",
                                                     "Failures: 0, Errors: 1"), False, "output"),
    ("mvn test", 0, "[ERROR] Tests run: 3, Failures: 0, Errors: 1, Skipped: 0\n"
                    "[INFO] BUILD SUCCESS", False, "output"),
    ("mvn test", 0, "[ERROR] Tests run: 2, Failures: 1\n[INFO] BUILD SUCCESS", False, "output"),
    ("./gradlew test", 0, "> Task :test\n\nCalcTest > adds() FAILED\n"
                          "    org.opentest4j.AssertionFailedError at CalcTest.java:8\n\n"
                          "3 tests completed, 1 failed\n\n"
                          "There were failing tests. See the report at: "
                          "file:///ws/build/reports/tests/test/index.html\n\n"
                          "BUILD SUCCESSFUL in 3s", False, "output"),
    ("gradle check", 0, "> Task :test\n\n5 tests completed, 2 failed, 1 skipped\n\n"
                        "BUILD SUCCESSFUL in 4s", False, "output"),
    ("bazel test //...", 0, "//calc:calc_test                                  PASSED in 0.4s\n"
                            "//calc:other_test                                 FAILED in 0.3s\n\n"
                            "Executed 1 out of 2 tests: 1 test passes and 1 fails locally.",
     False, "output"),
    ("bazel test //calc:all", 0, "INFO: Build completed, 1 test FAILED, 12 total actions",
     False, "output"),
    ("npx playwright test", 0, "Running 3 tests using 2 workers\n\n"
                               "  1) [chromium] › a.spec.ts:3:1 › adds ──────────\n\n"
                               "  1 failed\n    [chromium] › a.spec.ts:3:1 › adds \n"
                               "  2 passed (2.1s)", False, "output"),
    ("cargo nextest run", 0, "        FAIL [   0.004s] calc tests::adds\n"
                             "────────────\n     Summary [   0.010s] 3 tests run: 2 passed,"
                             " 1 failed, 0 skipped\n        FAIL [   0.004s] calc tests::adds",
     False, "output"),
    ("cargo nextest run", 0, "     Summary [   1.002s] 2 tests run: 1 passed, 1 timed out,"
                             " 0 skipped", False, "output"),
    ("npx ava", 0, "  ✔ zero\n  ✘ adds\n\n  1 test failed", False, "output"),
    ("npx ava", 0, "  2 tests failed\n  1 known failure", False, "output"),
    ("npx karma start --single-run", 0,
     "Chrome Headless 120.0 (Linux x86_64): Executed 3 of 3 (1 FAILED) (0.012 secs / 0.004 secs)\n"
     "TOTAL: 1 FAILED, 2 SUCCESS", False, "output"),
    ("npx cypress run", 0, "  (Run Finished)\n\n"
                           "       Spec                 Tests  Passing  Failing\n"
                           "  ✖  calc.cy.js   00:02        3        2        1\n"
                           "  ✖  1 of 3 failed (33%)      00:02        3        2        1",
     False, "output"),
    ("bundle exec rake test", 0, "  1) Failure:\nCalcTest#test_add [test/calc_test.rb:4]:\n"
                                 "Expected: 5\n  Actual: -1\n\n"
                                 "2 runs, 2 assertions, 1 failures, 0 errors, 0 skips",
     False, "output"),
    ("bin/rails test", 0, "3 runs, 3 assertions, 0 failures, 1 errors, 0 skips", False, "output"),
    ("swift test", 0, "✘ Test run with 3 tests failed after 0.004 seconds with 1 issue.",
     False, "output"),
    ("tox -e py311", 0, "  py311: FAIL code 1 (0.52 seconds)\n"
                        "  evaluation failed :( (0.61 seconds)",
     False, "output"),
]  # fmt: skip

TESTED_NOTHING: list[Row] = [
    ("mvn test", 0, "[INFO] Tests run: 0, Failures: 0, Errors: 0, Skipped: 0\n"
                    "[INFO] BUILD SUCCESS", None, "hollow"),
    ("mvn test", 0, "[INFO] --- surefire:3.2.5:test (default-test) @ calc ---\n"
                    "[INFO] No tests to run.\n[INFO] BUILD SUCCESS", None, "hollow"),
    ("mvn test -Dmaven.test.skip=true", 0, "[INFO] Tests are skipped.\n[INFO] BUILD SUCCESS",
     None, "hollow"),
    ("mvn test -Dmaven.test.skip=true", 0, "[INFO] BUILD SUCCESS", None, "hollow"),
    ("mvn verify -DskipTests", 0, "[INFO] BUILD SUCCESS", None, "hollow"),
    ("mvn test", 0, "[WARNING] Tests run: 3, Failures: 0, Errors: 0, Skipped: 3\n"
                    "[INFO] BUILD SUCCESS", None, "hollow"),
    ("./gradlew test", 0, "> Task :compileJava UP-TO-DATE\n> Task :test NO-SOURCE\n\n"
                          "BUILD SUCCESSFUL in 1s", None, "hollow"),
    ("./gradlew test", 0, "> Task :compileTestJava UP-TO-DATE\n> Task :testClasses UP-TO-DATE\n"
                          "> Task :test UP-TO-DATE\n\nBUILD SUCCESSFUL in 1s", None, "hollow"),
    ("gradle test", 0, "> Task :app:test SKIPPED\n\nBUILD SUCCESSFUL in 1s", None, "hollow"),
    ("dotnet test", 0, "No test is available in /ws/Calc.Tests/bin/Debug/net8.0/Calc.Tests.dll."
                       " Make sure that test discoverer & executors are registered and platform"
                       " & framework version settings are appropriate and try again.",
     None, "hollow"),
    ("vendor/bin/phpunit", 0, "PHPUnit 10.5.0 by Sebastian Bergmann and contributors.\n\n"
                              "No tests executed!", None, "hollow"),
    ("bazel test //...", 0, "INFO: Build completed successfully, 1 total action\n"
                            "ERROR: No test targets were found, yet testing was requested",
     None, "hollow"),
    ("swift test", 0, "Test Suite 'All tests' passed at 2026-12-04 10:00:00.000.\n"
                      "\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001)"
                      " seconds", None, "hollow"),
    ("mix test", 0, "Finished in 0.01 seconds (0.00s async, 0.01s sync)\n0 tests, 0 failures",
     None, "hollow"),
    ("mix test", 0, "Finished in 0.02 seconds\n0 tests, 0 failures, 3 excluded", None, "hollow"),
    ("mix test test/none_test.exs", 0, "The --only option was given to \"mix test\" but no test"
                                       " was executed\nThere are no tests to run",
     None, "hollow"),
    ("ctest", 0, "Test project /ws/build\nNo tests were found!!!", None, "hollow"),
    ("bun test", 0, "bun test v1.1.0\n\n 0 pass\n 0 fail\nRan 0 tests across 0 files. [1.00ms]",
     None, "hollow"),
    ("cargo nextest run", 0, "    Starting 0 tests across 0 binaries\n"
                             "     Summary [   0.000s] 0 tests run: 0 passed, 0 skipped",
     None, "hollow"),
    ("tox -e py311", 0, "py311: skipped because could not find python interpreter with spec(s):"
                        " py311\n  py311: SKIP (0.01 seconds)\n  congratulations :) (0.02 seconds)",
     None, "hollow"),
    ("bundle exec rake test", 0, "0 runs, 0 assertions, 0 failures, 0 errors, 0 skips",
     None, "hollow"),
    ("npx karma start --single-run", 0, "Executed 0 of 0 ERROR (0.001 secs / 0 secs)",
     None, "hollow"),
    ("./gradlew check -x test", 0, "> Task :check\n\nBUILD SUCCESSFUL in 1s", None, "hollow"),
    # failures kept from failing the build: only the runner's own summary can show a pass
    ("mvn test -Dmaven.test.failure.ignore=true", 0, "[INFO] BUILD SUCCESS", None, "masked"),
]  # fmt: skip

REAL_PASSES: list[Row] = [
    # the same runners' real passing summaries: they stay passes
    ("mvn test", 0, MVN_PASS, True, "exit_code"),
    ("mvn test", None, MVN_PASS, True, "output"),
    ("mvn test || true", 0, MVN_PASS, True, "output"),  # masked, but the runner's own pass
    ("mvn test", 0, "[WARNING] Tests run: 3, Failures: 0, Errors: 0, Skipped: 1\n"
                    "[INFO] BUILD SUCCESS", True, "exit_code"),  # a skip beside passes
    ("mvn test", 0, "[INFO] No tests to run.\n[INFO] Tests run: 4, Failures: 0, Errors: 0,"
                    " Skipped: 0\n[INFO] BUILD SUCCESS", True, "exit_code"),  # other module
    ("./gradlew test", 0, GRADLE_PASS, True, "exit_code"),
    ("./gradlew test", 0, "> Task :testClasses UP-TO-DATE\n> Task :test\n\n"
                          "BUILD SUCCESSFUL in 2s", True, "exit_code"),
    ("gradle test", 0, "> Task :api:test NO-SOURCE\n> Task :core:test\n\nBUILD SUCCESSFUL in 5s",
     True, "exit_code"),
    ("bazel test //...", 0, "//calc:calc_test                                  PASSED in 0.4s\n\n"
                            "Executed 2 out of 2 tests: 2 tests pass.", True, "exit_code"),
    ("npx playwright test", 0, "Running 3 tests using 2 workers\n\n  3 passed (2.1s)",
     True, "exit_code"),
    ("cargo nextest run", 0, "     Summary [   0.010s] 3 tests run: 3 passed, 0 failed,"
                             " 1 skipped", True, "exit_code"),
    ("npx ava", 0, "  ✔ adds\n  ✔ zero\n\n  2 tests passed", True, "exit_code"),
    ("npx karma start --single-run", 0, "Executed 3 of 3 SUCCESS (0.012 secs / 0.004 secs)\n"
                                        "TOTAL: 3 SUCCESS", True, "exit_code"),
    ("npx cypress run", 0, "  ✔  All specs passed!      00:02        3        3        -",
     True, "exit_code"),
    ("swift test", 0, "\t Executed 3 tests, with 0 failures (0 unexpected) in 0.003 (0.004)"
                      " seconds", True, "exit_code"),
    ("swift test", 0, "✔ Test run with 3 tests passed after 0.002 seconds.", True, "exit_code"),
    ("mix test", 0, "Finished in 0.03 seconds\n3 tests, 0 failures", True, "exit_code"),
    ("mix test", 0, "Finished in 0.03 seconds\n2 doctests, 0 tests, 0 failures",
     True, "exit_code"),
    ("bundle exec rake test", 0, "3 runs, 5 assertions, 0 failures, 0 errors, 1 skips",
     True, "exit_code"),
    ("vendor/bin/phpunit", 0, "OK (3 tests, 5 assertions)", True, "exit_code"),
    ("dotnet test", 0, "Passed!  - Failed:     0, Passed:     3, Skipped:     1, Total:     4",
     True, "exit_code"),
    ("ctest", 0, "100% tests passed, 0 tests failed out of 3", True, "exit_code"),
    ("bun test", 0, " 3 pass\n 0 fail\nRan 3 tests across 1 files. [12.00ms]", True, "exit_code"),
    ("tox -e py311", 0, "  py311: OK (1.20 seconds)\n  congratulations :) (1.30 seconds)",
     True, "exit_code"),
    ("tox", 0, "  py38: SKIP (0.01 seconds)\n  py311: OK (1.20 seconds)\n"
               "  congratulations :) (1.30 seconds)", True, "exit_code"),
    ("pytest -q", 0, "=== 3 passed, 0 failed in 0.12s ===", True, "exit_code"),
    # a part with no tests beside parts that ran some: no hollow run
    ("dotnet test", 0, "No test is available in /ws/Calc.Docs/bin/Debug/net8.0/Calc.Docs.dll.\n"
                       "Passed!  - Failed:     0, Passed:     3, Skipped:     0, Total:     3,"
                       " Duration: 9 ms - Calc.Tests.dll (net8.0)", True, "exit_code"),
    ("mix test", 0, "==> core\n3 tests, 0 failures\n==> web\nThere are no tests to run",
     True, "exit_code"),
    ("swift test", 0, "\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.000)"
                      " seconds\n\t Executed 3 tests, with 0 failures (0 unexpected) in 0.003"
                      " (0.004) seconds", True, "exit_code"),
    ("mvn test -Dmaven.test.failure.ignore=true", 0, MVN_PASS, True, "output"),
    # builds that skip the tests prove the build, and are no test run to judge
    ("./gradlew build -x test", 0, "BUILD SUCCESSFUL in 2s", True, "exit_code"),
    ("mvn package -DskipTests", 0, "[INFO] Tests are skipped.\n[INFO] BUILD SUCCESS",
     True, "exit_code"),
]  # fmt: skip


def _outcome(command: str, code: int | None, output: str) -> tuple[bool | None, str]:
    got = outcome(ToolResult(session_id="s", call_id="c", output=output, exit_code=code), command)
    return got.ok, got.source


@pytest.mark.parametrize(("command", "code", "output", "ok", "source"), FAILS_AT_EXIT_0)
def test_a_failure_summary_fails_whatever_the_exit_status(
    command: str, code: int | None, output: str, ok: bool | None, source: str
) -> None:
    assert _outcome(command, code, output) == (ok, source)
    # and with no exit status at all, the summary alone says it
    assert _outcome(command, None, output)[0] is False


@pytest.mark.parametrize(("command", "code", "output", "ok", "source"), TESTED_NOTHING)
def test_a_run_that_tested_nothing_is_no_pass(
    command: str, code: int | None, output: str, ok: bool | None, source: str
) -> None:
    assert _outcome(command, code, output) == (ok, source)


@pytest.mark.parametrize(("command", "code", "output", "ok", "source"), REAL_PASSES)
def test_the_same_runners_real_passes_stay_passes(
    command: str, code: int | None, output: str, ok: bool | None, source: str
) -> None:
    assert _outcome(command, code, output) == (ok, source)


def test_each_table_stands_beside_its_opposite() -> None:
    assert len(FAILS_AT_EXIT_0) >= 15 and len(TESTED_NOTHING) >= 15 and len(REAL_PASSES) >= 15


@pytest.mark.parametrize(
    ("command", "output", "decision"),
    [
        ("mvn test", MVN_FAILURE_IGNORED, "need_fix"),
        ("mvn test", MVN_PASS, "pass"),
        ("mix test", "Finished in 0.01 seconds\n0 tests, 0 failures", "need_evidence"),
        ("mix test", "Finished in 0.01 seconds\n3 tests, 0 failures", "pass"),
        ("./gradlew test", "> Task :test NO-SOURCE\n\nBUILD SUCCESSFUL in 1s", "need_evidence"),
        ("./gradlew test", GRADLE_PASS, "pass"),
    ],
)
def test_the_verdict_follows_the_summary(command: str, output: str, decision: str) -> None:
    """End to end: a fix, then one run that exits 0, and the claim that the tests pass."""
    ledger = LedgerBuilder()
    ledger.open("Fix add() and make sure the tests pass.")
    call = ledger.call(
        "Edit",
        {"file_path": "/ws/src/calc.ext", "old_string": "a - b", "new_string": "a + b"},
    )
    ledger.result(call, "The file /ws/src/calc.ext has been updated successfully.")
    ledger.run(command, 0, output)
    verdict = review_by_rules(ledger.request("Fixed add(); the tests pass."))
    assert verdict.decision == decision, verdict.findings
