"""Shell lines read into simple commands: the one lexer every reader of a command uses.

:func:`steps` splits a line into its simple commands, each with its words, its
redirections (with the body of a here-document) and the operator after it.
Quoting is the shell's: ``'…'``, ``"…"`` with its escapes, ``$'…'``, a
backslash, ``$(…)`` and backticks kept inside their word; a here-document's body
is text handed to its command, never commands of the line. ``bash -c 'inner'``
is read as the inner line. Wrappers that only run the rest of a line (``timeout
60``, ``env FOO=1``, ``uv run``, ``npx``, ``python -m``) are stripped from each
command's :attr:`Step.argv`, so two runs of one job compare equal.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass

__all__ = [
    "Redirect",
    "Step",
    "simple_commands",
    "split_words",
    "steps",
    "strip_wrappers",
]

ENV_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_KEYWORDS = {"if", "then", "else", "elif", "do", "while", "until", "{", "!"}
_CONDITIONS = {"if", "elif", "while", "until", "!"}
_CLOSERS = {"fi", "done", "}", "esac"}
_SHELLS = {"bash", "sh", "zsh", "dash", "ksh"}
_INLINE_FLAGS = {"-c", "-lc", "-ec", "-xc", "-ic", "-cl", "-euc", "-eu", "-exc"}
_MAX_DEPTH = 3
_MAX_CHARS = 200_000
"""A line longer than this is read up to here: a review never waits on one line."""


@dataclass(frozen=True, slots=True)
class Redirect:
    """One redirection of a simple command."""

    fd: int | None
    """The descriptor named before the operator (``2>``), or ``None``."""
    op: str
    """``>``, ``>>``, ``>|``, ``&>``, ``&>>``, ``>&``, ``<``, ``<<``, ``<<-``, ``<<<``, ``<>``."""
    target: str
    """The file, descriptor (``>&2``: ``2``) or here-document delimiter."""
    body: str = ""
    """A here-document's text (``<<``), or a here-string's (``<<<``)."""

    @property
    def writes(self) -> bool:
        """Whether it writes a file (not a descriptor, not ``/dev/null``)."""
        if self.op in {">&", "<&"} or (self.op.startswith("<") and self.op != "<>"):
            return self.op == ">&" and not self.target.isdigit() and self.target != "-"
        return self.target not in {"/dev/null", "/dev/stdout", "/dev/stderr", ""}

    @property
    def stdout(self) -> bool:
        """Whether it takes the command's standard output."""
        if self.op in {"&>", "&>>"}:
            return True
        if self.op in {">", ">>", ">|"} and self.fd in (None, 1):
            return True
        return self.op == ">&" and self.fd in (None, 1) and not self.target.isdigit()


@dataclass(frozen=True, slots=True)
class Step:
    """One simple command of a shell line, and the operator that follows it."""

    argv: tuple[str, ...]
    """Wrappers and shell keywords stripped: ``timeout 60 python -m pytest`` → ``pytest``."""
    raw: tuple[str, ...]
    """As written, keywords and redirections left out."""
    after: str = ""
    """``;``, ``&&``, ``||``, ``|``, ``|&``, ``&`` — or ``""`` at the end of the line."""
    condition: bool = False
    """Used as a condition (``if``, ``while``, ``!``): its failure does not fail the line."""
    program: str = ""
    """The program as written, wrappers stripped (``./pytest``, ``.venv/bin/pytest``)."""
    stdout: str = ""
    """Where its output went instead of the tool's (``/dev/null``, a file), or ``""``."""
    redirects: tuple[Redirect, ...] = ()
    inner: bool = False
    """Read from inside ``bash -c '…'``."""

    @property
    def stdin(self) -> str:
        """What a here-document or here-string hands the command, else ``""``."""
        return next((r.body for r in self.redirects if r.op in {"<<", "<<-", "<<<"}), "")


# ---------------------------------------------------------------------- lexing

_OPERATORS = ("&&", "||", ";;", "|&", ";", "|", "&", "(", ")")
_REDIRECTS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", ">>", ">|", ">&", "<&", ">", "<")


@dataclass(slots=True)
class _Token:
    kind: str  # "word", "op", "redir"
    text: str
    """The word, the operator, or a redirection's target (a here-document's delimiter)."""
    fd: int | None = None
    op: str = ""
    """A redirection's operator."""
    body: str = ""
    quoted: bool = False


def _scan_single(s: str, i: int) -> tuple[str, int]:
    end = s.find("'", i)
    return (s[i:], len(s)) if end < 0 else (s[i:end], end + 1)


