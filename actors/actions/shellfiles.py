"""What a shell command does to files: the one reader of it.

:func:`shell_touches` reads a command line (through the one lexer,
:mod:`.shellwords`) into :class:`~.model.Touch` es — the files it writes, edits in
place, deletes, moves, copies, restores from version control or patches, and the
files whose content it shows. :data:`PROGRAMS` is the table it reads: a row per
program, each with what it does and the function that reads its words; the
redirections of any command (``> f``, ``>> f``, ``&> f``, ``tee``) and inline
Python or JavaScript (``python -c``, ``python - <<EOF``, ``node -e``) are read for
every line. Nothing here runs anything: a script or code it cannot read leaves
the touch's text unknown (``None``), never guessed.
"""

from __future__ import annotations

import ast
import functools
import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec

from donecheck.actors.actions.model import Op, Touch
from donecheck.actors.actions.patches import patch_touches
from donecheck.actors.actions.sed import parse as parse_sed
from donecheck.actors.actions.shellwords import Step, steps

__all__ = ["PROGRAMS", "code_touches", "shell_touches"]

_MAX_CODE = 100_000
"""Inline code longer than this is not parsed: its touches stay unknown."""


@dataclass(frozen=True, slots=True)
class _At:
    """A step and where it stands in its line (for what is piped into it)."""

    step: Step
    line: tuple[Step, ...]
    index: int

    @property
    def words(self) -> list[str]:
        """The command's words after the program, wrappers stripped."""
        return list(self.step.argv[1:])

    @property
    def piped_in(self) -> Step | None:
        if self.index > 0 and self.line[self.index - 1].after in {"|", "|&"}:
            return self.line[self.index - 1]
        return None


Reader = Callable[[_At], list[Touch]]


def _operands(words: Sequence[str], takes_value: frozenset[str] = frozenset()) -> list[str]:
    """The words that are not options (nor an option's value); all of them after ``--``."""
    out: list[str] = []
    skip = False
    for k, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word == "--":
            out += list(words[k + 1 :])
            break
        if word.startswith("-") and len(word) > 1:
            skip = word in takes_value
            continue
        out.append(word)
    return out


# ---------------------------------------------------------------- what it printed

_ECHO_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "r": "\r", "0": "\0", "a": "\a"}


def _escapes(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ECHO_ESCAPES.get(m.group(1), m.group(0)), text)


def printed(step: Step) -> tuple[str | None, str | None]:
    """``(text, source)``: what a step prints to its output when that is known from the
    line itself — ``echo``/``printf`` words, a here-document ``cat`` shows — or the
    file it copies out (``cat a.txt``); ``(None, None)`` when not known."""
    argv = step.argv
    if not argv:
        return None, None
    head = argv[0]
    if head == "echo":
        words = list(argv[1:])
        newline, escapes = True, False
        while words and re.fullmatch(r"-[neE]+", words[0]):
            newline = newline and "n" not in words[0]
            escapes = "e" in words[0] or escapes
            words = words[1:]
        text = " ".join(words)
        return (_escapes(text) if escapes else text) + ("\n" if newline else ""), None
    if head == "printf" and len(argv) >= 2:
        fmt = _escapes(argv[1])
        args = list(argv[2:])
        if "%" not in fmt:
            return fmt, None
        try:
            return fmt.replace("%b", "%s") % tuple(args[: fmt.count("%s") + fmt.count("%b")]), None
        except (TypeError, ValueError):
            return None, None
    if head == "cat":
        files = _operands(argv[1:])
        if not files and step.stdin:
            return step.stdin + "\n", None
        if len(files) == 1 and files[0] != "-":
            return None, files[0]
    return None, None


def _redirections(at: _At) -> list[Touch]:
    """``> f``, ``>> f``, ``&> f``, ``>| f``: what the step's output went into."""
    found: list[Touch] = []
    for redirect in at.step.redirects:
        if not redirect.writes or redirect.fd == 2 or redirect.op.startswith("<"):
            continue
        if not redirect.stdout:
            continue
        text, source = printed(at.step)
        append = redirect.op in {">>", "&>>"}
        found.append(
            Touch(
                redirect.target,
                "append" if append else "write",
                new=text,
                source=source,
            )
        )
    return found


# ------------------------------------------------------------------ the programs


def _tee(at: _At) -> list[Touch]:
    append = any(w in {"-a", "--append"} for w in at.words)
    upstream = at.piped_in
    text = printed(upstream)[0] if upstream is not None else None
    if upstream is None and at.step.stdin:  # tee f <<'EOF' … EOF: the heredoc, written
        text = at.step.stdin + "\n"
    op: Op = "append" if append else "write"
    return [Touch(path, op, new=text) for path in _operands(at.words)]


