"""What each agent's tools do: one table of rows, and the one function that reads a
tool call through it.

A :class:`Row` names one tool of one agent — its name as the model calls it, the
kind of thing it does, and which of its arguments carry the path, the command,
the old and new text, the content, the patch, a line range, a list of edits, a
destination. :func:`read_action` turns a call into an
:class:`~.model.Action` through the row that fits it best (the same name, the
``when`` conditions met, most of its argument keys present). A tool no row names
is read by the shape of its arguments — a path plus old and new text is an edit,
a path plus content a write, a command a run — and the action says it was
inferred. :func:`render` goes the other way: an action written as another
agent's call, which the tests use to check that no decision depends on the
dialect.

Sources for each agent's rows are in ``docs/dialects.md``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from donecheck.actors.actions.model import Action, Kind, Touch
from donecheck.actors.actions.patches import is_patch, patch_touches
from donecheck.actors.actions.shellfiles import code_touches, shell_touches

__all__ = [
    "AGENTS",
    "ROWS",
    "Row",
    "as_call",
    "command_text",
    "read_action",
    "render",
    "rows_of",
]


@dataclass(frozen=True, slots=True)
class Row:
    """One tool of one agent: what it does and where its arguments say so."""

    agent: str
    name: str
    kind: Kind
    path: tuple[str, ...] = ()
    """Argument keys that may hold the file it acts on (the first present wins)."""
    paths: tuple[str, ...] = ()
    """Argument keys holding a list of files."""
    command: tuple[str, ...] = ()
    """Keys of the shell command (a string, or an argv list)."""
    commands: tuple[str, ...] = ()
    """Keys of a list of command lines run one after another."""
    old: tuple[str, ...] = ()
    new: tuple[str, ...] = ()
    content: tuple[str, ...] = ()
    patch: tuple[str, ...] = ()
    edits: str = ""
    """The key of a list of edits, each read with this row's path/old/new keys."""
    lines: tuple[str, ...] = ()
    """Keys of the first and (optionally) the last line a line edit replaces; one key
    alone names the line after which text is inserted."""
    target: tuple[str, ...] = ()
    """Keys of a move's or a copy's destination."""
    text: tuple[str, ...] = ()
    """Keys of an answer's, a question's or a sub-agent prompt's text."""
    task: tuple[str, ...] = ()
    """Keys of the background task whose output an ``output`` call fetches."""
    code: tuple[str, ...] = ()
    """Keys of inline code it runs (in ``language``), read for what it does to files."""
    language: str = ""
    when: tuple[tuple[str, str], ...] = ()
    """Argument values the call must have for this row (an editor's sub-command)."""
    opens: bool = False
    """What it shows becomes the file later path-less line edits act on (SWE-agent)."""
    open_file: bool = False
    """It edits the file last opened, not one it names (SWE-agent's ``edit``)."""
    argv: bool = False
    """Its command is an argv list (Codex's ``shell``: ``["bash", "-lc", …]``)."""
    patch_form: str = "v4a"
    """The form its patch takes: ``v4a`` (``*** Begin Patch``), ``search-replace``."""

    def keys(self) -> tuple[str, ...]:
        return (
            *self.path, *self.paths, *self.command, *self.commands, *self.old, *self.new,
            *self.content, *self.patch, *((self.edits,) if self.edits else ()), *self.lines,
            *self.target, *self.text, *self.task, *self.code,
        )  # fmt: skip


def _r(agent: str, name: str, kind: Kind, **fields: Any) -> Row:
    return Row(agent, name, kind, **fields)


# ------------------------------------------------------------------- the table