_ANSI = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "0": "\0"}


def _scan_ansi(s: str, i: int) -> tuple[str, int]:
    out: list[str] = []
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            out.append(_ANSI.get(s[i + 1], "\\" + s[i + 1]))
            i += 2
            continue
        if ch == "'":
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    return "".join(out), i


def _skip_subst(s: str, i: int, close: str) -> int:
    """The index after the ``)`` (or backtick) that closes a substitution opened before
    ``i``: quotes, nested substitutions and here-documents inside it are skipped."""
    depth = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\":
            i += 2
            continue
        if close == "`":
            if ch == "`":
                return i + 1
            i += 1
            continue
        if ch == "'":
            i = _scan_single(s, i + 1)[1]
        elif ch == '"':
            i = _scan_double(s, i + 1)[1]
        elif s.startswith("$(", i):
            i = _skip_subst(s, i + 2, ")")
        elif s.startswith("<<", i) and not s.startswith("<<<", i):
            i = _skip_heredoc(s, i)
        elif ch == "(":
            depth += 1
            i += 1
        elif ch == ")":
            if depth == 0:
                return i + 1
            depth -= 1
            i += 1
        else:
            i += 1
    return i


_DELIMITER = re.compile(r"<<-?[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([^\s;&|<>()]+))")


def _skip_heredoc(s: str, i: int) -> int:
    """Inside a substitution: past a here-document's body (from its ``<<`` at ``i``)."""
    found = _DELIMITER.match(s, i)
    if found is None:
        return i + 2
    delimiter = next(g for g in found.groups() if g is not None)
    line_end = s.find("\n", found.end())
    if line_end < 0:
        return found.end()
    return _heredoc_body(s, line_end + 1, delimiter, found.group(0).startswith("<<-"))[1]


def _scan_double(s: str, i: int) -> tuple[str, int]:
    out: list[str] = []
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            if nxt in '"\\$`':
                out.append(nxt)
            elif nxt != "\n":
                out.append("\\" + nxt)
            i += 2
            continue
        if ch == '"':
            return "".join(out), i + 1
        if s.startswith("$(", i):
            end = _skip_subst(s, i + 2, ")")
            out.append(s[i:end])
            i = end
            continue
        if ch == "`":
            end = _skip_subst(s, i + 1, "`")
            out.append(s[i:end])
            i = end
            continue
        out.append(ch)
        i += 1
    return "".join(out), i


def _heredoc_body(s: str, i: int, delimiter: str, strip_tabs: bool) -> tuple[str, int]:
    """The body of a here-document starting at ``i`` and the index after its closing
    line (the end of ``s`` when it is never closed)."""
    lines: list[str] = []
    while i <= len(s):
        end = s.find("\n", i)
        line = s[i:] if end < 0 else s[i:end]
        shown = line.lstrip("\t") if strip_tabs else line
        if shown.rstrip() == delimiter:
            return "\n".join(lines), (len(s) if end < 0 else end)
        lines.append(shown)
        if end < 0:
            return "\n".join(lines), len(s)
        i = end + 1
    return "\n".join(lines), len(s)


def _lex(s: str) -> list[_Token]:
    tokens: list[_Token] = []
    word: list[str] = []
    started = quoted = False
    pending: list[_Token] = []  # here-documents whose bodies start at the next newline
    i = 0

    def end_word() -> None:
        nonlocal started, quoted
        if started:
            tokens.append(_Token("word", "".join(word), quoted=quoted))
        word.clear()
        started = quoted = False

    while i < len(s):
        ch = s[i]
        if ch in " \t":
            end_word()
            i += 1
        elif ch == "\n":
            end_word()
            tokens.append(_Token("op", "\n"))
            i += 1
            for heredoc in pending:
                heredoc.body, i = _heredoc_body(s, i, heredoc.text, heredoc.op == "<<-")
                i += 1
            pending.clear()
        elif ch == "#" and not started:
            end = s.find("\n", i)
            i = len(s) if end < 0 else end
        elif ch == "\\":
            if i + 1 < len(s) and s[i + 1] == "\n":
                i += 2  # a continued line
                continue
            word.append(s[i + 1 : i + 2])
            started = quoted = True
            i += 2
        elif ch == "'":
            text, i = _scan_single(s, i + 1)
            word.append(text)
            started = quoted = True
        elif ch == '"':
            text, i = _scan_double(s, i + 1)
            word.append(text)
            started = quoted = True
        elif s.startswith("$'", i):
            text, i = _scan_ansi(s, i + 2)
            word.append(text)
            started = quoted = True
        elif s.startswith(("<(", ">("), i):  # a process substitution: one word
            end = _skip_subst(s, i + 2, ")")
            word.append(s[i:end])
            started = True
            i = end
        elif s.startswith("$(", i) or ch == "`":
            end = _skip_subst(s, i + 2, ")") if ch == "$" else _skip_subst(s, i + 1, "`")
            word.append(s[i:end])
            started = True
            i = end
        elif ch in "<>" or (ch == "&" and s.startswith(("&>",), i)):
            op = next(r for r in _REDIRECTS if s.startswith(r, i))
            fd = None
            if started and not quoted and "".join(word).isascii() and "".join(word).isdigit():
                fd = int("".join(word))
                word.clear()
                started = False
            end_word()
            i += len(op)
            while i < len(s) and s[i] in " \t":
                i += 1
            target, i, was_quoted = _target(s, i)
            token = _Token("redir", target, fd=fd, op=op, quoted=was_quoted)
            if op == "<<<":
                token.body = target
            elif op in {"<<", "<<-"}:
                pending.append(token)
            tokens.append(token)
        elif ch in ";&|()":
            op = next(o for o in _OPERATORS if s.startswith(o, i))
            end_word()
            tokens.append(_Token("op", op))
            i += len(op)
        else:
            word.append(ch)
            started = True
            i += 1
    end_word()
    return tokens


