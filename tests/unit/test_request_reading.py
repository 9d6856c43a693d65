"""What a request item asks of each file it names, and how a file tool reports failure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from donecheck.actors.evidence.runner import tool_error
from donecheck.actors.review.preanalysis import extract_acceptance
from donecheck.actors.words.claims import (
    asks_for_change,
    asks_to_change,
    mentioned_categories,
    strip_pasted_code,
)


@pytest.mark.parametrize(
    ("item", "path", "change"),
    [
        ("Read budget.txt and write a summary into summary.md.", "budget.txt", False),
        ("Read budget.txt and write a summary into summary.md.", "summary.md", True),
        ("Update config.py using values from defaults.json.", "config.py", True),
        ("Update config.py using values from defaults.json.", "defaults.json", False),
        ("Fix the bug in calc.py.", "calc.py", True),
        ("请阅读 budget.txt，并把摘要写入 summary.md。", "budget.txt", False),
        ("请阅读 budget.txt，并把摘要写入 summary.md。", "summary.md", True),
        ("budget.txt を読んで、要約を summary.md に書いてください。", "budget.txt", False),
        ("budget.txt を読んで、要約を summary.md に書いてください。", "summary.md", True),
        ("Lee budget.txt y escribe un resumen en summary.md.", "budget.txt", False),
        ("Lies budget.txt und schreibe eine Zusammenfassung in summary.md.", "summary.md", True),
        ("Lis budget.txt et écris un résumé dans summary.md.", "budget.txt", False),
        ("What does net/retry.py do? Just explain, don't change anything.", "net/retry.py", False),
        # a conversion reads its source and writes its target
        ("Convert data.json to out.csv.", "data.json", False),
        ("Convert data.json to out.csv.", "out.csv", True),
        ("Convert the file `data.json` into a CSV file named out.csv.", "data.json", False),
        ("把 data.json 转换为 out.csv。", "data.json", False),
        ("Konvertiere data.json in out.csv.", "data.json", False),
        ("Convierte data.json a out.csv.", "data.json", False),
        ("Convertis data.json en out.csv.", "data.json", False),
        ("data.json を out.csv に変換してください。", "data.json", False),
        ("Update config.json to use port 8080.", "config.json", True),
        ("Rename old.py to new.py.", "old.py", True),
        # converted in place: no other file or format is the target
        ("Convert test_calc.py to pytest style.", "test_calc.py", True),
        ("Convert config.yaml into the new schema.", "config.yaml", True),
        ("Convert data.json to CSV.", "data.json", False),
    ],
)
def test_the_verb_nearest_a_path_decides(item: str, path: str, change: bool) -> None:
    assert asks_to_change(item, path) is change


@pytest.mark.parametrize(
    ("item", "change"),
    [
        ("Don't change anything, just explain.", False),
        ("不要修改任何文件，只解释原因。", False),
        ("Explain it; do not modify the code.", False),
        ("Fix it, but don't change the tests.", True),
    ],
)
def test_a_forbidden_change_is_no_change(item: str, change: bool) -> None:
    assert asks_for_change(item) is change


@pytest.mark.parametrize(
    ("text", "categories"),
    [
        ("Create CONTRIBUTING.md with one line: 'Run make test before sending a PR.'", set()),
        ('Add the line "Always run the tests first." to README.md', set()),
        ("Fix calc.py and make sure 'pytest -q' passes", {"test"}),
        ("calc.py を修正して、テストが通ることを確認してください。", {"test"}),
        ("Asegúrate de que las pruebas pasen.", {"test"}),
    ],
)
def test_quoted_sentences_name_no_check(text: str, categories: set[str]) -> None:
    assert mentioned_categories(text) == categories


@pytest.mark.parametrize(
    ("output", "failed"),
    [
        ("Error: permission denied: LICENSE", True),
        ("Error: EACCES: permission denied, open 'NOTES.md'", True),
        ("ENOENT: no such file or directory", True),
        ("old_str `foo` not found in calc.py", True),
        ("Wrote 31 bytes to calc.py", False),
        ("ok", False),
        ("Error handling guide\n\nThis document explains...", False),
    ],
)
def test_a_file_tool_error_message(output: str, failed: bool) -> None:
    assert tool_error(output) is failed


def test_an_honest_conversion_is_not_steered_for_its_source() -> None:
    """Found by hand: "Convert data.json to out.csv" done by a script the agent wrote,
    ran and checked was steered for "no write to data.json"."""
    from donecheck.actors.messages import Deliver, Steer
    from donecheck.runtime import DoneCheck

    def stop(dc: DoneCheck, shown: bool) -> object:
        with dc.open_session("Convert data.json to out.csv.") as s:
            call = s.tool_call("write_file", {"path": "convert.py", "content": "import csv"})
            s.tool_result(call, output="wrote 10 bytes to convert.py", exit_code=0)
            call = s.tool_call("run_command", {"command": "python convert.py"})
            s.tool_result(call, output="", exit_code=0)
            if shown:
                call = s.tool_call("run_command", {"command": "head -3 out.csv"})
                s.tool_result(call, output="id,name\n1,a\n2,b", exit_code=0)
            return s.turn_stopping("I ran convert.py; out.csv now holds the rows.")

    with DoneCheck.start_local(store_url="memory://") as dc:
        assert isinstance(stop(dc, shown=True), Deliver)
        assert isinstance(stop(dc, shown=False), Steer)  # out.csv never shown: still asked
        # a file converted in place is a file to change: reading it passes nothing
        with dc.open_session("Convert test_calc.py to pytest style.") as s:
            call = s.tool_call("run_command", {"command": "cat test_calc.py"})
            s.tool_result(
                call, output="import unittest\nclass T(unittest.TestCase): ...", exit_code=0
            )
            assert not isinstance(
                s.turn_stopping("Converted test_calc.py to pytest style."), Deliver
            )


# ---------------------------------------- pasted code asks nothing (a public Harbor run)


@pytest.mark.parametrize(
    ("request_text", "items"),
    [
        (  # tests/public_runs/harbor: a pasted Java file's Javadoc read as AC1-AC9
            "Find what the class depends on.\n```java\n/**\n * Created with IntelliJ IDEA.\n"
            " * User: Udini\n * Date: 20/03/13\n */\npublic class A {}\n```\n"
            "1. List every import.\n2. The answer must be JSON.",
            ["List every import.", "The answer must be JSON."],
        ),
        (
            "Fix this:\n~~~python\n# 1. must not print\n- item in code\n~~~\n"
            "1. Fix the bug in calc.py\n2. The tests must pass.",
            ["Fix the bug in calc.py", "The tests must pass."],
        ),
        (  # a fence between the items keeps both
            "1. Fix the bug in calc.py\n```\nx = 1\n```\n2. Add a test for it.",
            ["Fix the bug in calc.py", "Add a test for it."],
        ),
    ],
)
def test_lines_of_pasted_code_are_no_items(request_text: str, items: list[str]) -> None:
    assert [i.text for i in extract_acceptance("r", request_text).items] == items


# ------------------------------ pasted code without a fence asks nothing either

_TSX = (
    '"use client";\n\nimport {\n  Conversation,\n  ConversationContent,\n}'
    ' from "@/components/ai-elements/conversation";\n\nconst Example = () => {\n'
    "  const [visible, setVisible] = useState([]);\n  return (\n"
    '    <Conversation className="relative size-full">\n      <ConversationContent />\n'
    "    </Conversation>\n  );\n};\n\nexport default Example;\n"
)
_PY = (
    "def load(path):\n    with open(path) as f:\n        # this must never raise\n"
    "        return json.load(f)\n\nclass Store:\n    def __init__(self):\n"
    "        self.items = []\n"
)


@pytest.mark.parametrize(
    ("request_text", "items"),
    [
        (  # the public Claude Code 2.0.29 session (agentcmd 06381696): a TSX paste with
            # the terminal's `\` line continuations, then a link — no item is code
            "Let's explore scrolling. AI Elements has components for this. I'd like to"
            " evaluate using them in our tool:\\\n\\\n"
            + _TSX.replace("\n", "\n", 1)
            + "\\\n\\\nhere's the page:\\\nhttps://ai-sdk.dev/elements/components/conversation",
            [
                "Let's explore scrolling. AI Elements has components for this. I'd like to"
                " evaluate using them in our tool: here's the page:"
                " https://ai-sdk.dev/elements/components/conversation"
            ],
        ),
        (  # unfenced Python: a comment's "must" is no requirement
            "Here is my loader:\n\n" + _PY + "\n1. Make load() return {} for a missing file."
            "\n2. The tests must pass.",
            ["Make load() return {} for a missing file.", "The tests must pass."],
        ),
        (  # a long paste of code, then the ask: the ask is the item
            "Fix the crash.\n\n" + _TSX * 12 + "\nPlease now make npm test pass.",
            ["Please now make npm test pass."],
        ),
    ],
)
def test_unfenced_pasted_code_is_no_item(request_text: str, items: list[str]) -> None:
    assert [i.text for i in extract_acceptance("r", request_text).items] == items


@pytest.mark.parametrize(
    ("request_text", "items"),
    [
        # prose that looks a little like code stays what it asks
        (
            "1. Add tests (unit and integration);\n2. Update the README (and the docs);\n"
            "3. Bump the version (to 2.0);",
            [
                "Add tests (unit and integration);",
                "Update the README (and the docs);",
                "Bump the version (to 2.0);",
            ],
        ),
        (
            "The parser must accept {a: 1};\nThe CLI must print usage(),\nIt must exit 2;",
            ["The parser must accept {a: 1};", "The CLI must print usage(),", "It must exit 2;"],
        ),
        ("Please now make python -m pytest -q pass", ["Please now make python -m pytest -q pass"]),
        (
            "Return early from parse() when the input is empty.",
            ["Return early from parse() when the input is empty."],
        ),
    ],
)
def test_prose_that_looks_like_code_is_still_asked(request_text: str, items: list[str]) -> None:
    assert [i.text for i in extract_acceptance("r", request_text).items] == items


@given(st.text(alphabet=st.sampled_from("ab (){};,=<>\\\n\t:/#*"), max_size=300))
def test_stripping_pasted_code_only_takes_lines_away(text: str) -> None:
    """Any text: what is left is some of its lines (continuations cut), in order."""
    kept = strip_pasted_code(text).splitlines()
    lines = iter(text.splitlines())
    assert all(any(line.startswith(k) for line in lines) for k in kept)


_HUNK = (
    "diff --git a/django/core/files/locks.py b/django/core/files/locks.py\n"
    "index c46b00b905..4938347ea7 100644\n"
    "--- a/django/core/files/locks.py\n"
    "+++ b/django/core/files/locks.py\n"
    "@@ -107,4 +107,6 @@ else:\n"
    "\t\t def lock(f, flags):\n"
    "-\t\t\tret = fcntl.flock(_fd(f), flags)\n"
    "-\t\t\treturn ret == 0\n"
    "+\t\t\ttry:\n"
    "+\t\t\t\tfcntl.flock(_fd(f), flags)\n"
    "+\t\t\t\treturn True\n"
    "+\t\t\texcept OSError:\n"
    "\t\t def unlock(f):\n"
)


@pytest.mark.parametrize(
    ("request_text", "items"),
    [
        (  # a SWE-bench issue (django__django-13410): the fix it proposes, as a diff whose
            # context lines an issue tracker indented with tabs — no line of it is an item
            "The posix lock always returns False.\nI believe the correct implementation"
            " should be the following:\n" + _HUNK,
            ["I believe the correct implementation should be the following:"],
        ),
        (  # the same hunk with space context, no git header, then a real list
            "Apply this:\n" + _HUNK.split("+++ b/django/core/files/locks.py\n", 1)[1].replace(
                "\t\t def", "  def"
            )
            + "\n- Keep lock() and unlock() symmetric.\n- Add a test for LOCK_NB.",
            ["Keep lock() and unlock() symmetric.", "Add a test for LOCK_NB."],
        ),
        (  # a hunk's counts end it: the bullets right after it are a list again
            "Context:\n@@ -1,2 +1,2 @@\n-old = 1\n+new = 1\n same = 2\n"
            "- Fix the docs.\n- Fix the tests.",
            ["Fix the docs.", "Fix the tests."],
        ),
        (  # no hunk header: "- …" and "+ …" lines are a list, not a diff
            "Please:\n- remove the old flag\n+ add the new one\n- update the docs",
            ["remove the old flag", "add the new one", "update the docs"],
        ),
    ],
)  # fmt: skip
def test_a_pasted_diff_is_no_list_of_items(request_text: str, items: list[str]) -> None:
    assert [i.text for i in extract_acceptance("r", request_text).items] == items


@pytest.mark.parametrize(
    ("text", "tests"),
    [
        # the user trying something out names no test run (a public Claude Code session,
        # slopus/happy: "Show me a sample of using Task tool, I am testing this feature")
        ("Show me a sample of the Task tool, I am testing this feature.", False),
        ("I'm just testing the new web search; find TypeScript 5.6 news.", False),
        ("We are trying out the sub-agents: summarise README.md.", False),
        ("Ich teste gerade die Suche: fasse README.md zusammen.", False),
        ("Je teste cette fonction : résume le README.", False),
        ("Estoy probando la búsqueda: resume el README.", False),
        ("Estou testando a busca: resuma o README.", False),
        ("Sto testando la ricerca: riassumi il README.", False),
        ("Я тестирую поиск: кратко опиши README.", False),
        ("我在测试这个功能，帮我总结一下 README。", False),
        ("この機能をテストしています。README を要約して。", False),
        ("이 기능을 테스트하고 있어요. README를 요약해 주세요.", False),
        # … and asking for tests still does, in the same sentence or another
        ("I'm testing the parser, so run the tests too.", True),
        ("Fix the bug and test it.", True),
        ("Make sure the tests pass.", True),
        ("Teste die Änderung, bevor du fertig bist.", True),
        ("测试一下这个修改。", True),
        ("Estou testando a busca; rode os testes também.", True),
    ],
)
def test_the_users_own_testing_asks_for_no_test_run(text: str, tests: bool) -> None:
    from donecheck.actors.words.claims import mentioned_categories

    assert ("test" in mentioned_categories(text)) is tests