_CC = "claude-code"
_EDITOR: tuple[tuple[str, Kind, dict[str, tuple[str, ...]]], ...] = (
    # the sub-commands of Anthropic's text editor (OpenHands' and SWE-agent's are its copies)
    ("view", "read", {}),
    ("create", "write", {"content": ("file_text",)}),
    ("str_replace", "edit", {"old": ("old_str",), "new": ("new_str",)}),
    ("insert", "edit", {"lines": ("insert_line",), "new": ("new_str",)}),
    ("undo_edit", "edit", {}),
)
ROWS: tuple[Row, ...] = (
    # --- Claude Code: sdk-tools.d.ts of @anthropic-ai/claude-code 1.0.100 and the agent
    # SDK; hook payloads and transcripts recorded from the real CLI in tests/clients
    _r(_CC, "Bash", "run", command=("command",)),
    _r(_CC, "BashOutput", "output", task=("bash_id",)),
    _r(_CC, "TaskOutput", "output", task=("task_id",)),
    _r(_CC, "KillShell", "other"),
    _r(_CC, "KillBash", "other"),
    _r(_CC, "TaskStop", "other"),
    _r(_CC, "Read", "read", path=("file_path",)),
    _r(_CC, "Write", "write", path=("file_path",), content=("content",)),
    _r(_CC, "Edit", "edit", path=("file_path",), old=("old_string",), new=("new_string",)),
    _r(_CC, "MultiEdit", "multi-edit", path=("file_path",), edits="edits",
       old=("old_string",), new=("new_string",)),
    _r(_CC, "NotebookEdit", "edit", path=("notebook_path",), content=("new_source",)),
    _r(_CC, "NotebookRead", "read", path=("notebook_path",)),
    _r(_CC, "Glob", "search", path=("path",)),
    _r(_CC, "Grep", "search", path=("path",)),
    _r(_CC, "LS", "list", path=("path",)),
    _r(_CC, "Task", "sub-agent", text=("prompt",)),
    _r(_CC, "Agent", "sub-agent", text=("prompt",)),
    _r(_CC, "TodoWrite", "plan"),
    _r(_CC, "ExitPlanMode", "plan", text=("plan",)),
    _r(_CC, "AskUserQuestion", "ask"),
    _r(_CC, "WebFetch", "web"),
    _r(_CC, "WebSearch", "web"),
    # --- Codex CLI: codex-rs/core/src/tools/spec.rs (shell takes an argv list); rollouts,
    # `exec --json` and hooks recorded from the real CLI in tests/clients
    _r("codex", "shell", "run", command=("command",), argv=True),
    _r("codex", "shell_command", "run", command=("command",)),
    _r("codex", "container.exec", "run", command=("command",), argv=True),
    _r("codex", "local_shell", "run", command=("command",), argv=True),
    _r("codex", "exec_command", "run", command=("cmd", "command")),
    _r("codex", "write_stdin", "output", task=("session_id",)),
    _r("codex", "apply_patch", "patch", patch=("input", "patch", "command")),
    _r("codex", "update_plan", "plan"),
    _r("codex", "view_image", "view", path=("path",)),
    _r("codex", "read_file", "read", path=("file_path",)),
    _r("codex", "list_dir", "list", path=("dir_path",)),
    _r("codex", "grep_files", "search", path=("path",)),
    _r("codex", "spawn_agent", "sub-agent", text=("message",)),
    _r("codex", "request_user_input", "ask"),
    # --- Gemini CLI: packages/core/src/tools/definitions (file_path since 0.14.0,
    # absolute_path before; dir_path since 0.14.0, path before); the *_TOOL_NAME
    # constants of @google/gemini-cli 0.61.0's bundle; AfterTool payloads recorded from it
    _r("gemini", "run_shell_command", "run", command=("command",)),
    _r("gemini", "read_file", "read", path=("file_path", "absolute_path")),
    _r("gemini", "read_many_files", "read", paths=("include", "paths")),
    _r("gemini", "write_file", "write", path=("file_path",), content=("content",)),
    _r("gemini", "replace", "edit", path=("file_path",), old=("old_string",),
       new=("new_string",)),
    _r("gemini", "list_directory", "list", path=("dir_path", "path")),
    _r("gemini", "glob", "search", path=("dir_path", "path")),
    _r("gemini", "grep_search", "search", path=("dir_path", "path")),
    _r("gemini", "search_file_content", "search", path=("dir_path", "path")),
    _r("gemini", "invoke_agent", "sub-agent", text=("prompt",)),
    _r("gemini", "complete_task", "answer", text=("result",)),
    _r("gemini", "ask_user", "ask"),
    _r("gemini", "write_todos", "plan"),
    _r("gemini", "enter_plan_mode", "plan"),
    _r("gemini", "exit_plan_mode", "plan"),
    _r("gemini", "save_memory", "other"),
    _r("gemini", "web_fetch", "web"),
    _r("gemini", "google_web_search", "web"),
    _r("gemini", "activate_skill", "other"),
    _r("gemini", "get_internal_docs", "other"),
    _r("gemini", "update_topic", "plan"),
    _r("gemini", "tracker_create_task", "plan"),
    _r("gemini", "tracker_update_task", "plan"),
    _r("gemini", "tracker_get_task", "plan"),
    _r("gemini", "tracker_list_tasks", "plan"),
    _r("gemini", "tracker_add_dependency", "plan"),
    _r("gemini", "tracker_visualize", "plan"),
    _r("gemini", "read_mcp_resource", "other"),
    _r("gemini", "list_mcp_resources", "other"),
    # --- GitHub Copilot CLI: the tool schemas in @github/copilot 0.0.423's bundle;
    # postToolUse's toolName/toolArgs and events.jsonl's tool.execution_start
    _r("copilot", "bash", "run", command=("command",)),
    _r("copilot", "powershell", "run", command=("command",)),
    _r("copilot", "read_bash", "output", task=("shellId",)),
    _r("copilot", "write_bash", "other"),
    _r("copilot", "stop_bash", "other"),
    _r("copilot", "list_bash", "other"),
    _r("copilot", "view", "read", path=("path",)),
    _r("copilot", "create", "write", path=("path",), content=("file_text",)),
    _r("copilot", "edit", "edit", path=("path",), old=("old_str",), new=("new_str",)),
    _r("copilot", "rg", "search", path=("path",)),
    _r("copilot", "task", "sub-agent", text=("prompt",)),
    _r("copilot", "read_agent", "output"),
    _r("copilot", "ask_user", "ask", text=("question",)),
    _r("copilot", "task_complete", "answer", text=("summary",)),
    _r("copilot", "update_todo", "plan"),
    _r("copilot", "report_intent", "plan"),
    _r("copilot", "exit_plan_mode", "plan"),
    _r("copilot", "skill", "other"),
    # the PascalCase hook dialect of @github/copilot 1.0.102 (PostToolUse, recorded in
    # tests/clients/recorded/copilot-*) renames its tools to Claude Code's names but keeps
    # their own argument keys: view → Read, edit → Edit (bash → Bash reads as Claude's)
    _r("copilot", "Read", "read", path=("path",)),
    _r("copilot", "Edit", "edit", path=("path",), old=("old_str",), new=("new_str",)),
    # --- OpenCode: packages/opencode/src/tool (camelCase keys; `patch` renamed
    # `apply_patch`, used instead of edit/write for gpt- models); packages/core's newer
    # plugins take `path`
    _r("opencode", "bash", "run", command=("command",)),
    _r("opencode", "read", "read", path=("filePath", "path")),
    _r("opencode", "write", "write", path=("filePath", "path"), content=("content",)),
    _r("opencode", "edit", "edit", path=("filePath", "path"), old=("oldString",),
       new=("newString",)),
    _r("opencode", "multiedit", "multi-edit", path=("filePath",), edits="edits",
       old=("oldString",), new=("newString",)),
    _r("opencode", "apply_patch", "patch", patch=("patchText",)),
    _r("opencode", "patch", "patch", patch=("patchText",)),
    _r("opencode", "list", "list", path=("path",)),
    _r("opencode", "glob", "search", path=("path",)),
    _r("opencode", "grep", "search", path=("path",)),
    _r("opencode", "task", "sub-agent", text=("prompt",)),
    _r("opencode", "subagent", "sub-agent", text=("prompt",)),
    _r("opencode", "question", "ask"),
    _r("opencode", "todowrite", "plan"),
    _r("opencode", "todoread", "plan"),
    _r("opencode", "webfetch", "web"),
    # --- OpenHands: openhands/agenthub/codeact_agent/tools (classic) and the V1 SDK's
    # openhands-tools (terminal, file_editor, apply_patch, task, finish)
    _r("openhands", "execute_bash", "run", command=("command",)),
    _r("openhands", "terminal", "run", command=("command",)),
    _r("openhands", "execute_ipython_cell", "run", code=("code",), language="python"),
    *(
        _r("openhands", name, kind, path=("path",), **extra, when=(("command", sub),))
        for name in ("str_replace_editor", "file_editor")
        for sub, kind, extra in _EDITOR
    ),
    _r("openhands", "edit_file", "edit", path=("path",), lines=("start", "end"),
       new=("content",)),
    _r("openhands", "apply_patch", "patch", patch=("patch",)),
    _r("openhands", "task", "sub-agent", text=("prompt",)),
    _r("openhands", "finish", "answer", text=("message",)),
    _r("openhands", "think", "plan"),
    _r("openhands", "task_tracker", "plan"),
    _r("openhands", "browser", "web"),
    # --- Anthropic's text editor (str_replace_based_edit_tool for text_editor_20250728
    # and _20250429, str_replace_editor before) and bash tools
    _r("anthropic", "bash", "run", command=("command",)),
    *(
        _r("anthropic", name, kind, path=("path",), **extra, when=(("command", sub),))
        for name in ("str_replace_based_edit_tool", "str_replace_editor")
        for sub, kind, extra in _EDITOR
    ),
    # --- SWE-agent: tools/*/config.yaml (the windowed editor acts on the open file)
    _r("swe-agent", "bash", "run", command=("command",)),
    _r("swe-agent", "open", "read", path=("path",), opens=True),
    _r("swe-agent", "create", "write", path=("filename",), opens=True),
    _r("swe-agent", "goto", "read", open_file=True),
    _r("swe-agent", "scroll_up", "read", open_file=True),
    _r("swe-agent", "scroll_down", "read", open_file=True),
    _r("swe-agent", "edit", "edit", lines=("start_line", "end_line"),
       new=("replacement_text",), open_file=True),
    _r("swe-agent", "edit", "edit", old=("search",), new=("replace",), open_file=True),
    _r("swe-agent", "edit", "edit", content=("text",), open_file=True),
    _r("swe-agent", "insert", "edit", lines=("line",), new=("text",), open_file=True),
    _r("swe-agent", "filemap", "read", path=("file_path",)),
    _r("swe-agent", "find_file", "search", path=("dir",)),
    _r("swe-agent", "search_dir", "search", path=("dir",)),
    _r("swe-agent", "search_file", "search", path=("file",)),
    _r("swe-agent", "submit", "answer"),
    _r("swe-agent", "exit_forfeit", "answer"),
    # --- Roo Code: src/core/prompts/tools/native-tools (apply_diff's SEARCH/REPLACE
    # blocks carry `:start_line:` and `-------`)
    _r("roo", "execute_command", "run", command=("command",)),
    _r("roo", "read_file", "read", path=("path",), paths=("files",)),
    _r("roo", "write_to_file", "write", path=("path",), content=("content",)),
    _r("roo", "apply_diff", "patch", path=("path",), patch=("diff",), patch_form="search-replace"),
    _r("roo", "edit", "edit", path=("file_path",), old=("old_string",), new=("new_string",)),
    _r("roo", "search_replace", "edit", path=("file_path",), old=("old_string",),
       new=("new_string",)),
    _r("roo", "edit_file", "edit", path=("file_path",), old=("old_string",),
       new=("new_string",)),
    _r("roo", "search_and_replace", "edit", path=("path",), old=("search",),
       new=("replace",)),
    _r("roo", "search_and_replace", "multi-edit", path=("path",), edits="operations",
       old=("search",), new=("replace",)),
    _r("roo", "insert_content", "edit", path=("path",), lines=("line",), new=("content",)),
    _r("roo", "apply_patch", "patch", patch=("patch",)),
    _r("roo", "list_files", "list", path=("path",)),
    _r("roo", "search_files", "search", path=("path",)),
    _r("roo", "attempt_completion", "answer", text=("result",)),
    _r("roo", "ask_followup_question", "ask", text=("question",)),
    _r("roo", "new_task", "sub-agent", text=("message",)),
    _r("roo", "update_todo_list", "plan"),
    # --- Cline: src/core/prompts/system-prompt/tools (XML `path`, native `absolutePath`;
    # replace_in_file's ------- SEARCH / +++++++ REPLACE blocks)
    _r("cline", "execute_command", "run", command=("command",)),
    _r("cline", "read_file", "read", path=("path", "absolutePath")),
    _r("cline", "write_to_file", "write", path=("path", "absolutePath"), content=("content",)),
    _r("cline", "replace_in_file", "patch", path=("path", "absolutePath"), patch=("diff",),
       patch_form="search-replace"),
    _r("cline", "apply_patch", "patch", patch=("input",)),
    _r("cline", "list_files", "list", path=("path",)),
    _r("cline", "search_files", "search", path=("path",)),
    _r("cline", "list_code_definition_names", "search", path=("path",)),
    _r("cline", "attempt_completion", "answer", text=("result",)),
    _r("cline", "ask_followup_question", "ask", text=("question",)),
    _r("cline", "plan_mode_respond", "ask", text=("response",)),
    _r("cline", "new_task", "sub-agent", text=("context",)),
    _r("cline", "run_commands", "run", commands=("commands", "command", "cmd")),
    _r("cline", "read_files", "read", paths=("files", "paths", "file_paths")),
    _r("cline", "editor", "edit", path=("path",), old=("old_text",), new=("new_text",)),
    _r("cline", "submit_and_exit", "answer", text=("summary",)),
    # --- Cursor: its agent's tool schemas (public prompt dumps; no official schema);
    # edit_file's code_edit is a sketch with "… existing code …" markers, not the file
    _r("cursor", "run_terminal_cmd", "run", command=("command",)),
    _r("cursor", "read_file", "read", path=("target_file",)),
    _r("cursor", "edit_file", "edit", path=("target_file",), content=("code_edit",)),
    _r("cursor", "search_replace", "edit", path=("file_path",), old=("old_string",),
       new=("new_string",)),
    _r("cursor", "write", "write", path=("file_path",), content=("contents",)),
    _r("cursor", "delete_file", "delete", path=("target_file",)),
    _r("cursor", "edit_notebook", "edit", path=("target_notebook",), old=("old_string",),
       new=("new_string",)),
    _r("cursor", "list_dir", "list", path=("relative_workspace_path", "target_directory")),
    _r("cursor", "grep_search", "search"),
    _r("cursor", "file_search", "search"),
    _r("cursor", "glob_file_search", "search", path=("target_directory",)),
    _r("cursor", "codebase_search", "search"),
    _r("cursor", "todo_write", "plan"),
    # --- Aider: its `func` edit format (editblock_func_coder.py); its SEARCH/REPLACE
    # blocks, wherever a tool carries them, are read as a patch by their markers
    _r("aider", "replace_lines", "multi-edit", edits="edits", path=("path",),
       old=("original_lines",), new=("updated_lines",)),
    # --- OpenAI's tools (the Responses shell's list of commands, apply_patch's V4A text)
    _r("openai", "shell", "run", commands=("commands",)),
    _r("openai", "apply_patch", "patch", patch=("input", "patch", "diff")),
    # --- generic names (SDK examples, frameworks, home-made agents)
    _r("generic", "run_command", "run", command=("command", "cmd")),
    _r("generic", "execute_command", "run", command=("command", "cmd")),
    _r("generic", "run_shell", "run", command=("command", "cmd")),
    _r("generic", "shell", "run", command=("command", "cmd", "script")),
    _r("generic", "terminal", "run", command=("command", "cmd")),
    _r("generic", "exec", "run", command=("command", "cmd")),
    _r("generic", "run", "run", command=("command", "cmd")),
    _r("generic", "read_file", "read", path=("path", "file_path", "filename", "file")),
    _r("generic", "view_file", "read", path=("path", "file_path", "filename", "file")),
    _r("generic", "open_file", "read", path=("path", "file_path", "filename", "file")),
    _r("generic", "cat", "read", path=("path", "file_path", "file")),
    *(
        _r("generic", name, "read", path=("path", "file_path", "file", "filename", "name",
                                          "attachment", "uri"))
        for name in ("readfile", "get_file", "file_read", "fs_read", "read_document",
                     "read_notebook", "notebook_read", "read_attachment", "fetch_attachment")
    ),
    _r("generic", "write_file", "write", path=("path", "file_path", "filename", "file"),
       content=("content", "contents", "text", "data")),
    _r("generic", "create_file", "write", path=("path", "file_path", "filename", "file"),
       content=("content", "contents", "text", "file_text")),
    _r("generic", "save_file", "write", path=("path", "file_path", "filename"),
       content=("content", "contents", "text")),
    _r("generic", "append_file", "write", path=("path", "file_path"), content=("content", "text")),
    _r("generic", "append_to_file", "write", path=("path", "file_path"),
       content=("content", "text")),
    _r("generic", "edit_file", "edit", path=("path", "file_path", "filename"),
       old=("old", "old_string", "old_str", "old_text", "search"),
       new=("new", "new_string", "new_str", "new_text", "replace")),
    _r("generic", "str_replace", "edit", path=("path", "file_path"),
       old=("old_str", "old_string", "old"), new=("new_str", "new_string", "new")),
    _r("generic", "replace_in_file", "edit", path=("path", "file_path"),
       old=("old", "old_string", "search"), new=("new", "new_string", "replace")),
    _r("generic", "delete_file", "delete", path=("path", "file_path", "filename", "file")),
    _r("generic", "remove_file", "delete", path=("path", "file_path", "filename", "file")),
    _r("generic", "move_file", "move", path=("source", "src", "path", "from"),
       target=("destination", "dest", "target", "to", "new_path")),
    _r("generic", "rename_file", "move", path=("source", "src", "path", "old_path", "from"),
       target=("destination", "dest", "target", "to", "new_path")),
    _r("generic", "copy_file", "copy", path=("source", "src", "path", "from"),
       target=("destination", "dest", "target", "to")),
    _r("generic", "list_files", "list", path=("path", "directory", "dir")),
    _r("generic", "list_directory", "list", path=("path", "directory", "dir")),
    _r("generic", "search_files", "search", path=("path", "directory", "dir")),
    _r("generic", "read_image", "view", path=("path", "file_path", "image_path")),
    _r("generic", "view_image", "view", path=("path", "file_path", "image_path")),
    _r("generic", "final_answer", "answer", text=("answer", "text", "result")),
)  # fmt: skip
"""Every agent tool DoneCheck knows, a row each. Add a row (and a test row) per new
tool; never test a tool name or an argument key outside this table."""