def _target(s: str, i: int) -> tuple[str, int, bool]:
    """The word after a redirection operator, its end, and whether it was quoted."""
    out: list[str] = []
    quoted = False
    while i < len(s) and s[i] not in " \t\n;&|()<>":
        ch = s[i]
        if ch == "'":
            text, i = _scan_single(s, i + 1)
            out.append(text)
            quoted = True
        elif ch == '"':
            text, i = _scan_double(s, i + 1)
            out.append(text)
            quoted = True
        elif ch == "\\" and i + 1 < len(s):
            out.append(s[i + 1])
            quoted = True
            i += 2
        elif s.startswith("$(", i):
            end = _skip_subst(s, i + 2, ")")
            out.append(s[i:end])
            i = end
        else:
            out.append(ch)
            i += 1
    if not out and s.startswith("&", i):  # `>&` then a word glued: handled by op
        return "", i, quoted
    return "".join(out), i, quoted


# ----------------------------------------------------------------------- steps


def _steps(command: str, depth: int = 0, inner: bool = False) -> list[Step]:
    found: list[Step] = []
    words: list[str] = []
    redirects: list[Redirect] = []

    def close(after: str) -> None:
        if not words and not redirects:
            if found and after:  # "a ; ; b", or an operator after a closer: keep the later
                last = found[-1]
                found[-1] = Step(
                    last.argv,
                    last.raw,
                    after,
                    last.condition,
                    last.program,
                    last.stdout,
                    last.redirects,
                    last.inner,
                )
            return
        argv = list(words)
        made = tuple(redirects)
        words.clear()
        redirects.clear()
        condition = False
        while argv and argv[0] in _KEYWORDS:
            condition = condition or argv[0] in _CONDITIONS
            argv = argv[1:]
        while argv and argv[-1] in _CLOSERS:
            argv = argv[:-1]
        stdout = next((r.target for r in reversed(made) if r.stdout), "")
        if not argv:
            if made:  # `> file` alone, `: > file`'s redirection kept on a bare step
                found.append(Step((), (), after, condition, "", stdout, made, inner))
            return
        program = strip_wrappers(argv, keep_path=True)
        if (
            depth < _MAX_DEPTH
            and program
            and posixpath.basename(program[0]) in _SHELLS
            and len(program) >= 3
            and program[1] in _INLINE_FLAGS
        ):
            nested = _steps(program[2], depth + 1, True)
            if nested:
                last = nested[-1]
                nested[-1] = Step(
                    last.argv,
                    last.raw,
                    after,
                    last.condition or condition,
                    last.program,
                    last.stdout or stdout,
                    last.redirects + made,
                    True,
                )
                found.extend(nested)
                return
        found.append(
            Step(
                tuple(strip_wrappers(argv)),
                tuple(argv),
                after,
                condition,
                program[0] if program else "",
                stdout,
                made,
                inner,
            )
        )

    for token in _lex(command):
        if token.kind == "op":
            if token.text in {"(", ")"}:
                close("")
            else:
                close(";" if token.text in {"\n", ";;"} else token.text)
        elif token.kind == "redir":
            redirects.append(Redirect(token.fd, token.op, token.text, token.body))
        else:
            words.append(token.text)
    close("")
    return found