def _sed(at: _At) -> list[Touch]:
    words = at.words
    scripts: list[str] = []
    files: list[str] = []
    in_place = extended = script_file = False
    k = 0
    while k < len(words):
        word = words[k]
        if word in {"-e", "--expression"} and k + 1 < len(words):
            scripts.append(words[k + 1])
            k += 2
            continue
        if word.startswith("--expression="):
            scripts.append(word.partition("=")[2])
        elif word in {"-f", "--file"}:
            script_file = True
            k += 2
            continue
        elif word == "--in-place" or word.startswith("--in-place="):
            in_place = True
        elif word in {"-E", "-r", "--regexp-extended"}:
            extended = True
        elif word.startswith("-") and len(word) > 1 and not word.startswith("--"):
            flags = word[1:]
            if "i" in flags:
                in_place = True
                # BSD's `sed -i '' …`: an empty suffix as its own word
                if flags.endswith("i") and k + 1 < len(words) and words[k + 1] == "":
                    k += 1
            if "E" in flags or "r" in flags:
                extended = True
            if "e" in flags and k + 1 < len(words) and not flags.startswith("i"):
                scripts.append(words[k + 1])
                k += 2
                continue
        elif not word.startswith("-") or word == "-":
            files.append(word)
        k += 1
    if not scripts and not script_file and files:
        scripts.append(files.pop(0))
    if not in_place:
        printing = any(re.search(r"(?:^|[;\s\d$/,])p\b", s) for s in scripts)
        return [Touch(f, "partial" if printing else "read") for f in files]
    script = "\n".join(scripts)
    if script_file or parse_sed(script, extended) is None:
        return [Touch(f, "edit") for f in files]
    return [Touch(f, "sed", new=script, extended=extended) for f in files]


_PERL_SUB = re.compile(
    r"^\s*s(?P<d>[^\w\s])(?:\\.|(?!(?P=d)).)*(?P=d)(?:\\.|(?!(?P=d)).)*(?P=d)\w*\s*;?\s*$"
)


def _perl(at: _At) -> list[Touch]:
    """``perl -pi -e 's/a/b/' f`` and its spellings (``-i.bak``, ``-0pi``, ``-i -pe``)."""
    words = at.words
    in_place = False
    script = ""
    files: list[str] = []
    k = 0
    while k < len(words):
        word = words[k]
        if word.startswith("-") and not word.startswith("--") and len(word) > 1:
            flags = word[1:]
            if "i" in flags.split("e", 1)[0] or flags.startswith("i"):
                in_place = True
            if "e" in flags or "E" in flags:
                if k + 1 < len(words):
                    script = words[k + 1]
                k += 2
                continue
        elif not script and not files and not word.startswith("-"):
            script = word
        else:
            files.append(word)
        k += 1
    if not in_place:
        return [Touch(f, "read") for f in files]
    if _PERL_SUB.match(script) and parse_sed(script.strip().rstrip(";"), True) is not None:
        return [Touch(f, "sed", new=script.strip().rstrip(";"), extended=True) for f in files]
    return [Touch(f, "edit") for f in files]


def _ruby(at: _At) -> list[Touch]:
    words = at.words
    if not any(w.startswith("-") and "i" in w[1:] for w in words if not w.startswith("--")):
        return []
    values = {words[k + 1] for k, w in enumerate(words[:-1]) if w.startswith("-") and "e" in w}
    return [Touch(f, "edit") for f in _operands(words) if f not in values]


def _remove(at: _At) -> list[Touch]:
    return [Touch(path, "delete") for path in _operands(at.words)]


_COPY_VALUES = frozenset({"-t", "--target-directory", "-S", "--suffix", "-m", "--mode", "-o", "-g"})
"""Options of mv, cp and install that take a value."""


def _transfers(words: list[str]) -> list[tuple[str, str]]:
    """``(source, destination)`` of each file ``mv``/``cp``/``install`` moves or copies:
    ``a b``; ``a b dir/`` and ``-t dir a b`` into the folder."""
    target_dir = next(
        (words[k + 1] for k, w in enumerate(words[:-1]) if w in {"-t", "--target-directory"}),
        None,
    )
    paths = _operands(words, _COPY_VALUES)
    if target_dir is None:
        if len(paths) < 2:
            return []
        *sources, target = paths
    else:
        sources, target = paths, target_dir
    into = target_dir is not None or len(sources) > 1 or target.endswith("/")
    return [
        (s, posixpath.join(target, posixpath.basename(s.rstrip("/"))) if into else target)
        for s in sources
    ]


def _move(at: _At) -> list[Touch]:
    """``mv``: the sources go, the destinations come."""
    return [
        touch
        for source, dest in _transfers(at.words)
        for touch in (Touch(source, "delete"), Touch(dest, "write", source=source))
    ]


