"""What job a command does, by what it acts on: the key a failed command and a later
success are matched by (:mod:`.errors`).

A job is ``(program, target, sub)``: the program by what it is, not by the name
it was called by (:data:`PROGRAMS`: ``python3.11`` and ``/root/venv/bin/python``
are ``python``, ``nodejs`` is ``node``, ``docker-compose`` is ``docker compose``),
what it acts on, and — where the program or script takes one — the subcommand
(``manage.py migrate`` is not ``manage.py showmigrations``). A script is its own
job whoever runs it (``./run.sh``, ``bash run.sh``, ``sh ./run.sh``); a package
script likewise (``yarn dev``, ``npm run dev``, ``pnpm dev``); an install is of its
packages, by any installer. A syntax check (``node --check``, ``bash -n``, ``php
-l``) only looks: it has no job, and redoes none.

Wrappers (``env``, ``timeout``, ``sudo``, ``uv run``, ``bash -c``, ``python -m``) are
gone before this reads a command (:func:`~donecheck.actors.actions.shellwords.steps`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from donecheck.actors.actions.shellwords import INTERPRETER_VALUED
from donecheck.actors.words.claims import path_matches

__all__ = ["PROGRAMS", "Job", "job_of", "program_of", "same_job"]

Job = tuple[str, str, str]
"""(program, target, subcommand); ``""`` where there is none."""

PROGRAMS: dict[str, str] = {
    # another name for the same program, a row per pair
    "python2": "python", "python3": "python", "py": "python", "pypy": "python",
    "pypy3": "python", "ipython": "python",
    "nodejs": "node",
    "ts-node": "tsx", "esno": "tsx",
    "bash": "sh", "zsh": "sh", "dash": "sh", "ksh": "sh",
    "docker-compose": "docker compose", "podman": "docker", "podman-compose": "docker compose",
    "apt-get": "apt", "aptitude": "apt",
    "gcc": "cc", "clang": "cc", "g++": "c++", "clang++": "c++",
    "pip3": "pip", "gmake": "make", "nvim": "vim",
}  # fmt: skip
_VERSIONED = re.compile(r"(python|pypy|pip|node|ruby|perl|php)[\d.]*(?:\.exe)?")

INTERPRETERS = frozenset({"python", "node", "tsx", "sh", "ruby", "perl", "php", "deno", "bun"})
"""Programs whose first operand is the script they run: the script is the job."""

SYNTAX_ONLY: dict[str, frozenset[str]] = {
    # flags with which an interpreter only checks a script's syntax
    "node": frozenset({"--check", "-c"}),
    "sh": frozenset({"-n"}),
    "php": frozenset({"-l", "--syntax-check"}),
    "ruby": frozenset({"-c"}),
    "perl": frozenset({"-c"}),
}

PACKAGE_MANAGERS = frozenset({"npm", "yarn", "pnpm", "bun"})
_RUN_WORDS = frozenset({"run", "run-script", "rum", "urn"})
_LIFECYCLE = frozenset({"test", "start", "stop", "restart"})
_OWN_COMMANDS = frozenset(
    """install i add remove rm uninstall un update upgrade up outdated init create
    publish pack link unlink login logout config cache audit ci dedupe exec dlx why info
    view list ls help version set import prune rebuild store patch workspace
    workspaces""".split()
)
"""What a package manager does itself (``yarn add``); any other word runs a script."""

INSTALLERS: dict[str, frozenset[str]] = {
    # program → the words that make it install packages
    "pip": frozenset({"install"}),
    "uv": frozenset({"add"}),
    "poetry": frozenset({"add"}),
    "pipx": frozenset({"install"}),
    "conda": frozenset({"install"}),
    "mamba": frozenset({"install"}),
    "npm": frozenset({"install", "i", "add", "ci"}),
    "pnpm": frozenset({"install", "i", "add"}),
    "yarn": frozenset({"add", "install"}),
    "bun": frozenset({"add", "install", "i"}),
    "apt": frozenset({"install"}),
    "apk": frozenset({"add"}),
    "yum": frozenset({"install"}),
    "dnf": frozenset({"install"}),
    "brew": frozenset({"install"}),
    "gem": frozenset({"install"}),
    "cargo": frozenset({"install", "add"}),
    "go": frozenset({"install", "get"}),
}
"""Installs are the job of the packages they name, whichever program does it
(``pip install x`` / ``uv pip install x`` / ``poetry add x``)."""

GROUPS: dict[str, frozenset[str]] = {
    # program → its first words that take a subcommand of their own ("*": every word)
    "docker": frozenset({"compose", "container", "image", "network", "volume", "buildx",
                         "system", "context"}),
    "git": frozenset({"remote", "stash", "submodule", "worktree", "lfs", "notes"}),
    "gh": frozenset({"*"}),
    "kubectl": frozenset({"config", "rollout"}),
    "systemctl": frozenset({"*"}),
    "az": frozenset({"*"}),
    "aws": frozenset({"*"}),
    "gcloud": frozenset({"*"}),
}  # fmt: skip
_BARE = re.compile(r"[a-z][a-z0-9_:-]*")
_SCRIPT = re.compile(r"[\w.-]+\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php)")


def program_of(name: str) -> str:
    """The program ``name`` calls, by what it is (:data:`PROGRAMS`): ``/usr/bin/python3.11``
    is ``python``, ``zsh`` is ``sh``."""
    head = posixpath.basename(name.replace("\\", "/")).lower().removesuffix(".exe")
    versioned = _VERSIONED.fullmatch(head)
    if versioned is not None:
        head = versioned.group(1)
    return PROGRAMS.get(head, head)


def _pathlike(word: str) -> bool:
    return "/" in word or "." in word.strip(".")


def _operands(rest: Sequence[str]) -> list[str]:
    """The words that are not options, nor a path-like or numeric option value."""
    found: list[str] = []
    after_flag = False
    for word in rest:
        if word.startswith("-") and len(word) > 1:
            after_flag = "=" not in word
            continue
        if after_flag and (_pathlike(word) or (word.isascii() and word.isdigit())):
            after_flag = False
            continue  # the value of the option before it (-f deploy/compose.yml)
        after_flag = False
        found.append(word)
    return found


def _script_and_after(program: str, rest: Sequence[str]) -> list[str]:
    """An interpreter's words after its own options: the script and its arguments."""
    valued = INTERPRETER_VALUED.get(program, frozenset())
    at = 0
    while at < len(rest) and rest[at].startswith("-") and len(rest[at]) > 1:
        if rest[at] in {"-m", "-c", "-e", "--eval", "-p", "--print", "--"}:
            return _operands(rest[at:]) if rest[at] == "--" else []
        at += 2 if rest[at] in valued else 1
    return _operands(rest[at:])