AGENTS: tuple[str, ...] = tuple(dict.fromkeys(row.agent for row in ROWS))

_BY_NAME: dict[str, list[Row]] = {}
_BY_LOWER: dict[str, list[Row]] = {}
for _row in ROWS:
    _BY_NAME.setdefault(_row.name, []).append(_row)
    _BY_LOWER.setdefault(_row.name.lower(), []).append(_row)


def rows_of(agent: str) -> list[Row]:
    """The rows of one agent, in table order."""
    return [row for row in ROWS if row.agent == agent]


# -------------------------------------------------------------------- reading

_SHELLS = {"bash", "sh", "zsh", "dash"}


def command_text(value: object) -> str | None:
    """A command as a shell line: a string as it is, an argv list joined (``["bash",
    "-lc", "pytest"]`` → ``pytest``)."""
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if (
            len(value) >= 3
            and value[0].rsplit("/", 1)[-1] in _SHELLS
            and value[1] in {"-c", "-lc", "-ic"}
        ):
            return str(value[2]).strip() or None
        return " ".join(shlex.quote(v) for v in value)
    return None


def _first(args: Mapping[str, Any], keys: Iterable[str], *, empty: bool = False) -> Any:
    """The value of the first of ``keys`` present (an empty string counts only with
    ``empty``: an edit's new text may be empty, a path may not)."""
    for key in keys:
        value = args.get(key)
        if value is not None and (empty or value != ""):
            return value
    return None