def _copy(at: _At) -> list[Touch]:
    """``cp``, ``install``: the destinations come, the sources stay."""
    return [Touch(dest, "write", source=source) for source, dest in _transfers(at.words)]


def _touch(at: _At) -> list[Touch]:
    return [Touch(p, "touch") for p in _operands(at.words, frozenset({"-d", "-r", "-t"}))]


def _truncate(at: _At) -> list[Touch]:
    words = at.words
    size = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in {"-s", "--size"}), "")
    size = size or next((w.partition("=")[2] for w in words if w.startswith("--size=")), "")
    paths = _operands(words, frozenset({"-s", "--size", "-r", "--reference"}))
    return [Touch(p, "write", new="" if size == "0" else None) for p in paths]


def _dd(at: _At) -> list[Touch]:
    return [Touch(w[3:], "write") for w in at.words if w.startswith("of=") and len(w) > 3]


_GIT_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace"})


def _git(at: _At) -> list[Touch]:
    words = at.words
    k = 0
    while k < len(words) and words[k].startswith("-"):  # git -C dir -c k=v …
        k += 2 if words[k] in _GIT_VALUE else 1
    if k >= len(words):
        return []
    sub, rest = words[k], words[k + 1 :]
    reader = _GIT.get(sub)
    return reader(rest, at) if reader is not None else []


def _git_checkout(rest: list[str], at: _At) -> list[Touch]:
    """``git checkout [REV] -- PATHS`` puts the paths back as REV has them (the index
    when no REV); ``git checkout REV PATHS`` likewise; ``git checkout BRANCH`` swaps
    the whole tree; ``-b``/``-B`` only makes a branch."""
    if any(w in {"-b", "-B", "--orphan"} for w in rest):
        return []
    if "--" in rest:
        split = rest.index("--")
        before = _operands(rest[:split], frozenset({"--conflict"}))
        return [Touch(p, "restore", source=before[0] if before else "") for p in rest[split + 1 :]]
    words = _operands(rest, frozenset({"--conflict"}))
    if not words:
        return []
    if len(words) == 1:
        word = words[0]
        looks_like_path = word == "." or "/" in word or re.search(r"\.\w+$", word) is not None
        if looks_like_path and not re.fullmatch(r"[\w.-]*~\d*|[0-9a-f]{7,40}|HEAD.*", word):
            return [Touch(word, "restore", source="")]
        return [Touch(None, "restore", source=word)]
    return [Touch(p, "restore", source=words[0]) for p in words[1:]]


def _git_restore(rest: list[str], at: _At) -> list[Touch]:
    source = ""
    staged = worktree = False
    for k, word in enumerate(rest):
        if word in {"-s", "--source"} and k + 1 < len(rest):
            source = rest[k + 1]
        elif word.startswith("--source="):
            source = word.partition("=")[2]
        elif word.startswith("-s") and len(word) > 2 and not word.startswith("--"):
            source = word[2:]
        elif word in {"-S", "--staged"}:
            staged = True
        elif word in {"-W", "--worktree"}:
            worktree = True
    if staged and not worktree:
        return []  # the index only: the files stay as they are
    paths = _operands(rest, frozenset({"-s", "--source"}))
    return [Touch(p, "restore", source=source) for p in paths]


def _git_reset(rest: list[str], at: _At) -> list[Touch]:
    if "--hard" not in rest and "--merge" not in rest and "--keep" not in rest:
        return []
    words = _operands(rest)
    return [Touch(None, "restore", source=words[0] if words else "")]


def _git_stash(rest: list[str], at: _At) -> list[Touch]:
    sub = rest[0] if rest and not rest[0].startswith("-") else "push"
    if sub in {"push", "save"}:
        paths = rest[rest.index("--") + 1 :] if "--" in rest else []
        return [Touch(p, "restore", source="") for p in paths] or [
            Touch(None, "restore", source="")
        ]
    if sub in {"pop", "apply"}:
        return [Touch(None, "write", source="stash")]
    return []


def _git_rm(rest: list[str], at: _At) -> list[Touch]:
    if "--cached" in rest:
        return []
    return [Touch(p, "delete") for p in _operands(rest)]


def _git_mv(rest: list[str], at: _At) -> list[Touch]:
    return _move(_At(Step(("mv", *rest), ("mv", *rest)), at.line, at.index))


def _git_clean(rest: list[str], at: _At) -> list[Touch]:
    if any(w in {"-n", "--dry-run"} for w in rest):
        return []
    return [Touch(None, "delete")]