def _sub(word: str | None) -> str:
    """A subcommand: a bare word (``migrate``), not a path or a value."""
    return word if word is not None and _BARE.fullmatch(word) else ""


def job_of(argv: Sequence[str]) -> Job | None:
    """The job of one simple command (wrappers already stripped); ``None`` for a
    command that only checks syntax."""
    if not argv:
        return None
    program = program_of(argv[0])
    rest = list(argv[1:])
    if " " in program:  # docker-compose: docker compose
        program, first = program.split(" ", 1)
        rest = [first, *rest]
    if program in SYNTAX_ONLY and any(w in SYNTAX_ONLY[program] for w in rest):
        return None
    operands = _operands(rest)
    installs = INSTALLERS.get(program)
    if program == "uv" and operands[:1] == ["pip"]:
        installs, operands = INSTALLERS["pip"], operands[1:]
    if installs and operands and operands[0] in installs:
        packages = sorted({re.split(r"[=<>~!\[@]", p, maxsplit=1)[0].lower() for p in operands[1:]})
        return ("install", ",".join(p.replace("_", "-") for p in packages), "")
    if program in PACKAGE_MANAGERS and operands:
        word = operands[0]
        if word in _RUN_WORDS and len(operands) > 1:
            word = operands[1]
        elif program == "npm" and word not in _LIFECYCLE:
            word = ""
        elif word in _OWN_COMMANDS:
            word = ""
        if word and not (program == "bun" and _pathlike(word)):
            return ("script", word, "")
    if program in INTERPRETERS:
        operands = _script_and_after(program, rest)
    if program in INTERPRETERS and operands:
        return ("run", operands[0], _sub(operands[1] if len(operands) > 1 else None))
    if program not in INTERPRETERS and ("/" in argv[0] or _SCRIPT.fullmatch(program)):
        # a script run directly: ./run.sh, scripts/deploy.sh, setup.py
        return ("run", argv[0], _sub(operands[0] if operands else None))
    target = operands[0] if operands else ""
    groups = GROUPS.get(program, frozenset())
    sub = ""
    if len(operands) > 1 and ("*" in groups or target in groups):
        sub = _sub(operands[1])
    return (program, target, sub)


def same_job(a: Job, b: Job) -> bool:
    """The same program (by what it is) doing the same to the same target: a file by
    its path from any folder (``scripts/gen.py``, ``/w/scripts/gen.py``, ``gen.py``
    after ``cd scripts``)."""
    if a[0] != b[0] or a[2] != b[2]:
        return False
    if a[0] == "install":  # a later install of these packages and maybe more
        return a[1] == b[1] or (bool(a[1]) and set(a[1].split(",")) <= set(b[1].split(",")))
    if a[1] == b[1]:
        return True
    return _pathlike(a[1]) and _pathlike(b[1]) and path_matches(a[1], b[1])