def _string(args: Mapping[str, Any], keys: Iterable[str], *, empty: bool = False) -> str | None:
    value = _first(args, keys, empty=empty)
    return value if isinstance(value, str) else None


def _fits(row: Row, args: Mapping[str, Any]) -> int:
    """How well a call's arguments fit a row: -1 when its conditions fail, else the
    number of its keys present."""
    for key, value in row.when:
        if args.get(key) != value:
            return -1
    return sum(1 for key in row.keys() if key in args)


def _row_for(name: str, args: Mapping[str, Any]) -> Row | None:
    candidates = _BY_NAME.get(name) or _BY_LOWER.get(name.lower()) or []
    best: Row | None = None
    score = -1
    for row in candidates:
        fit = _fits(row, args)
        if fit > score:
            best, score = row, fit
    if best is not None and score == 0 and args and best.keys():
        return None  # the name, but none of its arguments: another version's, read by shape
    return best if score >= 0 else None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    return None


def _from_row(row: Row, name: str, args: Mapping[str, Any], opened: str | None) -> Action:
    path = _string(args, row.path)
    if path is None and row.open_file:
        path = opened
    touches: list[Touch] = []
    command = None
    kind = row.kind
    if row.command:
        command = command_text(_first(args, row.command))
    elif row.commands:
        listed = _first(args, row.commands)
        if isinstance(listed, list):
            lines = [
                command_text(c.get("command") if isinstance(c, Mapping) else c) for c in listed
            ]
            command = "\n".join(c for c in lines if c) or None
        else:
            command = command_text(listed)
    if command is not None and kind == "run":
        touches += shell_touches(command)
    code = _string(args, row.code)
    if code is not None:
        touches += code_touches(code, row.language)
    if row.patch:
        text = _string(args, row.patch)
        if text is not None:
            found = patch_touches(text, path)
            touches += found or [Touch(path, "edit")]
    if row.edits:
        edits = args.get(row.edits)
        for edit in edits if isinstance(edits, list) else []:
            if not isinstance(edit, Mapping):
                continue
            where = _string(edit, row.path) or path
            old, new = _string(edit, row.old, empty=True), _string(edit, row.new, empty=True)
            touches.append(Touch(where, "edit", old=old, new=new))
    elif kind in {"edit", "write"}:
        old = _string(args, row.old, empty=True)
        new = _string(args, row.new, empty=True)
        content = _string(args, row.content, empty=True)
        first = _int(_first(args, row.lines[:1])) if row.lines else None
        if row.lines and first is not None:
            last = _int(_first(args, row.lines[1:2])) if len(row.lines) > 1 else None
            span = (first, last) if last is not None else (first + 1, first)  # insert after
            touches.append(Touch(path, "edit", new=new if new is not None else content, lines=span))
        elif old is not None or (row.old and new is not None):
            touches.append(Touch(path, "edit", old=old, new=new))
        elif kind == "write":
            touches.append(Touch(path, "write", new=content))
        else:
            touches.append(Touch(path, "edit", new=content))
    elif kind in {"read", "view"}:
        if path is not None:
            touches.append(Touch(path, "read"))
        listed = _first(args, row.paths)
        for item in listed if isinstance(listed, list) else []:
            named = (
                _string(item, ("path", "file_path", "filePath"))
                if isinstance(item, Mapping)
                else item
            )
            if isinstance(named, str):
                touches.append(Touch(named, "read"))
    elif kind == "delete" and path is not None:
        touches.append(Touch(path, "delete"))
    elif kind in {"move", "copy"} and path is not None:
        target = _string(args, row.target)
        if kind == "move":
            touches.append(Touch(path, "delete"))
        if target is not None:
            touches.append(Touch(target, "write", source=path))
    text = _string(args, row.text) or ""
    task = _first(args, row.task)
    return Action(
        kind=kind,
        tool=name,
        dialect=row.agent,
        command=command if kind == "run" else None,
        touches=tuple(touches),
        text=text,
        opens=path if row.opens else None,
        task=str(task) if isinstance(task, str | int) and not isinstance(task, bool) else "",
    )