def _git_apply(rest: list[str], at: _At) -> list[Touch]:
    if any(w in {"--check", "--stat", "--numstat", "--summary"} for w in rest):
        return []  # nothing applied
    reverse = any(w in {"-R", "--reverse"} for w in rest)
    if "--cached" in rest:
        return []
    files = [f for f in _operands(rest, frozenset({"-p", "--directory", "--exclude", "--include"}))]
    return _patch_of(at, files, reverse)


def _patch_of(at: _At, files: list[str], reverse: bool, target: str | None = None) -> list[Touch]:
    """The touches of a patch a command applies: from its here-document (or what an
    ``echo``/``cat`` pipes in), or — a patch file named — files not known."""
    body = at.step.stdin
    if not body and at.piped_in is not None:
        body = printed(at.piped_in)[0] or ""
    if body and (not files or files == ["-"]):
        touches = list(patch_touches(body))
        if target is not None:
            touches = [
                Touch(target, t.op, old=t.old, new=t.new, source=t.source, lines=t.lines)
                for t in touches
            ]
        return [_reversed(t) for t in touches] if reverse else touches
    return [Touch(target, "edit", source=files[0] if files else None)]


def _reversed(touch: Touch) -> Touch:
    if touch.op == "edit":
        return Touch(touch.path, "edit", old=touch.new, new=touch.old)
    if touch.op == "write" and touch.source is None:
        return Touch(touch.path, "delete")
    if touch.op == "delete":
        return Touch(touch.path, "write")
    return touch


def _patch(at: _At) -> list[Touch]:
    """``patch -p1 < x.diff``, ``patch file.py <<EOF``, ``patch -R …``."""
    words = at.words
    if any(w in {"--dry-run", "-C", "--check"} for w in words):
        return []
    reverse = any(w in {"-R", "--reverse"} for w in words)
    named = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in {"-i", "--input"}), None)
    operands = _operands(words, frozenset({"-p", "-i", "--input", "-d", "-o", "-F", "-B", "-r"}))
    target = operands[0] if operands else None
    source = named or next((r.target for r in at.step.redirects if r.op == "<"), None)
    if source is not None:
        return [Touch(target, "edit", source=source)]
    return _patch_of(at, [], reverse, target)


def _apply_patch(at: _At) -> list[Touch]:
    """Codex's ``apply_patch <<'EOF' … EOF`` (or the patch as its one argument)."""
    body = at.step.stdin or (at.words[0] if at.words else "")
    return list(patch_touches(body)) if body else []


_GIT: dict[str, Callable[[list[str], _At], list[Touch]]] = {
    "checkout": _git_checkout,
    "restore": _git_restore,
    "reset": _git_reset,
    "stash": _git_stash,
    "rm": _git_rm,
    "mv": _git_mv,
    "clean": _git_clean,
    "apply": _git_apply,
    "am": lambda rest, at: [Touch(None, "edit")],
    "cherry-pick": lambda rest, at: [Touch(None, "edit")],
    "revert": lambda rest, at: [Touch(None, "edit")] if "--no-edit" in rest or rest else [],
    "merge": lambda rest, at: [Touch(None, "edit")] if _operands(rest) else [],
    "pull": lambda rest, at: [Touch(None, "edit")],
    "switch": lambda rest, at: (
        []
        if any(w in {"-c", "-C", "--create"} for w in rest)
        else [Touch(None, "restore", source=(_operands(rest) or [""])[0])]
    ),
}


# ----------------------------------------------------------------- inline code

_INTERPRETERS = re.compile(r"^(?:python[\d.]*|pypy[\d.]*|py)$")
_NODES = re.compile(r"^(?:node|nodejs|bun|deno)$")


def _python(at: _At) -> list[Touch]:
    """``python -c CODE``, ``python - <<EOF``, ``python <<EOF``."""
    words = at.words
    code = None
    for k, word in enumerate(words):
        if word == "-c" and k + 1 < len(words):
            code = words[k + 1]
            break
        if word.startswith("-c") and len(word) > 2:
            code = word[2:]
            break
        if word == "-m":
            return []
        if not word.startswith("-"):
            break  # a script: what it does is not on the line
    else:
        if at.step.stdin:
            code = at.step.stdin
    if code is None and words and words[0] == "-" and at.step.stdin:
        code = at.step.stdin
    return code_touches(code, "python") if code else []


def _node(at: _At) -> list[Touch]:
    """``node -e CODE``, ``node -p``, ``node - <<EOF``, ``deno eval``, ``bun -e``."""
    words = at.words
    code = None
    for k, word in enumerate(words):
        if word in {"-e", "--eval", "-p", "--print", "eval"} and k + 1 < len(words):
            code = words[k + 1]
            break
        if not word.startswith("-"):
            break
    if code is None and (not words or words[0] == "-") and at.step.stdin:
        code = at.step.stdin
    return code_touches(code, "javascript") if code else []


