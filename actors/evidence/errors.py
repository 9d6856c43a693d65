"""Unresolved errors: a command that does work, or a file write, whose latest attempt
failed and that nothing later redid successfully.

A probe (a command that only looks: ``ls``, ``grep``, ``git status``, ``python -c
"import x"``) failing says "not there", not "broken", and is never one; nor is a
failing command whose output says nothing was to be done ("nothing to commit").
A later attempt redoes the work when it is the same operation, does the same job
(:mod:`.jobs`: the same script, module, target or packages, by any interpreter,
path, wrapper or equivalent program — ``python x.py`` / ``python3 x.py``,
``./run.sh`` / ``bash run.sh``, ``yarn dev`` / ``npm run dev``; never another
subcommand of the same file: ``manage.py migrate`` / ``manage.py showmigrations``),
reads from or writes to the same web service (``gh api …`` / ``curl
https://api.github.com/…``), or — for a file tool — writes the same path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

from donecheck.actors.actions import Action
from donecheck.actors.actions.shellwords import INTERPRETER_VALUED
from donecheck.actors.evidence.jobs import Job, job_of, same_job
from donecheck.actors.evidence.runner import never_started, output_summary
from donecheck.actors.evidence.shell import simple_commands
from donecheck.actors.messages import Edit, Operation, ToolResult, UnresolvedError
from donecheck.actors.words.claims import path_matches

__all__ = ["is_probe", "unresolved_errors"]

_PROBES = frozenset(
    """ls dir cat head tail less more grep egrep fgrep rg ag ack find fd which where whereis
    type command test [ [[ stat file wc diff cmp echo printf pwd cd tree du df env printenv
    uname whoami id date ps pgrep lsof readlink realpath basename dirname true false sleep
    kill pkill killall rm rmdir mkdir sort uniq cut tr jq awk sed xxd od hexdump nl tac
    sha256sum md5sum locate man help history
    export set unset alias unalias hash ulimit umask shopt""".split()
)
"""Commands that only look — and the shell's own settings (``export PATH=…``), which do
no work of their own: a line of them that fails found nothing ("which cargo" → 1), and
a real command beside them is still read. ``source script.sh`` runs a script: a job."""
_GIT_PROBES = frozenset(
    """status log diff show branch rev-parse remote ls-files blame grep describe config stash
    tag fetch shortlog reflog""".split()
)
_VERSION_FLAGS = {"--version", "-V", "-v", "version", "--help", "-h", "help"}
_INLINE_CODE = {"-c", "-e", "--eval", "-p", "--print"}
_BENIGN_OUTPUT = re.compile(r"(?i)nothing to commit|already up[- ]to[- ]date|no changes added")


def is_probe(argv: Sequence[str]) -> bool:
    """A command that only looks (or whose failure only says "not there")."""
    head = argv[0].rsplit("/", 1)[-1].lower() if argv else ""
    rest = list(argv[1:])
    if not head or head in _PROBES:
        return True
    if head == "git" and rest and rest[0] in _GIT_PROBES:
        return True
    if head in {"pip", "pip3", "npm", "pnpm", "yarn", "cargo", "go", "uv", "poetry"} and rest:
        if rest[0] in {"show", "list", "ls", "freeze", "view", "info", "outdated", "search", "env"}:
            return True
    if any(arg in _VERSION_FLAGS for arg in rest[:2]):
        return True
    if rest and rest[0] in _INLINE_CODE:
        return True  # python -c "import x", node -e …
    found = _INTERPRETER.match(head)
    if found is None:
        return False
    return _inline_code(rest, INTERPRETER_VALUED.get(found.lastgroup or "", frozenset()))


_INTERPRETER = re.compile(
    r"(?:(?P<python>(?:python|pypy)[\d.]*)|(?P<node>node(?:js)?)|(?P<ruby>ruby)|(?P<perl>perl)"
    r"|(?P<php>php)|(?P<other>rscript|julia))$"
)


def _inline_code(args: Sequence[str], valued: frozenset[str]) -> bool:
    """Whether an interpreter runs code given inline, after any options of its own
    (``python3 -bb -c …``, ``python -W error -c …``, ``node --no-warnings -e …``) — not
    a script or a module (``python3 -bb x.py``, ``python -m pytest``)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in _INLINE_CODE:
            return True
        elif arg in valued:
            skip = True
        elif arg == "-m" or not arg.startswith("-"):
            return False
    return False


@functools.lru_cache(maxsize=4096)
def _jobs(command: str) -> tuple[Job, ...]:
    """The job of each working segment of the command, in order (read once per
    command: a failure is compared with every later command)."""
    found = []
    for argv in simple_commands(command):
        if argv and not is_probe(argv):
            job = job_of(argv)
            if job is not None:
                found.append(job)
    return tuple(found)


_SKIPS_HOOKS = re.compile(r"\bgit\b[^;&|]*\s(?:--no-verify|commit\s+(?:\S+\s+)*?-n\b)")


def _redone(failed: str, later: str) -> bool:
    """Whether the successful command ``later`` redoes the work of ``failed``: the
    same job (:mod:`.jobs`: the same script, module, target or packages, whatever
    interpreter, path, wrapper or equivalent program runs it) in its first step or
    — for a chain — its last (``git add a && git commit -m …`` failing in the hook,
    then, after a fix, ``git commit -m …`` working: the commit is what the chain was
    for). Not a commit made with ``--no-verify``: skipping the hook that failed it
    redoes nothing."""
    if _SKIPS_HOOKS.search(later) and not _SKIPS_HOOKS.search(failed):
        return False  # the gate that failed it stands
    was, now = _jobs(failed), _jobs(later)
    return (
        bool(was)
        and bool(now)
        and (same_job(was[0], now[0]) or any(same_job(was[-1], n) for n in now))
    )


# Programs that do the same job, by what they do it to: a later success of any of
# them redoes a failed one ("gh api repos/o/r" failing, "curl https://api.github.com/
# repos/o/r" working). (kind, program, the argument words that make it a write).
_FETCHERS = {"curl", "wget", "http", "https", "xh", "httpie", "gh"}
_CURL_WRITES = {
    "-X",
    "--request",
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--json",
    "-F",
    "--form",
    "-T",
    "--upload-file",
    "--post-data",
    "--post-file",
    "--method",
}
_GH_API_FIELDS = {"-f", "-F", "--field", "--raw-field", "--input"}
_GH_READS = {"view", "list", "status", "diff", "checks", "search", "browse", "download"}
_SERVICE_HOSTS = (("github", ("github.com", "githubusercontent.com", "api.github.com")),)
_URL = re.compile(r"https?://([^/\s:'\"]+)")


def _host(argv: Sequence[str]) -> str:
    for arg in argv:
        match = _URL.search(arg)
        if match:
            host = match.group(1).lower()
            for service, hosts in _SERVICE_HOSTS:
                if any(host == h or host.endswith("." + h) for h in hosts):
                    return service
            return host
    return ""


_HTTP_ERROR = re.compile(
    r"""(?ix)"message"\s*:\s*"(?:not\ found|bad\ credentials|requires\ authentication|
    api\ rate\ limit|forbidden|resource\ not\ accessible)
    | \bHTTP/[\d.]+\s+[45]\d\d\b | \b(?:40[0-4]|429|5\d\d)\s+(?:not\ found|unauthorized|forbidden|
    bad\ request|too\ many|internal|service)
    | ^\s*(?:404:\ )?not\ found\s*$"""
)


def _http_error(result: ToolResult | None) -> bool:
    """Whether a fetch that exited 0 (``curl`` without ``-f`` does, on a 404) printed
    an HTTP error instead of data: it redid nothing."""
    return result is not None and _HTTP_ERROR.search(result.output[:4_000]) is not None


def _writes_to(args: Sequence[str]) -> bool:
    """Whether a fetcher's arguments send data or use a method other than GET."""
    for i, arg in enumerate(args):
        flag, _, value = arg.partition("=")
        if flag in {"-X", "--request", "--method"}:
            method = value or (args[i + 1] if i + 1 < len(args) else "")
            if method.upper() not in {"GET", "HEAD"}:
                return True
        elif flag in _CURL_WRITES:
            return True
    return False


def _job(command: str) -> tuple[str, str, str] | None:
    """What a command does to a web service, as ("fetch", host or service, "read" |
    "write"), when another program can do the same; ``None`` for any other command."""
    for argv in simple_commands(command):
        if not argv or is_probe(argv):
            continue
        head = argv[0].rsplit("/", 1)[-1].lower()
        rest = list(argv[1:])
        if head in _FETCHERS:
            if head == "gh":
                sub = rest[0] if rest else ""
                write = (
                    _writes_to(rest) or any(a in _GH_API_FIELDS for a in rest)
                    if sub == "api"
                    else not (len(rest) > 1 and rest[1] in _GH_READS)
                )
                return ("fetch", "github", "write" if write else "read")
            host = _host(rest)
            if not host:
                return None
            return ("fetch", host, "write" if _writes_to(rest) else "read")
        return None
    return None


_TEST_TARGET = re.compile(
    r"(?i)(?:^|[\s/.:=])(?:tests?|test_\w+\.py|\w+_test\.py|specs?)(?:[\s/.:]|$)"
)
"""A command aimed at tests (``python3 -m django.test tests/queries/test_q.py``): when it
never started, it was a try at running a check that ran nothing."""

_MISSING = re.compile(
    r"(?i)\b(?:not found|no such file|does not exist|doesn't exist|enoent|cannot find|"
    r"could not find|not exist)\b"
)
"""A file tool's word that the file it named is not there."""


def _same_change(a: Action | None, b: Action | None) -> bool:
    """Whether two file calls make the same change (the same text replaced by the same
    text, or the same content written), to whatever file each names."""
    if a is None or b is None:
        return False
    made = [(t.op, t.old, t.new) for t in a.touches if t.op in {"edit", "write"} and t.new]
    return bool(made) and made == [
        (t.op, t.old, t.new) for t in b.touches if t.op in {"edit", "write"} and t.new
    ]


_WRITES_FILE = re.compile(
    r"""open\([^)]*['"][wa]b?\+?['"]|\.write_text\(|\.write_bytes\(|\bwriteFileSync\(|"""
    r"""\bwriteFile\(|\bfs\.write|\bFile\.write\(|\bsed\s+-i\b|>\s*\S"""
)
"""Words of a script that write a file (Python, Node, Ruby, shell)."""


def _edited(action: Action | None, command: str | None = None) -> list[str]:
    """The files a call meant to change (its write, edit, sed or append) — for an
    editing command the shell could not even read (``sed -i '333a\\ … (' f.py``: a
    syntax error), the file its last line names."""
    found = [t.path for t in action.touches if t.path and t.op in _EDITS] if action else []
    if found or command is None:
        return found
    if _EDITOR.search(command):
        last = command.rstrip().rsplit("\n", 1)[-1]
        return _PATH_WORD.findall(last)[-1:]
    return []


_EDITS = frozenset({"write", "edit", "sed", "append"})
_EDITOR = re.compile(r"(?:^|[\s'\"(;&|])(?:sed|perl|awk|cat|tee|printf|echo)\s")
"""An editing program, at the start of the line or of what a wrapper runs."""
_PATH_WORD = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.[A-Za-z]\w{0,5})(?![\w/])")


def _script_writes(later: Operation, path: str, actions: Mapping[int, Action]) -> bool:
    """Whether ``later`` ran a script the agent wrote in this session whose text names
    ``path`` and writes files: the shell edit that failed (a ``sed`` the shell could not
    parse) made another way (``python3 update_pycode.py``)."""
    from donecheck.actors.evidence.writes import scripts_of

    if later.command is None:
        return False
    base = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    for script in scripts_of(later.command):
        text = None
        for seq in sorted(s for s in actions if s < later.call_seq):
            for touch in actions[seq].touches:
                if touch.op == "write" and touch.path and path_matches(script, touch.path):
                    text = touch.new
        if text and (path in text or base in text) and _WRITES_FILE.search(text):
            return True
    return False


def unresolved_errors(
    ops: Sequence[Operation],
    edits: Sequence[Edit],
    results: dict[int, ToolResult],
    actions: Mapping[int, Action] | None = None,
) -> list[UnresolvedError]:
    """The latest unresolved failure of each operation, in ledger order (``ops`` and
    ``edits`` of the request; ``results`` by seq). A file call that failed because
    its file is not there is redone by the same change made to another file (the
    right path, after a wrong one)."""
    actions = actions or {}
    written: dict[int, list[str | None]] = {}
    for edit in edits:
        written.setdefault(edit.seq, []).append(edit.path)
    latest: dict[str, Operation] = {}
    # a tool whose failures the log marks (Claude Code's Bash: "is_error", "Exit code
    # 1") succeeded where it marks none: its unmarked results count as successes
    marking = {op.tool for op in ops if op.ok is False and op.command is not None}
    for i, op in enumerate(ops):
        if op.ok is not False or op.check is not None or op.result_seq is None:
            continue
        result = results.get(op.result_seq)
        if result is not None and _BENIGN_OUTPUT.search(result.output[-2_000:]):
            continue
        if (
            result is not None
            and op.command is not None
            and _TEST_TARGET.search(op.command)
            and never_started(result.output, result.exit_code)
        ):
            continue  # a try at running tests that never started ran nothing: no failure
        paths = [p for p in written.get(op.call_seq, []) if p]
        working = job = None
        if op.command is not None:
            argvs = [a for a in simple_commands(op.command) if a]
            if not argvs or all(is_probe(a) for a in argvs):
                continue
            working = _jobs(op.command)
            job = _job(op.command)
        elif not paths:
            continue  # a tool DoneCheck does not know: its failure may be harmless
        resolved = False
        edited = _edited(actions.get(op.call_seq), op.command) if working else []
        for later in ops[i + 1 :]:
            if later.ok is False:
                continue
            if (
                later.ok is None
                and not (paths and later.command is None)
                and not (later.command is not None and later.tool in marking)
            ):
                continue  # unknown status: only a file tool's quiet rewrite of the path
            if later.key == op.key:
                resolved = True
            elif working and later.command is not None:
                resolved = (
                    _redone(op.command or "", later.command)
                    or (
                        job is not None
                        and _job(later.command) == job
                        and not _http_error(results.get(later.result_seq or -1))
                    )
                    or (
                        later.ok is True
                        and any(_script_writes(later, path, actions) for path in edited)
                    )
                )
            elif paths:
                resolved = any(
                    path_matches(p, q) for p in paths for q in written.get(later.call_seq, []) if q
                ) or (
                    result is not None
                    and bool(_MISSING.search(result.output[:500]))
                    and later.command is None
                    and _same_change(actions.get(op.call_seq), actions.get(later.call_seq))
                )
            if resolved:
                break
        if not resolved:
            latest[op.key] = op
    found = []
    for op in sorted(latest.values(), key=lambda o: o.call_seq):
        result = results.get(op.result_seq) if op.result_seq is not None else None
        found.append(
            UnresolvedError(
                op=op,
                summary=output_summary(result.output) if result is not None else "",
                targets=", ".join(e.path for e in edits if e.seq == op.call_seq and e.path),
            )
        )
    return found