@functools.lru_cache(maxsize=8192)
def steps(command: str) -> tuple[Step, ...]:
    """The simple commands of a shell line in order, each with the operator after it.
    Cached: the same lines come back at every review."""
    return tuple(_steps(command[:_MAX_CHARS].replace("\r\n", "\n").replace("\r", "\n")))


@functools.lru_cache(maxsize=8192)
def simple_commands(command: str) -> tuple[tuple[str, ...], ...]:
    """The simple commands of a shell line, wrappers stripped."""
    return tuple(step.argv for step in steps(command))


def split_words(text: str) -> list[str]:
    """``text`` as the shell splits it into words (no operators)."""
    return [t.text for t in _lex(text) if t.kind == "word"]


# -------------------------------------------------------------------- wrappers

WRAPPERS: dict[str, frozenset[str]] = {
    # a command that runs the rest of its line, and its options that take a value
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "sudo": frozenset({"-u", "--user", "-g", "--group", "-C", "-D", "--chdir", "-h", "-p", "-U"}),
    "command": frozenset(),
    "exec": frozenset({"-a"}),
    "env": frozenset({"-u", "--unset", "-C", "--chdir"}),
    "nohup": frozenset(),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "ionice": frozenset({"-c", "--class", "-n", "--classdata", "-p", "-t"}),
    "taskset": frozenset(),
    "xvfb-run": frozenset({"-n", "--server-num", "-s", "--server-args", "-e", "--error-file",
                           "-f", "--auth-file", "-p", "--xauth-protocol", "-w", "--wait"}),
    "unbuffer": frozenset(),
    "caffeinate": frozenset(),
}  # fmt: skip
_LEADING_VALUE = {"timeout": 1, "taskset": 1, "chrt": 1}
"""Wrappers whose first operand is theirs (``timeout 60 cmd``, ``taskset 0x1 cmd``)."""


def _unwrap(head: str, rest: list[str]) -> list[str]:
    """``rest`` (the words after wrapper ``head``) without the wrapper's options."""
    takes_value = WRAPPERS.get(head, frozenset({"-s", "--signal", "-k", "--kill-after"}))
    if head == "command" and any(w in {"-v", "-V"} for w in rest[:2]):
        return []  # `command -v pytest` looks the name up; nothing runs
    while rest:
        word = rest[0]
        if head == "env" and ENV_ASSIGN.match(word):
            rest = rest[1:]
        elif head == "env" and word in {"-S", "--split-string"} and len(rest) > 1:
            rest = split_words(rest[1]) + rest[2:]  # env -S 'pytest -q'
        elif word == "--":
            rest = rest[1:]
            break
        elif word.startswith("-") and len(word) > 1:
            rest = rest[2:] if word in takes_value else rest[1:]
        else:
            break
    return rest[_LEADING_VALUE.get(head, 0) :]


_RUNNER_VALUES: dict[str, frozenset[str]] = {
    # `X run [options] cmd`: the options that take a value, per environment manager
    "uv": frozenset({"--with", "--with-requirements", "--with-editable", "--python", "-p",
                     "--package", "--extra", "--group", "--env-file", "--directory",
                     "--project", "--index", "--index-url", "-w"}),
    "conda": frozenset({"-n", "--name", "-p", "--prefix", "--cwd"}),
    "coverage": frozenset({"--source", "--rcfile", "--omit", "--include", "--context",
                           "--data-file"}),
    "docker": frozenset({"-e", "--env", "--env-file", "-w", "--workdir", "-u", "--user",
                         "-v", "--volume", "--name", "--entrypoint", "-p", "--publish",
                         "--network", "-l", "--label", "--platform", "--mount"}),
}  # fmt: skip
_RUNNER_VALUES["mamba"] = _RUNNER_VALUES["micromamba"] = _RUNNER_VALUES["conda"]
_NODE_BINS = frozenset(
    {"vitest", "jest", "mocha", "ava", "playwright", "cypress", "tsc", "eslint", "prettier",
     "stylelint", "karma", "tsx", "ts-node", "biome"}
)  # fmt: skip
"""Binaries a package manager runs by name (``yarn vitest run``), as ``npx`` does."""


def _options_off(argv: list[str], takes_value: frozenset[str]) -> list[str]:
    """``argv`` without its leading options (and the values of those that take one)."""
    while argv and argv[0].startswith("-") and argv[0] != "-":
        argv = argv[2:] if argv[0] in takes_value else argv[1:]
    return argv