@functools.lru_cache(maxsize=1024)
def _code_touches(code: str, language: str) -> tuple[Touch, ...]:
    if len(code) > _MAX_CODE:
        return ()
    if language == "python":
        return tuple(_PythonCode(code).touches())
    return tuple(_javascript(code))


def code_touches(code: str, language: str) -> list[Touch]:
    """What inline ``language`` code (``python``, ``javascript``) does to files."""
    return list(_code_touches(code, language))


class _PythonCode:
    """File effects of a piece of Python read from its syntax tree (never run):
    ``open(p, "w").write(t)``, ``with open(p, "w") as f: f.write(t)``,
    ``Path(p).write_text(Path(p).read_text().replace(a, b))``, ``os.remove(p)``,
    ``shutil.move(a, b)``, ``os.system("rm p")``, ``subprocess.run(["git", …])`` …"""

    _DELETERS = frozenset({"remove", "unlink", "rmtree", "rmdir", "removedirs"})
    _MOVERS = frozenset({"rename", "replace", "move", "renames"})
    _COPIERS = frozenset({"copy", "copyfile", "copy2", "copytree"})
    _SHELLS = frozenset({"system", "run", "call", "check_call", "check_output", "Popen", "popen"})

    def __init__(self, code: str) -> None:
        self.code = code
        self.names: dict[str, ast.expr] = {}
        self.handles: dict[str, ast.expr] = {}
        self.found: list[Touch] = []

    def touches(self) -> list[Touch]:
        try:
            tree = ast.parse(self.code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return self._by_pattern()
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    self.names[target.id] = node.value
            elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
                self.handles[node.optional_vars.id] = node.context_expr
            elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                self.names.pop(node.target.id, None)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                self._call(node)
        return self.found

    # what an expression names
    def _string(self, node: ast.expr | None, depth: int = 0) -> str | None:
        if node is None or depth > 8:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name) and node.id in self.names:
            return self._string(self.names[node.id], depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Div):
            left, right = self._string(node.left, depth + 1), self._string(node.right, depth + 1)
            if left is None or right is None:
                return None
            return posixpath.join(left, right) if isinstance(node.op, ast.Div) else left + right
        if isinstance(node, ast.Call):
            name = self._called(node)
            if name in {"Path", "PurePath", "PosixPath"} and len(node.args) == 1:
                return self._string(node.args[0], depth + 1)
            if name == "join" and node.args:
                func = node.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant):
                    parts = self._strings(node.args[0], depth)  # "\n".join([...])
                    sep = func.value.value
                    return sep.join(parts) if parts is not None and isinstance(sep, str) else None
                joined = [self._string(a, depth + 1) for a in node.args]  # os.path.join
                named = [p for p in joined if p is not None]
                return posixpath.join(*named) if len(named) == len(joined) else None
            if name == "dedent" and node.args:
                import textwrap

                inner = self._string(node.args[0], depth + 1)
                return textwrap.dedent(inner) if inner is not None else None
        return None

    def _strings(self, node: ast.expr, depth: int) -> list[str] | None:
        if isinstance(node, ast.List | ast.Tuple):
            parts = [self._string(e, depth + 1) for e in node.elts]
            return (
                [p for p in parts if p is not None] if all(p is not None for p in parts) else None
            )
        return None

    @staticmethod
    def _called(node: ast.Call) -> str:
        func = node.func
        if isinstance(func, ast.Attribute):
            return func.attr
        if isinstance(func, ast.Name):
            return func.id
        return ""

    def _path_of(self, node: ast.expr, depth: int = 0) -> str | None:
        """The file an expression stands for: a path, ``Path(p)``, ``open(p)``."""
        if depth > 8:
            return None
        if isinstance(node, ast.Name) and node.id in self.handles:
            return self._path_of(self.handles[node.id], depth + 1)
        if isinstance(node, ast.Name) and node.id in self.names:
            return self._path_of(self.names[node.id], depth + 1)
        if isinstance(node, ast.Call) and self._called(node) in {"open", "Path", "PurePath"}:
            return self._string(node.args[0], depth + 1) if node.args else None
        return self._string(node, depth + 1)

    def _mode(self, node: ast.Call) -> str:
        mode = node.args[1] if len(node.args) > 1 else None
        for keyword in node.keywords:
            if keyword.arg == "mode":
                mode = keyword.value
        return self._string(mode) or "r"

    def _content(self, node: ast.expr, path: str, depth: int = 0) -> Touch:
        """What writing ``node`` into ``path`` does: its text, or a replacement of text
        in the file's own content (``p.read_text().replace(a, b)``)."""
        text = self._string(node)
        if text is not None:
            return Touch(path, "write", new=text)
        edits: list[tuple[str, str]] = []
        current: ast.expr | None = node
        while depth < 16 and current is not None:
            depth += 1
            if isinstance(current, ast.Name) and current.id in self.names:
                current = self.names[current.id]
                continue
            if (
                isinstance(current, ast.Call)
                and self._called(current) == "replace"
                and isinstance(current.func, ast.Attribute)
                and len(current.args) >= 2
            ):
                old, new = self._string(current.args[0]), self._string(current.args[1])
                if old is None or new is None:
                    break
                edits.insert(0, (old, new))
                current = current.func.value
                continue
            if isinstance(current, ast.Call) and self._called(current) in {"read_text", "read"}:
                if edits:
                    first_old, first_new = edits[0]
                    return Touch(path, "edit", old=first_old, new=first_new)
            break
        return Touch(path, "write")

    def _call(self, node: ast.Call) -> None:
        name = self._called(node)
        func = node.func
        args = node.args
        if name in {"write", "writelines"} and isinstance(func, ast.Attribute) and args:
            target = func.value
            opened = target
            while isinstance(opened, ast.Name) and opened.id in self.handles:
                opened = self.handles[opened.id]
            if isinstance(opened, ast.Call) and self._called(opened) == "open":
                path = self._path_of(opened)
                mode = self._mode(opened)
                if path is not None and any(m in mode for m in "wax+"):
                    touch = self._content(args[0], path)
                    if "a" in mode:
                        touch = Touch(
                            path, "append", new=touch.new if touch.op == "write" else None
                        )
                    self.found.append(touch)
        elif name in {"write_text", "write_bytes"} and isinstance(func, ast.Attribute):
            path = self._path_of(func.value)
            if path is not None:
                self.found.append(
                    self._content(args[0], path)
                    if args and name == "write_text"
                    else Touch(path, "write")
                )
        elif name == "open" and isinstance(func, ast.Name) and args:
            path = self._path_of(args[0])
            mode = self._mode(node)
            if path is not None and any(m in mode for m in "wx") and not self._written(path):
                self.found.append(Touch(path, "write"))
        elif name in self._DELETERS and args and self._module_call(node):
            path = self._path_of(args[0])
            if path is not None:
                self.found.append(Touch(path, "delete"))
        elif name in {"unlink", "rmdir"} and isinstance(func, ast.Attribute) and not args:
            path = self._path_of(func.value) if self._is_path(func.value) else None
            if path is not None:
                self.found.append(Touch(path, "delete"))
        elif name in self._MOVERS and len(args) >= 2 and self._module_call(node):
            source, dest = self._path_of(args[0]), self._path_of(args[1])
            if source is not None and dest is not None:
                self.found += [Touch(source, "delete"), Touch(dest, "write", source=source)]
        elif name in {"rename", "replace"} and len(args) == 1 and isinstance(func, ast.Attribute):
            if self._is_path(func.value):  # Path(a).rename(b)
                source, dest = self._path_of(func.value), self._path_of(args[0])
                if source is not None and dest is not None:
                    self.found += [Touch(source, "delete"), Touch(dest, "write", source=source)]
        elif name in self._COPIERS and len(args) >= 2 and self._module_call(node):
            source, dest = self._path_of(args[0]), self._path_of(args[1])
            if dest is not None:
                self.found.append(Touch(dest, "write", source=source))
        elif name in self._SHELLS and args:
            line = self._string(args[0])
            if line is None:
                parts = self._strings(args[0], 0)
                line = " ".join(_quote(p) for p in parts) if parts else None
            if line is not None:
                self.found += list(shell_touches(line))

    @staticmethod
    def _module_call(node: ast.Call) -> bool:
        """``os.remove(…)``, ``shutil.move(…)`` — or the name alone, imported from them."""
        func = node.func
        if isinstance(func, ast.Name):
            return True
        return isinstance(func, ast.Attribute) and (
            (isinstance(func.value, ast.Name) and func.value.id in {"os", "shutil", "pathlib"})
            or (isinstance(func.value, ast.Attribute) and func.value.attr == "path")
        )

    def _is_path(self, node: ast.expr, depth: int = 0) -> bool:
        """An expression that stands for a ``Path``."""
        if depth > 8:
            return False
        if isinstance(node, ast.Name) and node.id in self.names:
            return self._is_path(self.names[node.id], depth + 1)
        if isinstance(node, ast.Call):
            return self._called(node) in {"Path", "PurePath", "PosixPath"}
        return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)

    def _written(self, path: str) -> bool:
        return any(t.path == path and t.op in {"write", "append", "edit"} for t in self.found)

    def _by_pattern(self) -> list[Touch]:
        """Code that does not parse (a fragment): the plain forms, by their words."""
        found: list[Touch] = []
        for match in re.finditer(
            r"""open\(\s*(['"])([^'"\n]+)\1\s*,\s*(['"])[^'"]*[wax]""", self.code
        ):
            found.append(Touch(match.group(2), "write"))
        for match in re.finditer(
            r"""(?:os\.(?:remove|unlink)|shutil\.rmtree)\(\s*(['"])([^'"\n]+)\1""", self.code
        ):
            found.append(Touch(match.group(2), "delete"))
        return found


