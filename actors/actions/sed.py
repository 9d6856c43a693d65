"""``sed`` scripts, read and applied: what ``sed -i SCRIPT FILE`` does to a file's text.

:func:`parse` reads a script into commands — an address (a line, a range, ``$``,
``/regex/``) and one of ``s``, ``d``, ``c``, ``a``, ``i``, ``y`` — and :func:`apply`
runs them over a text the way GNU sed does, line by line, or says it cannot
(``None``: a command or a regular expression it does not know). Regular
expressions are POSIX basic ones unless ``-E``/``-r`` made them extended; both are
turned into Python's. Nothing here runs anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SedCommand", "apply", "deleted_patterns", "parse", "substitutions"]

_DIGITS = frozenset("0123456789")
"""ASCII digits only: ``str.isdigit`` is true of ``²``, which ``int`` refuses."""
_MAX_COMMANDS = 64


@dataclass(frozen=True, slots=True)
class SedCommand:
    """One command of a script."""

    name: str
    """``s``, ``d``, ``c``, ``a``, ``i``, ``y``."""
    start: str = ""
    """Its address: ``""`` (every line), a line number, ``$``, or ``/regex/``."""
    end: str = ""
    """The end of a range address, or ``""``."""
    pattern: str = ""
    """``s``: the regular expression (as Python's); ``y``: the source letters."""
    replacement: str = ""
    """``s``: the replacement (as Python's); ``c``/``a``/``i``: the text; ``y``: targets."""
    flags: str = ""


def _python_regex(text: str, extended: bool) -> str:
    """A POSIX regular expression as Python's."""
    if extended:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append(nxt if nxt in "(){}+?|" else "\\" + nxt)
            i += 2
            continue
        out.append("\\" + ch if ch in "(){}+?|" else ch)
        i += 1
    return "".join(out)


def _python_replacement(text: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append(
                f"\\g<{nxt}>" if nxt in _DIGITS else {"n": "\n", "t": "\t", "&": "&"}.get(nxt, nxt)
            )
            i += 2
        elif ch == "&":
            out.append("\\g<0>")
            i += 1
        else:
            out.append(ch.replace("\\", "\\\\"))
            i += 1
    return "".join(out)


def _delimited(script: str, i: int, delimiter: str) -> tuple[str, int] | None:
    """The text up to the next unescaped ``delimiter`` from ``i`` (escapes of the
    delimiter itself undone), and the index after it."""
    out: list[str] = []
    while i < len(script):
        ch = script[i]
        if ch == "\\" and i + 1 < len(script):
            nxt = script[i + 1]
            out.append(nxt if nxt == delimiter else ch + nxt)
            i += 2
            continue
        if ch == delimiter:
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    return None


def _address(script: str, i: int, extended: bool) -> tuple[str, int] | None:
    if i < len(script) and script[i] in _DIGITS:
        j = i
        while j < len(script) and script[j] in _DIGITS:
            j += 1
        return script[i:j], j
    if script.startswith("$", i):
        return "$", i + 1
    if script.startswith("/", i) or script.startswith("\\", i):
        delimiter = "/" if script[i] == "/" else script[i + 1 : i + 2]
        start = i + 1 if script[i] == "/" else i + 2
        found = _delimited(script, start, delimiter)
        if found is None:
            return None
        return "/" + _python_regex(found[0], extended) + "/", found[1]
    return "", i


def parse(script: str, extended: bool = False) -> tuple[SedCommand, ...] | None:
    """The commands of ``script``; ``None`` when a part of it is not understood."""
    commands: list[SedCommand] = []
    i = 0
    while i < len(script) and len(commands) < _MAX_COMMANDS:
        while i < len(script) and script[i] in " \t\n;":
            i += 1
        if i >= len(script):
            break
        first = _address(script, i, extended)
        if first is None:
            return None
        start, i = first
        end = ""
        if start and script.startswith(",", i):
            second = _address(script, i + 1, extended)
            if second is None or not second[0]:
                return None
            end, i = second
        while i < len(script) and script[i] in " \t":
            i += 1
        if i >= len(script):
            return None
        name = script[i]
        i += 1
        if name == "d":
            commands.append(SedCommand("d", start, end))
        elif name in "sy":
            if i >= len(script):
                return None
            delimiter = script[i]
            old = _delimited(script, i + 1, delimiter)
            new = _delimited(script, old[1], delimiter) if old is not None else None
            if old is None or new is None:
                return None
            i = new[1]
            j = i
            while j < len(script) and script[j] not in ";\n}":
                j += 1
            flags = script[i:j].strip()
            i = j
            if name == "y":
                commands.append(SedCommand("y", start, end, old[0], new[0]))
            else:
                pattern = _python_regex(old[0], extended or "E" in flags)
                commands.append(
                    SedCommand("s", start, end, pattern, _python_replacement(new[0]), flags)
                )
        elif name in "cai":
            j = script.find("\n", i)
            text = script[i:] if j < 0 else script[i:j]
            i = len(script) if j < 0 else j
            text = text.lstrip()
            text = text[1:].lstrip("\n") if text.startswith("\\") else text
            commands.append(SedCommand(name, start, end, replacement=text))
        else:
            return None  # p, n, N, h, g, b, labels …: not read here
    return tuple(commands)


def _matches(address: str, number: int, last: int, line: str) -> bool:
    if address == "$":
        return number == last
    if address.isascii() and address.isdigit():
        return number == int(address)
    return re.search(address[1:-1], line) is not None


def _ends(address: str, number: int, last: int, line: str) -> bool:
    """Whether a range whose end is ``address`` ends at this line."""
    if address.isascii() and address.isdigit():
        return number >= int(address)
    return _matches(address, number, last, line)


def apply(commands: tuple[SedCommand, ...], text: str) -> str | None:
    """``text`` after ``commands``, line by line; ``None`` when one cannot be applied."""
    lines = text.split("\n")
    trailing = text.endswith("\n")
    if trailing:
        lines = lines[:-1]
    last = len(lines)
    ranges: dict[int, bool] = {}
    out: list[str] = []
    try:
        for number, line in enumerate(lines, start=1):
            before: list[str] = []
            after: list[str] = []
            deleted = False
            for k, command in enumerate(commands):
                if command.end and ranges.get(k):
                    hit = True
                    ranges[k] = not _ends(command.end, number, last, line)
                elif command.end:
                    hit = _matches(command.start, number, last, line)
                    if hit:  # a regular expression ends it from the next line on
                        ranges[k] = command.end.startswith("/") or not _ends(
                            command.end, number, last, line
                        )
                else:
                    hit = not command.start or _matches(command.start, number, last, line)
                if not hit:
                    continue
                if command.name == "d":
                    deleted = True
                    break
                if command.name == "s":
                    count = 0 if "g" in command.flags else 1
                    flags = re.IGNORECASE if "I" in command.flags or "i" in command.flags else 0
                    line = re.sub(
                        command.pattern, command.replacement, line, count=count, flags=flags
                    )
                elif command.name == "y":
                    if len(command.pattern) != len(command.replacement):
                        return None
                    line = line.translate(str.maketrans(command.pattern, command.replacement))
                elif command.name == "c":
                    line = command.replacement
                elif command.name == "a":
                    after.append(command.replacement)
                elif command.name == "i":
                    before.append(command.replacement)
            out.extend(before)
            if not deleted:
                out.append(line)
            out.extend(after)
    except (re.error, IndexError):
        return None
    return "\n".join(out) + ("\n" if trailing else "")


def substitutions(commands: tuple[SedCommand, ...]) -> list[tuple[str, str]]:
    """``(pattern, replacement)`` of each substitution, as Python's."""
    return [(c.pattern, c.replacement) for c in commands if c.name == "s"]


def deleted_patterns(commands: tuple[SedCommand, ...]) -> list[str]:
    """The regular expressions of the lines a script deletes (``/assert/d``), and
    ``""`` for a deletion by line number."""
    return [
        c.start[1:-1] if c.start.startswith("/") else ""
        for c in commands
        if c.name == "d" or c.name == "c"
    ]
