"""The action model: every agent's tool calls read alike, through one table.

Each table here has rows that mean the same and look different (another agent's
tool, another argument name, another quoting) and rows that look alike and mean the
opposite (a ``sed`` that only prints, a ``git checkout -b``, a string that merely
contains ``> file``). Real calls are as the agents' own sources define them; the
sources are in ``docs/dialects.md``.
"""

from __future__ import annotations

from typing import Any

import pytest

from donecheck.actors.actions import ROWS, ActionReader, Touch, read_action, shell_touches
from donecheck.actors.actions.dialects import AGENTS, as_call, render
from donecheck.actors.actions.patches import patch_touches
from donecheck.actors.actions.sed import apply, parse
from donecheck.actors.actions.shellfiles import PROGRAMS
from donecheck.actors.actions.shellwords import steps


def touches(name: str, arguments: dict[str, Any] | str) -> list[tuple[str | None, str]]:
    return [(t.path, t.op) for t in read_action(name, arguments).touches]


# ------------------------------------------------------------ every row reads back

_VALUES = {
    "path": "tests/test_calc.py",
    "command": "python -m pytest -q",
    "old": "assert add(2, 3) == 5",
    "new": "assert add(2, 3) == -1",
    "content": "def test_add():\n    assert add(2, 3) == 5\n",
    "target": "tests/test_old.py",
    "text": "Done: all tests pass.",
}


def _values_for(row: Any) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for role in ("path", "command", "old", "new", "content", "target", "text"):
        if getattr(row, role):
            values[role] = _VALUES[role]
    if row.commands:
        values["command"] = _VALUES["command"]
    if row.paths and not row.path:
        values["paths"] = [_VALUES["path"]]
    if row.lines:
        values["lines"] = (3, 4)[: len(row.lines)]
    if row.edits:
        values["edits"] = [(_VALUES["old"], _VALUES["new"])]
    if row.patch:
        values["patch"] = (
            "*** Begin Patch\n*** Update File: tests/test_calc.py\n@@\n-a\n+b\n*** End Patch"
            if row.patch_form == "v4a"
            else "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE"
        )
    if row.code:
        values.pop("command", None)
    return values


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.agent}:{r.name}:{dict(r.when)}")
def test_every_row_reads_back_its_own_call(row: Any) -> None:
    """A call rendered from a row (its own argument names) reads back as the row's kind,
    with the path, command and texts it carried."""
    values = _values_for(row)
    args = render(row, **values)
    if row.code:
        args[row.code[0]] = "open('out.txt', 'w').write('x')"
    action = read_action(row.name, args, opened="tests/test_calc.py")
    assert action.kind == row.kind, (row, action)
    assert action.dialect == row.agent or (action.dialect and action.kind == row.kind)
    assert not action.inferred
    if row.command or row.commands:
        assert action.command == _VALUES["command"]
    paths = {t.path for t in action.touches} | {t.source for t in action.touches}
    if row.kind in {"write", "edit", "multi-edit", "patch", "read", "delete", "move", "copy"}:
        assert "tests/test_calc.py" in paths or (row.code and "out.txt" in paths), action
    if row.old and row.new and not row.edits:
        (touch,) = action.touches
        assert (touch.old, touch.new) == (_VALUES["old"], _VALUES["new"])
    if row.text:
        assert action.text == _VALUES["text"]


@pytest.mark.parametrize("agent", [a for a in AGENTS if a != "aider"])
def test_every_agent_can_run_a_command(agent: str) -> None:
    call = as_call(read_action("Bash", {"command": "pytest -q"}), agent)
    assert call is not None, agent
    back = read_action(*call)
    assert (back.kind, back.command) == ("run", "pytest -q")


# ----------------------------------------------------------- calls real agents make