def _quote(word: str) -> str:
    return word if re.fullmatch(r"[\w./=:@%+-]+", word) else "'" + word.replace("'", "'\\''") + "'"


_JS_STRING = r"""(?:'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)"""
_JS_WRITE = re.compile(
    rf"""\b(?:fs\.(?:promises\.)?|fsp\.|\b)(?P<fn>writeFileSync|writeFile|appendFileSync|appendFile)
    \(\s*(?P<path>{_JS_STRING})\s*,\s*(?P<body>{_JS_STRING}|[^)]*)""",
    re.X,
)
_JS_DELETE = re.compile(
    rf"""\b(?:fs\.(?:promises\.)?|fsp\.)?(?:unlinkSync|unlink|rmSync|rm|rmdirSync)\(\s*(?P<path>{_JS_STRING})"""
)
_JS_MOVE = re.compile(
    rf"""\b(?:fs\.(?:promises\.)?)?(?P<fn>renameSync|rename|copyFileSync|copyFile|cpSync)
    \(\s*(?P<a>{_JS_STRING})\s*,\s*(?P<b>{_JS_STRING})""",
    re.X,
)
_JS_REPLACE = re.compile(
    rf"""readFileSync\([^)]*\)\s*\.\s*replace(?:All)?\(\s*(?P<old>{_JS_STRING})\s*,\s*(?P<new>{_JS_STRING})"""
)


