"""A request is read by role: what it names as input (from, using, with, describing,
according to, specified in, based on … in every pack) is read, not written; only
outputs can be items to write (issue 35, item 2).

The table holds both kinds of row: inputs named as the languages name them, and
paths that look alike and are outputs all the same ("remove the import from
requirements.txt", "update config.yaml with the new port").
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donecheck.actors.review.rules import review_by_rules
from donecheck.actors.words.claims import asks_to_change, claimed_test_count, named_as_input
from tests.unit.helpers import LedgerBuilder

ROLES: list[tuple[str, str, bool]] = [
    (
        "Regenerate the report from data/sales.csv with scripts/gen_report.py",
        "data/sales.csv",
        False,
    ),
    (
        "Regenerate the report from data/sales.csv with scripts/gen_report.py",
        "scripts/gen_report.py",
        False,
    ),
    ("Create the database from schema.sql", "schema.sql", False),
    ("Write README.md describing calc.py", "calc.py", False),
    ("Write README.md describing calc.py", "README.md", True),
    ("Write report.py so that it follows spec.txt", "spec.txt", False),
    ("Write report.py so that it follows spec.txt", "report.py", True),
    ("Complete all tasks specified in problem.json", "problem.json", False),
    ("Implement the API according to openapi.yaml", "openapi.yaml", False),
    ("Update main.py per docs/design.md", "docs/design.md", False),
    ("Following the instructions in TASK.md, fix the bug in calc.py", "TASK.md", False),
    ("Following the instructions in TASK.md, fix the bug in calc.py", "calc.py", True),
    ("Fix the bug in calc.py", "calc.py", True),
    ("Remove the dependency from requirements.txt", "requirements.txt", True),
    ("Move the helper from utils.py to helpers.py", "utils.py", True),
    ("Update config.yaml with the new port", "config.yaml", True),
    ("Replace the loop in parser.py with a regex", "parser.py", True),
    ("Add a test to tests/test_calc.py using pytest", "tests/test_calc.py", True),
    ("Write tests covering calc.py in tests/test_calc.py", "calc.py", False),
    ("Update main.py to match schema.sql", "schema.sql", False),
    ("Update main.py to match schema.sql", "main.py", True),
    ("根据 spec.md 修改 main.py", "spec.md", False),
    ("根据 spec.md 修改 main.py", "main.py", True),
    ("从 schema.sql 创建数据库", "schema.sql", False),
    ("spec.md に従って main.py を修正してください", "spec.md", False),
    ("spec.md に従って main.py を修正してください", "main.py", True),
    ("Crea la base de datos a partir de schema.sql", "schema.sql", False),
    ("Erstelle die Datenbank aus schema.sql", "schema.sql", False),
    ("Crée la base de données à partir de schema.sql", "schema.sql", False),
    ("Elimina la dependencia de requirements.txt", "requirements.txt", True),
    ("Crie o banco de dados a partir de schema.sql", "schema.sql", False),
    ("Remova a dependência do requirements.txt", "requirements.txt", True),
    ("Crea il database da schema.sql", "schema.sql", False),
    ("Correggi main.py secondo spec.md", "main.py", True),
    ("Correggi main.py secondo spec.md", "spec.md", False),
    ("Создай базу данных из schema.sql", "schema.sql", False),
    ("schema.sql 에 따라 main.py 를 수정하세요", "schema.sql", False),
    ("schema.sql 에 따라 main.py 를 수정하세요", "main.py", True),
]


@pytest.mark.parametrize(("request_text", "path", "changed"), ROLES)
def test_a_path_is_read_by_its_role(request_text: str, path: str, changed: bool) -> None:
    assert asks_to_change(request_text, path) is changed


@pytest.mark.parametrize(
    ("request_text", "steps", "answer"),
    [
        (
            "Regenerate the report from data/sales.csv with scripts/gen_report.py.",
            [("python scripts/gen_report.py data/sales.csv -o report.md", "wrote report.md")],
            "I regenerated report.md from data/sales.csv with scripts/gen_report.py.",
        ),
        (
            "Create the database from schema.sql.",
            [("cat schema.sql", "CREATE TABLE t (id int);"), ("sqlite3 app.db < schema.sql", "")],
            "Created app.db from schema.sql.",
        ),
        (
            "Write README.md describing calc.py.",
            [("cat calc.py", "def add(a, b): ...")],
            "README.md now describes calc.py.",
        ),
        (
            "Complete all tasks specified in problem.json.",
            [("cat problem.json", '{"tasks": ["write answer.txt"]}'), ("echo 42 > answer.txt", "")],
            "I have completed all tasks specified in problem.json.",
        ),
    ],
)
def test_an_input_the_request_names_is_no_item_to_write(
    request_text: str, steps: list[tuple[str, str]], answer: str
) -> None:
    ledger = LedgerBuilder()
    ledger.open(request_text)
    for command, output in steps:
        ledger.run(command, 0, output)
    if "README.md" in request_text:
        ledger.write("README.md")
    verdict = review_by_rules(ledger.request(answer))
    assert not [f for f in verdict.findings if f.rule in {"uncovered_item", "unwritten_file"}], [
        f.problem for f in verdict.findings
    ]


def test_an_output_named_beside_an_input_is_still_an_item_to_write() -> None:
    ledger = LedgerBuilder()
    ledger.open("Write README.md describing calc.py.")
    ledger.run("cat calc.py", 0, "def add(a, b): ...")
    verdict = review_by_rules(ledger.request("README.md now describes calc.py."))
    problems = [f.problem for f in verdict.findings]
    assert any("README.md" in p for p in problems), problems
    assert not any("calc.py`" in p for p in problems), problems


@given(st.text(max_size=300), st.text(min_size=1, max_size=30))
def test_the_role_readers_never_raise(text: str, path: str) -> None:
    assert isinstance(named_as_input(text, path), bool)
    assert isinstance(asks_to_change(text, path), bool)
    count = claimed_test_count(text)
    assert count is None or count >= 0