# ----------------------------------------------------- by the shape of arguments


def _norm(key: str) -> str:
    return key.lower().replace("_", "").replace("-", "")


_SHAPE: dict[str, frozenset[str]] = {
    "command": frozenset({"command", "cmd", "script", "commandline", "commands", "shellcommand"}),
    "path": frozenset({"path", "filepath", "file", "filename", "targetfile", "absolutepath",
                       "notebookpath", "relativepath", "target", "uri", "source", "src"}),
    "old": frozenset({"old", "oldstring", "oldstr", "oldtext", "search", "find", "before",
                      "original", "from"}),
    "new": frozenset({"new", "newstring", "newstr", "newtext", "replace", "replacement",
                      "after", "to", "replacementtext"}),
    "content": frozenset({"content", "contents", "text", "filetext", "data", "body",
                          "newsource", "newcontent", "codeedit", "code"}),
    "patch": frozenset({"patch", "diff", "patchtext", "input", "edits", "changes"}),
    "edits": frozenset({"edits", "changes", "replacements"}),
    "lines": frozenset({"startline", "endline", "line", "insertline", "linenumber"}),
    "target": frozenset({"destination", "dest", "newpath", "to", "targetpath", "newfilepath"}),
}  # fmt: skip
_EDITOR_COMMANDS: dict[str, Kind] = {
    "view": "read", "create": "write", "str_replace": "edit", "insert": "edit",
    "undo_edit": "edit", "write": "write", "edit": "edit", "read": "read",
}  # fmt: skip
_NAME_WORDS: tuple[tuple[str, Kind], ...] = (
    # words in an unknown tool's name, and what a call with a path alone then does
    ("delete", "delete"), ("remove", "delete"), ("unlink", "delete"), ("rm", "delete"),
    ("move", "move"), ("rename", "move"), ("copy", "copy"),
    ("image", "view"), ("screenshot", "view"),
    ("read", "read"), ("view", "read"), ("open", "read"), ("cat", "read"), ("show", "read"),
    ("get", "read"), ("load", "read"), ("fetch", "read"),
    ("list", "list"), ("ls", "list"), ("dir", "list"),
    ("search", "search"), ("grep", "search"), ("find", "search"), ("glob", "search"),
    ("write", "write"), ("create", "write"), ("save", "write"), ("touch", "write"),
    ("edit", "edit"), ("modify", "edit"), ("update", "edit"),
    ("complete", "answer"), ("finish", "answer"), ("submit", "answer"), ("answer", "answer"),
    ("ask", "ask"), ("question", "ask"),
    ("agent", "sub-agent"), ("task", "sub-agent"),
)  # fmt: skip