def _js_literal(text: str) -> str | None:
    if len(text) < 2 or text[0] not in "'\"`" or text[-1] != text[0]:
        return None
    if text[0] == "`" and "${" in text:
        return None
    return _escapes(text[1:-1])


def _javascript(code: str) -> list[Touch]:
    found: list[Touch] = []
    for match in _JS_WRITE.finditer(code):
        path = _js_literal(match.group("path"))
        if path is None:
            continue
        body = match.group("body").strip()
        text = _js_literal(body)
        replaced = _JS_REPLACE.search(body)
        append = match.group("fn").startswith("append")
        if text is not None:
            found.append(Touch(path, "append" if append else "write", new=text))
        elif replaced is not None:
            old, new = _js_literal(replaced.group("old")), _js_literal(replaced.group("new"))
            found.append(
                Touch(path, "edit", old=old, new=new)
                if old and new is not None
                else Touch(path, "edit")
            )
        else:
            found.append(Touch(path, "append" if append else "write"))
    for match in _JS_DELETE.finditer(code):
        path = _js_literal(match.group("path"))
        if path is not None:
            found.append(Touch(path, "delete"))
    for match in _JS_MOVE.finditer(code):
        a, b = _js_literal(match.group("a")), _js_literal(match.group("b"))
        if a is None or b is None:
            continue
        if match.group("fn").startswith("rename"):
            found.append(Touch(a, "delete"))
        found.append(Touch(b, "write", source=a))
    return found


# ------------------------------------------------------------ what it shows

_PRINTERS = frozenset(
    {"cat", "type", "get-content", "gc", "more", "less", "bat", "nl", "tac", "strings"}
)
_PARTIAL = frozenset({"head", "tail", "awk", "grep", "egrep", "fgrep", "rg", "select-string"})
_METADATA = frozenset(
    """wc ls dir stat file du pdfinfo identify exiftool md5sum sha1sum sha256sum shasum cksum
    get-item get-childitem test [ realpath readlink""".split()
)
_VALUE_OPTIONS = frozenset({"-n", "-c", "--lines", "--bytes"})
"""Options of head, tail and the like that take a value (``head -n 20``)."""
_GREP_VALUES = frozenset(
    {"-e", "-f", "-m", "-A", "-B", "-C", "--max-count", "-g", "-t", "--glob", "--type"}
)
"""Options of grep and rg that take a value."""


def _shows(op: str) -> Reader:
    def read(at: _At) -> list[Touch]:
        if op != "metadata" and at.step.stdout:
            return []  # its output went to a file: nothing was shown
        words = at.words
        if at.step.argv and at.step.argv[0] in {"grep", "egrep", "fgrep", "rg"}:
            operands = _operands(words, _GREP_VALUES)
            has_pattern = not any(w in {"-e", "-f"} or w.startswith("--regexp") for w in words)
            words = operands[1:] if has_pattern else operands
            return [Touch(w, op) for w in words]  # type: ignore[arg-type]
        values = _VALUE_OPTIONS if op != "metadata" else frozenset()
        return [Touch(w, op) for w in _operands(words, values)]  # type: ignore[arg-type]

    return read


