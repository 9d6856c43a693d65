"""``donecheck install``: DoneCheck's hooks wired into an agent CLI (the choices are the
registered adapters, :mod:`donecheck.runtime.clients`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from donecheck.actors.errors import InputError
from donecheck.runtime.cli.common import (
    EXIT_FAILURE,
    EXIT_INPUT,
    EXIT_OK,
    error,
)
from donecheck.runtime.clients import adapter, names


def add(commands: Any) -> None:
    """Register the command with the ``donecheck`` parser."""
    install = commands.add_parser(
        "install",
        help="wire DoneCheck's hooks into Claude Code, Codex, Gemini CLI, GitHub Copilot CLI "
        "or OpenCode",
        description=(
            "Merge DoneCheck's hooks into the settings of Claude Code (UserPromptSubmit, "
            "PostToolUse, PostToolUseFailure, Stop, SessionStart, SessionEnd), Codex "
            "(UserPromptSubmit, PostToolUse, Stop, Interrupt, SessionEnd), Gemini CLI "
            "(BeforeAgent, AfterTool, AfterAgent, SessionEnd) or GitHub Copilot CLI "
            "(UserPromptSubmit, PostToolUse, Stop, SessionEnd), or write DoneCheck's plugin "
            "into OpenCode's plugin folder (OpenCode has no hooks), keeping every hook "
            "and setting that is not DoneCheck's, and print what changed. Installing again "
            "changes nothing; --uninstall takes DoneCheck's hooks out again (for Gemini CLI "
            "and Copilot CLI it puts the file back byte for byte, or removes the one it "
            "created; for OpenCode it removes the plugin file). "
            "Codex runs a hook only after the user trusted it: the installer records that "
            "trust for DoneCheck's own hooks through Codex's app server (as Codex's /hooks "
            "screen does) unless --no-trust is given. Gemini CLI runs hooks only in a trusted "
            "folder: the installer says when the workspace is not trusted yet; so does Copilot "
            "CLI for a project's hooks (.github/hooks/), which run only in a trusted folder."
        ),
        epilog=(
            "Examples: donecheck install claude-code (user settings, command hooks); "
            "donecheck install claude-code --scope project --form http; "
            "donecheck install codex; donecheck install codex --uninstall; "
            "donecheck install gemini; donecheck install copilot --scope project; "
            "donecheck install opencode. "
            "Exit status: 0 done, 1 written but Codex would not record the trust, 2 a "
            "settings file that is not valid JSON (left as it is) or a bad option."
        ),
    )
    install.add_argument("client", choices=names(), help="which agent CLI")
    install.add_argument(
        "--scope",
        choices=["user", "project", "local"],
        default="user",
        help="user: ~/.claude/settings.json, $CODEX_HOME/hooks.json, "
        "$GEMINI_CLI_HOME/.gemini/settings.json, $COPILOT_HOME/hooks/donecheck.json or "
        "~/.config/opencode/plugins/donecheck.js (default); project: the workspace's "
        ".claude/settings.json, .codex/hooks.json, .gemini/settings.json, "
        ".github/hooks/donecheck.json or .opencode/plugins/donecheck.js; local (Claude "
        "Code): .claude/settings.local.json, not committed",
    )
    install.add_argument(
        "--form",
        choices=["command", "http"],
        default="command",
        help="command: each hook runs 'donecheck hook' (default, every CLI); http (Claude "
        "Code): hooks POST to the running service, ~10 ms instead of a process",
    )
    install.add_argument(
        "--workspace", type=Path, default=Path("."), help="the project folder (default: .)"
    )
    install.add_argument(
        "--url",
        default=None,
        help="the service's URL for http hooks (default: the running service's, else "
        "http://127.0.0.1:8765)",
    )
    install.add_argument("--uninstall", action="store_true", help="remove DoneCheck's hooks")
    install.add_argument(
        "--dry-run", action="store_true", help="print what would change; write nothing"
    )
    install.add_argument(
        "--no-trust",
        action="store_true",
        help="Codex: do not record trust; review the hooks in Codex's /hooks screen instead",
    )
    install.add_argument(
        "--codex", default=None, metavar="PATH", help="the codex executable (default: on PATH)"
    )
    install.add_argument(
        "--plugin",
        action="store_true",
        help="Claude Code: print the folder of DoneCheck's Claude Code plugin (load it with "
        "claude --plugin-dir) instead of writing settings",
    )
    install.add_argument("--runtime-file", type=Path, default=None, help=argparse.SUPPRESS)
    install.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from donecheck.runtime import install as inst
    from donecheck.runtime.endpoint import read_endpoint, runtime_file

    if args.plugin:
        if args.client != "claude-code":
            error("--plugin: only Claude Code loads DoneCheck as a plugin")
            return EXIT_INPUT
        from donecheck.runtime.clients.claude_code import PLUGIN

        print(PLUGIN)
        print(
            f"Load it with: claude --plugin-dir {PLUGIN} (its hooks run 'donecheck hook' "
            "from PATH; 'donecheck serve' must be running)",
            file=sys.stderr,
        )
        return EXIT_OK
    workspace = args.workspace.resolve()
    if args.scope != "user" and not workspace.is_dir():
        error(f"--workspace {args.workspace}: not a folder")
        return EXIT_INPUT
    plugin = getattr(adapter(args.client), "install_plugin", None)
    if plugin is not None:  # a CLI with no hooks: DoneCheck's plugin file
        try:
            inst.settings_path(args.client, args.scope, workspace)
        except InputError as exc:
            error(str(exc))
            return EXIT_INPUT
        code = plugin(args, workspace, inst.hook_command(), print)
        if code == 0 and not args.uninstall and not args.dry_run:
            print(service_note(read_endpoint(runtime_file("donecheck", args.runtime_file))))
        return EXIT_INPUT if code == 2 else EXIT_FAILURE if code else EXIT_OK
    try:
        path = inst.settings_path(args.client, args.scope, workspace)
        settings = inst.read_settings(path)
        if args.uninstall:
            updated, changes = inst.unmerge(settings, path)
        else:
            url = args.url
            found = read_endpoint(runtime_file("donecheck", args.runtime_file))
            if url is None:
                url = found.url if found is not None else "http://127.0.0.1:8765"
            if args.form == "http" and found is not None and found.required and found.url == url:
                error(
                    "the running service requires a bearer token, which http hooks would "
                    "have to carry in the settings file: use --form command (it reads the "
                    "token from the service's runtime file)"
                )
                return EXIT_INPUT
            ours = inst.hooks_for(args.client, args.form, inst.hook_command(), url)
            updated, changes = inst.merge(settings, ours, path)
    except InputError as exc:
        error(str(exc))
        return EXIT_INPUT
    verb = "would change" if args.dry_run else "changed"
    if not changes:
        print(f"{path}: no DoneCheck hooks to remove")
    elif all(c.action == "unchanged" for c in changes):
        print(f"{path}: DoneCheck's hooks are installed already; nothing {verb}")
    else:
        print(f"{path}: {verb}:")
        print("\n".join(inst.summarise(c for c in changes if c.action != "unchanged")))
    if args.dry_run:
        return EXIT_OK
    settled = all(c.action == "unchanged" for c in changes)  # also: nothing to remove

    def write() -> None:
        if not settled:  # a file that already says it is left as it is, bytes and all
            inst.write_settings(path, updated)

    code = adapter(args.client).finish_install(args, path, workspace, write, print)
    if not args.uninstall:
        print(service_note(read_endpoint(runtime_file("donecheck", args.runtime_file))))
    return EXIT_FAILURE if code else EXIT_OK


def service_note(running: Any) -> str:
    """What the hooks need next: the service they talk to, running (and kept so)."""
    from donecheck.runtime.cli.daemon import alive

    if running is not None and alive(running.pid):
        return (
            f"The hooks talk to the DoneCheck service at {running.url} (pid {running.pid}); it"
            " must keep running while you use the agent."
        )
    return (
        "The hooks talk to the DoneCheck service, which is not running: start it with"
        " 'donecheck serve --daemon' (stop it with 'donecheck serve --stop'), or keep it"
        " running across logins and reboots with a user service: 'donecheck serve"
        " --systemd-unit'. Until it runs, the hooks say DoneCheck is not running and"
        " review nothing."
    )