REAL: list[tuple[str, dict[str, Any] | str, str, list[tuple[str | None, str]], str | None]] = [
    # (tool, arguments, kind, touches, command) — one row per agent tool as its source
    # defines it (docs/dialects.md)
    ("Bash", {"command": "pytest -q", "description": "Run tests"}, "run", [], "pytest -q"),
    ("Edit", {"file_path": "/ws/t.py", "old_string": "a", "new_string": "b"}, "edit",
     [("/ws/t.py", "edit")], None),
    ("MultiEdit", {"file_path": "/ws/t.py", "edits": [{"old_string": "a", "new_string": "b"}]},
     "multi-edit", [("/ws/t.py", "edit")], None),
    ("NotebookEdit", {"notebook_path": "/ws/n.ipynb", "new_source": "x=1"}, "edit",
     [("/ws/n.ipynb", "edit")], None),
    ("shell", {"command": ["bash", "-lc", "pytest -q"], "workdir": "/ws"}, "run", [],
     "pytest -q"),
    ("shell_command", {"command": "pytest -q", "workdir": "/ws"}, "run", [], "pytest -q"),
    ("exec_command", {"cmd": "npm test", "yield_time_ms": 1000}, "run", [], "npm test"),
    ("apply_patch", "*** Begin Patch\n*** Add File: docs/my notes.md\n+hi\n*** End Patch",
     "patch", [("docs/my notes.md", "write")], None),
    ("apply_patch", {"command": "*** Begin Patch\n*** Delete File: a.py\n*** End Patch"},
     "patch", [("a.py", "delete")], None),
    ("run_shell_command", {"command": "npm test", "description": "Run", "dir_path": "pkg"},
     "run", [], "npm test"),
    ("read_file", {"absolute_path": "/ws/spec.md"}, "read", [("/ws/spec.md", "read")], None),
    ("read_file", {"file_path": "/ws/spec.md", "start_line": 1}, "read",
     [("/ws/spec.md", "read")], None),
    ("write_file", {"file_path": "/ws/a.py", "content": "x"}, "write", [("/ws/a.py", "write")],
     None),
    ("replace", {"file_path": "/ws/stats.py", "instruction": "fix", "old_string": "a",
                 "new_string": "b"}, "edit", [("/ws/stats.py", "edit")], None),
    ("read_many_files", {"include": ["a.md", "b.md"]}, "read",
     [("a.md", "read"), ("b.md", "read")], None),
    ("bash", {"command": "npm test", "description": "Run", "mode": "sync"}, "run", [],
     "npm test"),
    ("view", {"path": "/ws/a.py", "view_range": [1, 50]}, "read", [("/ws/a.py", "read")], None),
    ("create", {"path": "/ws/a.py", "file_text": "x"}, "write", [("/ws/a.py", "write")], None),
    ("edit", {"path": "/ws/a.py", "old_str": "a", "new_str": "b"}, "edit",
     [("/ws/a.py", "edit")], None),
    ("str_replace_editor", {"command": "str_replace", "path": "/ws/a.py", "old_str": "a",
                            "new_str": "b"}, "edit", [("/ws/a.py", "edit")], None),
    ("str_replace_editor", {"command": "view", "path": "/ws/a.py"}, "read",
     [("/ws/a.py", "read")], None),
    ("str_replace_based_edit_tool", {"command": "create", "path": "/a.py", "file_text": "x"},
     "write", [("/a.py", "write")], None),
    ("read", {"filePath": "/ws/a.ts", "offset": 1}, "read", [("/ws/a.ts", "read")], None),
    ("write", {"filePath": "/ws/a.ts", "content": "x"}, "write", [("/ws/a.ts", "write")], None),
    ("edit", {"filePath": "/ws/a.ts", "oldString": "a", "newString": "b", "replaceAll": False},
     "edit", [("/ws/a.ts", "edit")], None),
    ("multiedit", {"filePath": "/ws/a.ts", "edits": [{"filePath": "/ws/a.ts", "oldString": "a",
                                                       "newString": "b"}]},
     "multi-edit", [("/ws/a.ts", "edit")], None),
    ("apply_patch", {"patchText": "*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n"
                                  "*** End Patch"}, "patch", [("a.ts", "edit")], None),
    ("execute_bash", {"command": "pytest", "security_risk": "LOW"}, "run", [], "pytest"),
    ("edit_file", {"path": "/ws/a.py", "content": "x", "start": 2, "end": 3,
                   "security_risk": "LOW"}, "edit", [("/ws/a.py", "edit")], None),
    ("execute_ipython_cell", {"code": "open('out.txt', 'w').write('hi')"}, "run",
     [("out.txt", "write")], None),
    ("finish", {"message": "Done"}, "answer", [], None),
    ("execute_command", {"command": "npm test", "requires_approval": False}, "run", [],
     "npm test"),
    ("write_to_file", {"path": "a.ts", "content": "x"}, "write", [("a.ts", "write")], None),
    ("replace_in_file", {"path": "a.ts", "diff": "------- SEARCH\na\n=======\nb\n"
                                                 "+++++++ REPLACE"}, "patch", [("a.ts", "edit")],
     None),
    ("apply_diff", {"path": "a.py", "diff": "<<<<<<< SEARCH\n:start_line:1\n-------\na\n=======\n"
                                            "b\n>>>>>>> REPLACE"}, "patch", [("a.py", "edit")],
     None),
    ("attempt_completion", {"result": "Done"}, "answer", [], None),
    ("run_terminal_cmd", {"command": "npm test", "is_background": False}, "run", [], "npm test"),
    ("read_file", {"target_file": "a.ts", "should_read_entire_file": True}, "read",
     [("a.ts", "read")], None),
    ("search_replace", {"file_path": "a.ts", "old_string": "a", "new_string": "b"}, "edit",
     [("a.ts", "edit")], None),
    ("delete_file", {"target_file": "old.ts", "explanation": "unused"}, "delete",
     [("old.ts", "delete")], None),
    ("replace_lines", {"explanation": "fix", "edits": [{"path": "a.py", "original_lines": "a",
                                                         "updated_lines": "b"}]},
     "multi-edit", [("a.py", "edit")], None),
]  # fmt: skip