_CONVERTED_TO_LAST = frozenset({"pdftotext", "docx2txt", "pdftohtml", "pdftoppm"})
_OUTPUTS: dict[str, frozenset[str]] = {
    # a converter's options that name where its output goes
    "pandoc": frozenset({"-o", "--output"}),
    "markitdown": frozenset({"-o", "--output"}),
    "soffice": frozenset({"--outdir"}),
    "libreoffice": frozenset({"--outdir"}),
    "unzip": frozenset({"-d"}),
}
_CONVERTER_VALUES = frozenset({"--convert-to", "-f", "-t", "--from", "--to", "-r", "-x"})


def _converter(at: _At) -> list[Touch]:
    """``pdftotext a.pdf a.txt``, ``pandoc a.docx -o a.md``, ``soffice --convert-to
    txt --outdir out a.docx``, ``unzip a.zip -d out``: a copy of the input, to read
    later."""
    words = at.words
    program = at.step.argv[0]
    outputs = _OUTPUTS.get(program, frozenset())
    target = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in outputs), None)
    operands = _operands(words, outputs | _CONVERTER_VALUES)
    if not operands:
        return []
    source = operands[0]
    if target is None and len(operands) >= 2 and program in _CONVERTED_TO_LAST:
        target = operands[-1]
    return [Touch(target, "write", source=source)] if target is not None else []


# ------------------------------------------------------------------- the table

PROGRAMS: dict[str, tuple[str, Reader]] = {
    # program: (what it does to files, how its words are read)
    "tee": ("writes (or with -a appends) what is piped in to each file", _tee),
    "sed": ("edits each file in place with -i, else prints it", _sed),
    "perl": ("edits each file in place with -i (-pi -e 's/a/b/')", _perl),
    "ruby": ("edits each file in place with -i", _ruby),
    "rm": ("deletes each file or folder", _remove),
    "unlink": ("deletes the file", _remove),
    "rmdir": ("deletes each folder", _remove),
    "shred": ("overwrites (with -u deletes) each file", _remove),
    "mv": ("moves each source to the target", _move),
    "cp": ("copies each source to the target", _copy),
    "install": ("copies each source to the target", _copy),
    "touch": ("creates each file if missing", _touch),
    "truncate": ("cuts each file to a size", _truncate),
    "dd": ("writes the of= file", _dd),
    "git": ("checkout/restore/reset/stash/rm/mv/clean/apply/merge … change files", _git),
    "patch": ("applies a patch from its input or a file", _patch),
    "apply_patch": ("Codex: applies the V4A patch in its here-document or argument", _apply_patch),
    "applypatch": ("Codex: applies the V4A patch in its here-document or argument", _apply_patch),
    "pdftotext": ("converts its input into the output file", _converter),
    "pdftohtml": ("converts its input into the output file", _converter),
    "pdftoppm": ("renders its input into the output files", _converter),
    "docx2txt": ("converts its input into the output file", _converter),
    "pandoc": ("converts its input into the -o file", _converter),
    "markitdown": ("converts its input into the -o file", _converter),
    "soffice": ("converts its input into --outdir", _converter),
    "libreoffice": ("converts its input into --outdir", _converter),
    "unzip": ("extracts its archive into -d", _converter),
    **{p: ("shows each file whole", _shows("read")) for p in _PRINTERS},
    **{p: ("shows part of each file", _shows("partial")) for p in _PARTIAL},
    **{p: ("shows only each file's size, type or listing", _shows("metadata")) for p in _METADATA},
}
"""What each program does to the files its words name."""


def _program(step: Step) -> str:
    return step.argv[0].lower().removesuffix(".exe") if step.argv else ""


@functools.lru_cache(maxsize=8192)
def shell_touches(command: str) -> tuple[Touch, ...]:
    """What the shell line ``command`` does to files, in order (see the module
    docstring). Cached: the same lines come back at every review."""
    line = steps(command)
    found: list[Touch] = []
    for index, step in enumerate(line):
        at = _At(step, line, index)
        program = _program(step)
        row = PROGRAMS.get(program)
        touches: list[Touch] = []
        if row is not None:
            touches += row[1](at)
        elif _INTERPRETERS.match(program):
            touches += _python(at)
        elif _NODES.match(program):
            touches += _node(at)
        touches += _redirections(at)
        found += (msgspec.structs.replace(t, via=program) if not t.via else t for t in touches)
    return tuple(found)