def _shape(args: Mapping[str, Any]) -> dict[str, str]:
    """Role → the argument key that plays it, by the keys' names."""
    roles: dict[str, str] = {}
    for key in args:
        norm = _norm(key)
        for role, names in _SHAPE.items():
            if norm in names and role not in roles:
                roles[role] = key
    return roles


def _name_kind(name: str) -> Kind | None:
    words = re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower())
    for word, kind in _NAME_WORDS:
        if word in words:
            return kind
    return None


def _inferred(name: str, args: Mapping[str, Any], opened: str | None) -> Action:
    roles = _shape(args)

    def get(role: str) -> Any:
        return args.get(roles[role]) if role in roles else None

    path = get("path") if isinstance(get("path"), str) else None
    command = command_text(get("command"))
    by_name = _name_kind(name)
    kind: Kind = "other"
    fields: dict[str, Any] = {}
    if command is not None and path is not None and command in _EDITOR_COMMANDS:
        kind = _EDITOR_COMMANDS[command]  # an editor: {command: "view", path: …}
        command = None
        fields = {"path": (roles["path"],)}
        for role in ("old", "new", "content", "lines"):
            if role in roles:
                fields[role] = (roles[role],)
    elif path is not None and isinstance(get("edits"), list):
        kind = "multi-edit"
        edits: list[Any] = get("edits")
        first = next((e for e in edits if isinstance(e, Mapping)), {})
        inner = _shape(first)
        fields = {"path": (roles["path"],), "edits": roles["edits"]}
        fields.update({r: (inner[r],) for r in ("old", "new") if r in inner})
    elif any(isinstance(v, str) and is_patch(v) for v in args.values()):
        kind = "patch"
        key = next(k for k, v in args.items() if isinstance(v, str) and is_patch(v))
        fields = {"patch": (key,), "path": (roles["path"],) if path is not None else ()}
    elif path is not None and "old" in roles and "new" in roles:
        kind = "edit"
        fields = {"path": (roles["path"],), "old": (roles["old"],), "new": (roles["new"],)}
    elif path is not None and "lines" in roles and ("new" in roles or "content" in roles):
        kind = "edit"
        lines = tuple(k for k in args if _norm(k) in _SHAPE["lines"])[:2]
        fields = {"path": (roles["path"],), "lines": lines,
                  "new": (roles.get("new") or roles["content"],)}  # fmt: skip
    elif path is not None and "content" in roles and by_name not in {"read", "search", "list"}:
        kind = "write"
        fields = {"path": (roles["path"],), "content": (roles["content"],)}
    elif command is not None:
        kind = "run"
        fields = {"command": (roles["command"],)}
    elif path is not None and "target" in roles:
        kind = "copy" if by_name == "copy" else "move"
        fields = {"path": (roles["path"],), "target": (roles["target"],)}
    elif by_name is not None:
        kind = by_name
        if path is not None:
            fields = {"path": (roles["path"],)}
    row = Row("", name, kind, **fields)
    found = _from_row(row, name, args, opened)
    return Action(
        kind=found.kind,
        tool=name,
        inferred=True,
        command=found.command,
        touches=found.touches,
        text=found.text,
    )