@pytest.mark.parametrize(("tool", "arguments", "kind", "expected", "command"), REAL)
def test_real_calls(
    tool: str,
    arguments: dict[str, Any] | str,
    kind: str,
    expected: list[tuple[str | None, str]],
    command: str | None,
) -> None:
    action = read_action(tool, arguments)
    assert (action.kind, action.command) == (kind, command)
    assert [(t.path, t.op) for t in action.touches] == expected
    assert not action.inferred


def test_swe_agent_edits_the_file_it_opened() -> None:
    reader = ActionReader()
    reader.read("open", {"path": "tests/test_calc.py"})
    action = reader.read("edit", {"start_line": 5, "end_line": 5, "replacement_text": "pass"})
    assert [(t.path, t.op, t.lines, t.new) for t in action.touches] == [
        ("tests/test_calc.py", "edit", (5, 5), "pass")
    ]


# ---------------------------------------------------- a tool no row names: by shape

SHAPES = [
    # (tool, arguments, kind) — an unknown tool read from its arguments' shape
    ("patch_file", {"target_file": "a.py", "old_text": "x", "new_text": "y"}, "edit"),
    ("fs.modify", {"path": "a.py", "search": "x", "replace": "y"}, "edit"),
    ("put", {"file": "a.py", "data": "x"}, "write"),
    ("mk", {"filename": "a.py", "contents": "x"}, "write"),
    ("do_it", {"cmd": "pytest -q"}, "run"),
    ("runner", {"commandLine": "pytest -q"}, "run"),
    ("changes", {"diff": "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n"}, "patch"),
    ("fix", {"path": "a.py", "edits": [{"old": "a", "new": "b"}]}, "multi-edit"),
    ("remove_path", {"path": "a.py"}, "delete"),
    ("show_source", {"path": "a.py"}, "read"),
    ("relocate", {"path": "a.py", "destination": "b.py"}, "move"),
    # looks like a write, is not: the name says it reads, a path plus a text to find
    ("search_in_file", {"path": "a.py", "text": "TODO"}, "search"),
    ("lookup", {"query": "pytest"}, "other"),
]


@pytest.mark.parametrize(("tool", "arguments", "kind"), SHAPES)
def test_an_unknown_tool_is_read_by_its_shape(
    tool: str, arguments: dict[str, Any], kind: str
) -> None:
    action = read_action(tool, arguments)
    assert action.inferred and action.dialect == ""
    assert action.kind == kind, action


def test_a_known_name_with_none_of_its_arguments_is_read_by_shape() -> None:
    """Another version's arguments (Gemini's `dir_path` rename, say): not the row's."""
    action = read_action("write_file", {"target": "a.py", "body": "x"})
    assert action.inferred and action.kind == "write"


# ------------------------------------------------------ what a shell line does to files