def _in_place(head: str, argv: list[str]) -> list[str] | None:
    """What an environment manager or a container runs here, or ``None`` when ``argv``
    is no such command: ``conda run -n dev pytest``, ``coverage run -m pytest``,
    ``nix develop -c pytest``, ``docker compose run --rm app pytest``."""
    sub = argv[1] if len(argv) > 1 else ""
    if head in {"conda", "mamba", "micromamba"} and sub == "run":
        return _options_off(argv[2:], _RUNNER_VALUES[head])
    if head == "coverage" and sub == "run":
        rest = _options_off(argv[2:], _RUNNER_VALUES["coverage"])
        return rest[1:] if rest[:1] == ["-m"] else rest
    if head == "nix" and sub in {"develop", "shell"}:
        for flag in ("-c", "--command"):
            if flag in argv:
                return argv[argv.index(flag) + 1 :]
        return None
    compose = argv[1:2] == ["compose"] and head == "docker"
    if compose or head == "docker-compose":
        rest = argv[2:] if compose else argv[1:]
        if rest[:1] in (["run"], ["exec"]):
            rest = _options_off(rest[1:], _RUNNER_VALUES["docker"])
            return rest[1:] if len(rest) > 1 else None  # the service, then its command
        return None
    if head == "docker" and sub in {"run", "exec"}:
        rest = _options_off(argv[2:], _RUNNER_VALUES["docker"])
        return rest[1:] if len(rest) > 1 else None  # the image or container, then its command
    return None


INTERPRETER_VALUED: dict[str, frozenset[str]] = {
    "python": frozenset({"-W", "-X", "--check-hash-based-pycs"}),
    "node": frozenset({"-r", "--require", "--import", "--loader", "--input-type", "--env-file"}),
    "ruby": frozenset({"-I", "-r", "-E"}),
    "perl": frozenset({"-I", "-M", "-m"}),
    "php": frozenset({"-d", "-c"}),
}
"""An interpreter's own options that take the next word as their value (``python -W
error``, ``node -r dotenv/config``): all its other options stand alone (``python3 -u
x.py`` runs ``x.py``)."""


def _after_interpreter_options(argv: list[str]) -> int:
    """Where a Python command's own options end (``python -u -X dev -m pytest``: at
    ``-m``): the index of ``-m``, ``-c``, ``-`` or the script."""
    at = 1
    while at < len(argv) and argv[at].startswith("-") and argv[at] not in {"-m", "-c", "-"}:
        at += 2 if argv[at] in INTERPRETER_VALUED["python"] else 1
    return at


def strip_wrappers(argv: list[str] | tuple[str, ...], *, keep_path: bool = False) -> list[str]:
    """``FOO=1 timeout 60 uv run python -m pytest -q`` → ``pytest -q`` (with
    ``keep_path``, the program as written: ``./pytest``, ``.venv/bin/pytest``)."""
    argv = list(argv)
    changed = True
    while argv and changed:
        changed = False
        head = posixpath.basename(argv[0])
        if ENV_ASSIGN.match(argv[0]):
            argv = argv[1:]
            changed = True
        elif head in WRAPPERS or head in _LEADING_VALUE:
            argv = _unwrap(head, argv[1:])
            changed = True
        elif head in {"uv", "poetry", "pipenv", "pdm", "hatch", "rye"} and argv[1:2] == ["run"]:
            argv = _options_off(argv[2:], _RUNNER_VALUES.get(head, frozenset()))
            changed = True
        elif (inner := _in_place(head, argv)) is not None and inner:
            argv = inner
            changed = True
        elif head in {"yarn", "pnpm", "bun"} and argv[1:2] and argv[1] in _NODE_BINS:
            argv = argv[1:]
            changed = True
        elif head in {"npx", "bunx", "pnpx"}:
            argv = [a for a in argv[1:] if a not in {"--yes", "-y", "--no-install"}]
            changed = True
        elif head in {"pnpm", "yarn", "npm", "bundle"} and argv[1:2] == ["exec"]:
            argv = argv[2:]
            changed = True
        elif re.fullmatch(r"python(?:\d(?:\.\d+)?)?|py", head) and len(argv) > 2:
            at = _after_interpreter_options(argv)
            if argv[at : at + 1] == ["-m"] and len(argv) > at + 1:
                argv = argv[at + 1 :]  # python -u -m pytest, python -W error -m pytest
                changed = True
    if argv and not keep_path:
        argv[0] = posixpath.basename(argv[0].replace("\\", "/"))
    return argv