def read_action(name: str, arguments: Mapping[str, Any] | str, opened: str | None = None) -> Action:
    """What a call of tool ``name`` with ``arguments`` did (see the module docstring).
    ``opened``: the file a previous call opened, for a path-less line edit."""
    args: Mapping[str, Any]
    if isinstance(arguments, str):  # a freeform tool: the text is its one argument
        text = arguments.strip()
        named = _BY_NAME.get(name) or _BY_LOWER.get(name.lower()) or []
        row = next((r for r in named if not r.when), None)
        if row is not None and row.patch:
            args = {row.patch[0]: text}
        elif row is not None and row.command:
            args = {row.command[0]: text}
        elif is_patch(text):
            args = {"patch": text}
        else:
            args = {"input": text}
    else:
        args = arguments
    row = _row_for(name, args)
    if row is None:
        return _inferred(name, args, opened)
    return _from_row(row, name, args, opened)


# -------------------------------------------------------------------- writing


def render(row: Row, **values: Any) -> dict[str, Any]:
    """Arguments for a call of ``row``'s tool carrying ``values`` (``path``,
    ``command``, ``old``, ``new``, ``content``, ``patch``, ``lines``, ``target``,
    ``text``, ``edits`` as ``(old, new)`` pairs): the first key the row names for
    each, and its ``when`` conditions."""
    args: dict[str, Any] = dict(row.when)
    for role, value in values.items():
        if value is None:
            continue
        if role == "lines":
            for key, number in zip(row.lines, value, strict=False):
                args[key] = number
        elif role == "edits":
            args[row.edits] = [{row.old[0]: old, row.new[0]: new} for old, new in value]
        elif role == "command" and row.argv:
            args[row.command[0]] = ["bash", "-lc", value]
        elif role == "command" and row.commands:
            args[row.commands[0]] = [value]
        elif getattr(row, role):
            args[getattr(row, role)[0]] = value
    return args