SHELL = [
    # (command, [(path, op)]) — a row per program of PROGRAMS, and more per form
    ("echo hi > out.txt", [("out.txt", "write")]),
    ("echo hi >> out.txt", [("out.txt", "append")]),
    ("printf 'a\\n' >| out.txt", [("out.txt", "write")]),
    ("make &> build.log", [("build.log", "write")]),
    ("pytest 2> err.txt", []),
    ("pytest >/dev/null 2>&1", []),
    ("echo x | tee a.txt b.txt", [("a.txt", "write"), ("b.txt", "write")]),
    ("echo x | tee -a log.txt", [("log.txt", "append")]),
    ("cat > 'docs/my notes.md' <<'EOF'\nhello\nEOF", [("docs/my notes.md", "write")]),
    ("cat <<EOF > t.py\nassert x\nEOF", [("t.py", "write")]),
    ("sed -i 's/a/b/' t.py", [("t.py", "sed")]),
    ("sed -i.bak -e 's/a/b/' t.py", [("t.py", "sed")]),
    ("sed -i '' 's/a/b/' t.py", [("t.py", "sed")]),
    ("sed --in-place '/assert/d' t.py", [("t.py", "sed")]),
    ("sed -E -i 's/(a)/\\1b/' t.py", [("t.py", "sed")]),
    ("sed -n '1,20p' t.py", [("t.py", "partial")]),
    ("sed 's/a/b/' t.py", [("t.py", "read")]),
    ("perl -pi -e 's/a/b/g' t.py", [("t.py", "sed")]),
    ("perl -i -pe 's/a/b/' t.py", [("t.py", "sed")]),
    ("perl -0pi -e 'undef $/; s/a/b/' t.py", [("t.py", "edit")]),
    ("ruby -i -pe 'gsub(/a/, \"b\")' t.py", [("t.py", "edit")]),
    ("rm tests/test_calc.py", [("tests/test_calc.py", "delete")]),
    ("rm -rf tests", [("tests", "delete")]),
    ("unlink t.py", [("t.py", "delete")]),
    ("rmdir tests", [("tests", "delete")]),
    ("shred -u t.py", [("t.py", "delete")]),
    ("git rm -q t.py", [("t.py", "delete")]),
    ("git rm --cached t.py", []),
    ("mv t.py t_old.py", [("t.py", "delete"), ("t_old.py", "write")]),
    ("mv a.py b.py dest/", [("a.py", "delete"), ("dest/a.py", "write"), ("b.py", "delete"),
                            ("dest/b.py", "write")]),
    ("git mv t.py old/t.py", [("t.py", "delete"), ("old/t.py", "write")]),
    ("cp conftest.py tests/", [("tests/conftest.py", "write")]),
    ("install -m 644 a.cfg /etc/a.cfg", [("/etc/a.cfg", "write")]),
    ("touch tests/__init__.py", [("tests/__init__.py", "touch")]),
    ("truncate -s 0 t.py", [("t.py", "write")]),
    ("dd if=/dev/zero of=blob.bin bs=1 count=1", [("blob.bin", "write")]),
    ("git checkout -- t.py", [("t.py", "restore")]),
    ("git checkout HEAD~1 -- tests/", [("tests/", "restore")]),
    ("git checkout abc1234 t.py", [("t.py", "restore")]),
    ("git checkout t.py", [("t.py", "restore")]),
    ("git checkout main", [(None, "restore")]),
    ("git checkout -b fix", []),
    ("git restore t.py", [("t.py", "restore")]),
    ("git restore --source=HEAD~2 t.py", [("t.py", "restore")]),
    ("git restore --staged t.py", []),
    ("git reset --hard", [(None, "restore")]),
    ("git reset HEAD t.py", []),
    ("git stash", [(None, "restore")]),
    ("git stash pop", [(None, "write")]),
    ("git stash list", []),
    ("git clean -fd", [(None, "delete")]),
    ("git clean -n", []),
    ("git apply --check fix.patch", []),
    ("git apply fix.patch", [(None, "edit")]),
    ("git apply <<'EOF'\n--- a/t.py\n+++ b/t.py\n@@ -1 +1 @@\n-a\n+b\nEOF", [("t.py", "edit")]),
    ("git apply -R <<'EOF'\n--- a/t.py\n+++ b/t.py\n@@ -1 +1 @@\n-a\n+b\nEOF",
     [("t.py", "edit")]),
    ("patch -p1 < fix.diff", [(None, "edit")]),
    ("patch t.py <<'EOF'\n--- t.py\n+++ t.py\n@@ -1 +1 @@\n-a\n+b\nEOF", [("t.py", "edit")]),
    ("patch --dry-run -p1 < fix.diff", []),
    ("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: t.py\n@@\n-a\n+b\n*** End Patch\nEOF",
     [("t.py", "edit")]),
    ("python -c \"open('t.py', 'w').write('x')\"", [("t.py", "write")]),
    ("python3 -c \"from pathlib import Path; Path('t.py').write_text('x')\"", [("t.py", "write")]),
    ("python -c \"import os; os.remove('t.py')\"", [("t.py", "delete")]),
    ("python -c \"import shutil; shutil.rmtree('tests')\"", [("tests", "delete")]),
    ("python -c \"import os; os.rename('a.py', 'b.py')\"", [("a.py", "delete"), ("b.py", "write")]),
    ("python -c \"import shutil; shutil.copy('a.py', 'b.py')\"", [("b.py", "write")]),
    ("python - <<'PY'\nwith open('t.py', 'a') as f:\n    f.write('x')\nPY", [("t.py", "append")]),
    ("python3 <<'PY'\nimport pathlib\np = pathlib.Path('t.py')\np.unlink()\nPY",
     [("t.py", "delete")]),
    ("python -c \"import os; os.system('rm t.py')\"", [("t.py", "delete")]),
    ("python -c \"import subprocess; subprocess.run(['git', 'checkout', '--', 't.py'])\"",
     [("t.py", "restore")]),
    ("node -e \"require('fs').writeFileSync('t.js', 'x')\"", [("t.js", "write")]),
    ("node -e \"fs.unlinkSync('t.js')\"", [("t.js", "delete")]),
    ("node -e \"fs.renameSync('a.js', 'b.js')\"", [("a.js", "delete"), ("b.js", "write")]),
    ("cat spec.md", [("spec.md", "read")]),
    ("cat spec.md > copy.md", [("copy.md", "write")]),
    ("head -n 20 spec.md", [("spec.md", "partial")]),
    ("grep -n TODO spec.md", [("spec.md", "partial")]),
    ("wc -l spec.md", [("spec.md", "metadata")]),
    ("pdftotext spec.pdf spec.txt", [("spec.txt", "write")]),
    ("pandoc spec.docx -o spec.md", [("spec.md", "write")]),
    ("pdftoppm -png spec.pdf page", [("page", "write")]),
    ("soffice --headless --convert-to txt --outdir out spec.docx", [("out", "write")]),
    ("unzip -o tests.zip -d tests", [("tests", "write")]),
    ("bash -lc 'rm t.py'", [("t.py", "delete")]),
    ("sudo -u bob rm t.py", [("t.py", "delete")]),
    ("timeout 10 sed -i 's/a/b/' t.py", [("t.py", "sed")]),
    # look like writes, are not
    ("echo 'a > b'", []),
    ("git commit -m \"$(cat <<'EOF'\nrm -rf / > x\nEOF\n)\"", []),
    ("python -c \"print('open(x, \\\"w\\\")')\"", []),
    ("grep -q '>' t.py", [("t.py", "partial")]),
    ("pytest -q", []),
    ("ls > /dev/null", []),
]  # fmt: skip


@pytest.mark.parametrize(("command", "expected"), SHELL)
def test_what_a_shell_line_does_to_files(
    command: str, expected: list[tuple[str | None, str]]
) -> None:
    assert [(t.path, t.op) for t in shell_touches(command)] == expected


def test_every_program_row_has_a_table_row() -> None:
    """Each row of PROGRAMS is tested above: itself, or — for programs that share one
    description and reader (the printers, the converters) — one of its kind."""
    covered = {s.argv[0] for command, _ in SHELL for s in steps(command) if s.argv}
    kinds: dict[str, set[str]] = {}
    for program, (what, _) in PROGRAMS.items():
        kinds.setdefault(what, set()).add(program)
    untested = [what for what, programs in kinds.items() if not programs & covered]
    assert not untested, untested


def test_heredoc_content_and_sed_scripts_are_kept() -> None:
    (write,) = shell_touches("cat > t.py <<'EOF'\ndef test():\n    assert True\nEOF")
    assert write.new == "def test():\n    assert True\n"
    (sed,) = shell_touches("sed -i -E 's/== 3/== -1/' t.py")
    assert (sed.new, sed.extended) == ("s/== 3/== -1/", True)
    (edit,) = shell_touches(
        "python3 -c \"from pathlib import Path; p = Path('t.py');"
        " p.write_text(p.read_text().replace('== 3', '== -1'))\""
    )
    assert (edit.op, edit.old, edit.new) == ("edit", "== 3", "== -1")