def _patch_text(form: str, touches: tuple[Touch, ...]) -> str | None:
    """``touches`` (edits with their old and new text, whole writes, deletions) as a
    patch in ``form``; ``None`` when the form cannot carry them."""
    if form == "search-replace":
        paths = {t.path for t in touches}
        if len(paths) != 1 or any(t.op != "edit" or t.old is None for t in touches):
            return None
        return "\n".join(
            f"<<<<<<< SEARCH\n{t.old}\n=======\n{t.new or ''}\n>>>>>>> REPLACE" for t in touches
        )
    lines = ["*** Begin Patch"]
    for touch in touches:
        if touch.path is None:
            return None
        if touch.op == "edit" and touch.old is not None and touch.new is not None:
            lines.append(f"*** Update File: {touch.path}")
            lines.append("@@")
            lines += ["-" + x for x in touch.old.split("\n")]
            lines += ["+" + x for x in touch.new.split("\n")]
        elif touch.op == "write" and touch.new is not None and touch.source is None:
            lines.append(f"*** Add File: {touch.path}")
            lines += ["+" + x for x in touch.new.removesuffix("\n").split("\n")]
        elif touch.op == "delete":
            lines.append(f"*** Delete File: {touch.path}")
        else:
            return None
    lines.append("*** End Patch")
    return "\n".join(lines)


def _rows(agent: str, kind: Kind, need: str = "") -> list[Row]:
    return [
        row
        for row in ROWS
        if row.agent == agent
        and row.kind == kind
        and not row.open_file
        and (not need or getattr(row, need))
    ]


def as_call(action: Action, agent: str) -> tuple[str, dict[str, Any]] | None:
    """``action`` written as a call of ``agent``'s own tool (its table rows), or
    ``None`` when ``agent`` has no tool that does the same thing. Reading the call
    back (:func:`read_action`) gives the same kind of action and the same touches."""
    touches = action.touches
    one = touches[0] if len(touches) == 1 else None
    found: list[tuple[Row, dict[str, Any]]] = []
    if action.kind == "run" and action.command is not None:
        found = [(r, {"command": action.command}) for r in _rows(agent, "run", "command")]
        found += [(r, {"command": action.command}) for r in _rows(agent, "run", "commands")]
    elif action.kind in {"read", "view"} and one is not None and one.op == "read":
        found = [(r, {"path": one.path}) for r in _rows(agent, action.kind, "path")]
        if action.kind == "view":
            found += [(r, {"path": one.path}) for r in _rows(agent, "read", "path")]
    elif one is not None and one.op == "write" and one.new is not None and one.source is None:
        found = [
            (r, {"path": one.path, "content": one.new}) for r in _rows(agent, "write", "content")
        ]
    elif action.kind == "delete" and one is not None:
        found = [(r, {"path": one.path}) for r in _rows(agent, "delete", "path")]
    if (
        not found
        and touches
        and action.kind in {"edit", "multi-edit", "patch", "write"}
        and all(t.op in {"edit", "write", "delete"} for t in touches)
    ):
        paths = {t.path for t in touches}
        edits = all(t.op == "edit" and t.old is not None and t.new is not None for t in touches)
        if edits and len(paths) == 1 and one is not None:
            found = [
                (r, {"path": one.path, "old": one.old, "new": one.new})
                for r in _rows(agent, "edit", "old")
            ]
        if edits and len(paths) == 1 and not found:
            pairs = [(t.old, t.new) for t in touches]
            found = [
                (r, {"path": touches[0].path, "edits": pairs})
                for r in _rows(agent, "multi-edit", "edits")
            ]
        for row in _rows(agent, "patch", "patch"):
            if found:
                break
            text = _patch_text(row.patch_form, touches)
            if text is not None and (row.patch_form != "search-replace" or row.path):
                found = [(row, {"patch": text, "path": touches[0].path if row.path else None})]
    for row, values in found:
        return row.name, render(row, **values)
    return None