def test_the_same_command_quoted_otherwise_does_the_same() -> None:
    forms = [
        "rm 'tests/test_calc.py'",
        'rm "tests/test_calc.py"',
        "rm tests/test_calc.py",
        "cd . && rm tests/test_calc.py",
        "bash -c 'rm tests/test_calc.py'",
        "rm -f -- tests/test_calc.py",
        "env -i PATH=/usr/bin rm tests/test_calc.py",
        "python3 -c \"import os; os.unlink('tests/test_calc.py')\"",
        "git rm tests/test_calc.py",
    ]
    for form in forms:
        assert [(t.path, t.op) for t in shell_touches(form)] == [
            ("tests/test_calc.py", "delete")
        ], form


# ----------------------------------------------------------------------- patches

PATCHES = [
    # (patch, [(path, op, old, new)])
    (
        "*** Begin Patch\n*** Update File: docs/my notes.md\n@@\n a\n-b\n+c\n*** End Patch",
        [("docs/my notes.md", "edit", "a\nb", "a\nc")],
    ),
    (
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** End Patch",
        [("a.py", "delete", None, None), ("b.py", "write", None, None),
         ("b.py", "edit", "x", "y")],
    ),
    ("--- a/t.py\n+++ b/t.py\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n", [("t.py", "edit", "x\ny", "x\nz")]),
    ('--- "a/my notes.md"\n+++ "b/my notes.md"\n@@ -1 +1 @@\n-a\n+b\n',
     [("my notes.md", "edit", "a", "b")]),
    ("--- a/my notes.md\t2026-01-01\n+++ b/my notes.md\t2026-01-01\n@@ -1 +1 @@\n-a\n+b\n",
     [("my notes.md", "edit", "a", "b")]),
    ("--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x\n", [("new.py", "write", None, "x\n")]),
    ("diff --git a/t.py b/t.py\ndeleted file mode 100644\n--- a/t.py\n+++ /dev/null\n"
     "@@ -1 +0,0 @@\n-x\n", [("t.py", "delete", None, None)]),
    ("t.py\n```python\n<<<<<<< SEARCH\nassert x == 3\n=======\nassert True\n>>>>>>> REPLACE\n```",
     [("t.py", "edit", "assert x == 3", "assert True")]),
    ("<<<<<<< SEARCH\n:start_line:4\n-------\nassert x == 3\n=======\npass\n>>>>>>> REPLACE",
     [("given.py", "edit", "assert x == 3", "pass")]),
    ("------- SEARCH\nassert x == 3\n=======\n+++++++ REPLACE",
     [("given.py", "edit", "assert x == 3", "")]),
]  # fmt: skip


@pytest.mark.parametrize(("patch", "expected"), PATCHES)
def test_patches(
    patch: str, expected: list[tuple[str | None, str, str | None, str | None]]
) -> None:
    found = patch_touches(patch, "given.py")
    assert [(t.path, t.op, t.old, t.new) for t in found] == expected


# ----------------------------------------------------------------------------- sed

TEXT = (
    "import calc\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n"
    "    assert calc.add(0, 0) == 0\n"
)
SED = [
    ("/assert/d", "import calc\n\ndef test_add():\n"),
    ("s/== 3/== -1/", TEXT.replace("== 3", "== -1")),
    ("4s/3/-1/g", TEXT.replace("== 3", "== -1")),
    ("3,4d", "import calc\n\n    assert calc.add(0, 0) == 0\n"),
    ("/def test_add/,/^$/d", "import calc\n\n"),
    ("s/assert \\(.*\\) == 3/assert \\1 != None/", TEXT.replace("== 3", "!= None")),
    ("$a\\    assert True", TEXT + "    assert True\n"),
    ("4c\\    pass", TEXT.replace("    assert calc.add(1, 2) == 3", "    pass")),
    ("/assert/s/^/#/", TEXT.replace("    assert", "#    assert")),
    (
        "s/a/b/;s/c/d/",
        "".join(
            x.replace("a", "b", 1).replace("c", "d", 1) for x in TEXT.splitlines(keepends=True)
        ),
    ),
]


@pytest.mark.parametrize(("script", "expected"), SED)
def test_sed_scripts_applied(script: str, expected: str) -> None:
    commands = parse(script)
    assert commands is not None
    assert apply(commands, TEXT) == expected


@pytest.mark.parametrize("script", ["h;G", ":a;N;ba", "s/unterminated"])
def test_sed_scripts_not_understood_are_not_guessed(script: str) -> None:
    assert parse(script) is None


def test_touch_is_a_plain_value() -> None:
    assert Touch("a", "write") == Touch("a", "write", new=None)
