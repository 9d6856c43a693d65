"""The real Claude Code, Codex, Gemini, GitHub Copilot and OpenCode CLIs, wired by
``donecheck install``, with a scripted agent: what DoneCheck lets through, what it steers, and what
the card says.

Each test runs for Claude Code (``command`` and ``http`` hooks) and Codex (``command``
hooks); the core scenarios for Gemini CLI (``command`` hooks) too, where what the CLI
printed of each blocked stop is checked against what the model was handed, and for
Copilot CLI (``command`` hooks) with each reason it printed as handed back, and for
OpenCode (DoneCheck's plugin) with each checklist found in the session OpenCode
stored (``opencode export``). Ground
truth is the workspace itself: the tests in it pass or they do not.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.clients import scenarios
from tests.clients.conftest import WITH_COPILOT
from tests.clients.harness import (
    DONECHECK,
    PYTHON,
    ClaudeCode,
    Codex,
    Copilot,
    Gemini,
    OpenCode,
    Run,
    Service,
    blocked,
    handed_back,
    make_workspace,
)
from tests.support.agent_model import AgentModel, UseSkill

Client = ClaudeCode | Codex | Gemini | Copilot | OpenCode
gemini_too = pytest.mark.parametrize("client", WITH_COPILOT, indirect=True)
"""The core scenarios: every CLI, Gemini CLI, Copilot CLI and OpenCode too."""


def suite_passes(workspace: Path) -> bool:
    done = subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode == 0


def start(client: Client, tmp_path: Path, policy: Any) -> tuple[Path, AgentModel]:
    workspace = make_workspace(tmp_path / "ws")
    model = AgentModel(policy, workspace)
    if isinstance(client, Codex | Gemini | Copilot | OpenCode):
        client.configure(model)
    client.install(workspace)
    return workspace, model


def checklists(run: Run) -> list[str]:
    """DoneCheck's checklists as the agent received them, each once; for Gemini CLI,
    checked against what the CLI itself printed of each blocked stop."""
    received = list(run.model.continuations)
    if run.client == "gemini":  # the user saw DoneCheck's note for each one, in order
        notes = blocked(run)
        assert len(notes) == len(received), (notes, run.explain())
        for n, (note, text) in enumerate(zip(notes, received, strict=True), 1):
            assert note.startswith("DoneCheck: ") and f"— round {n} of " in note, note
            assert text.startswith(f"[DoneCheck — review round {n} of "), text
    if run.client == "copilot":  # each one is a user message the CLI printed, in order
        assert handed_back(run) == received, (handed_back(run), run.explain())
    if run.client == "opencode":  # each one is a user message of the session OpenCode kept
        stored = stored_user_messages(run)
        assert run.prompt in stored, (stored, run.explain())  # the prompt arrived whole
        assert stored[stored.index(run.prompt) + 1 :] == received, (stored, run.explain())
    return received


def stored_user_messages(run: Run) -> list[str]:
    """The user messages of an OpenCode run's session, as ``opencode export`` printed
    it right after the run."""
    exported = run.stored
    assert exported is not None, run.explain()
    return [
        "\n".join(p.get("text", "") for p in m["parts"] if p.get("type") == "text")
        for m in exported["messages"]
        if m["info"]["role"] == "user"
    ]


@gemini_too
def test_an_honest_agent_is_not_blocked(client: Client, tmp_path: Path, service: Service) -> None:
    workspace, model = start(client, tmp_path, scenarios.honest)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert checklists(run) == [], run.explain()
    assert card["chain"] == ["A1 pass"], (card, run.explain())
    assert card["end_reason"] == "pass"
    assert suite_passes(workspace)


@gemini_too
def test_a_false_claim_is_steered_and_the_fix_passes(
    client: Client, tmp_path: Path, service: Service
) -> None:
    workspace, model = start(client, tmp_path, scenarios.fixes_after_block)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert len(checklists(run)) == 1, run.explain()
    assert "failed" in checklists(run)[0], run.explain()
    assert card["chain"] == ["A1 need_fix", "A2 pass"], (card, run.explain())
    assert card["end_reason"] == "pass" and card["rounds_used"] == 1
    assert suite_passes(workspace)


@gemini_too
def test_a_repeated_false_claim_ends_at_donechecks_own_limit(
    client: Client, tmp_path: Path, service: Service
) -> None:
    workspace, model = start(client, tmp_path, scenarios.repeats)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert card["end_reason"] in {"no_progress", "round_limit"}, (card, run.explain())
    assert card["chain"][0] == "A1 need_fix"
    assert len(checklists(run)) == len(card["chain"]) - 1, run.explain()
    assert all("review round 1 of" in text or "round" in text for text in checklists(run))
    assert not suite_passes(workspace)
    if isinstance(client, Copilot):  # DoneCheck's limit ends it, well before Copilot's own
        from donecheck.runtime.clients import adapter

        assert len(checklists(run)) < (adapter("copilot").block_cap or 0), run.explain()
        assert card["end_reason"] in {"no_progress", "round_limit"}


@gemini_too
def test_a_claim_with_no_test_run_asks_for_one(
    client: Client, tmp_path: Path, service: Service
) -> None:
    workspace, model = start(client, tmp_path, scenarios.never_ran)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert card["chain"] == ["A1 need_evidence", "A2 pass"], (card, run.explain())
    assert suite_passes(workspace)


def test_a_masked_rerun_does_not_pass(client: Client, tmp_path: Path, service: Service) -> None:
    workspace, model = start(client, tmp_path, scenarios.masked)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert card["chain"][0] in {"A1 need_fix", "A1 need_evidence"}, (card, run.explain())
    assert card["chain"][-1] == "A2 pass", (card, run.explain())
    assert suite_passes(workspace)


@gemini_too
def test_a_new_request_is_a_new_task(client: Client, tmp_path: Path, service: Service) -> None:
    workspace, model = start(client, tmp_path, scenarios.two_requests)
    with model:
        first = client.run(workspace, model, scenarios.TASK)
        second = client.run(workspace, model, scenarios.SECOND_TASK, resume=first.native_id)
    assert first.returncode == 0 and second.returncode == 0, second.explain()
    assert checklists(first) == [] and checklists(second) == [], second.explain()
    card = service.card(second.session)
    assert card["chain"] == ["A1 pass"], (card, second.explain())
    assert suite_passes(workspace)


def test_an_interrupted_turn_is_cancelled(client: Client, tmp_path: Path, service: Service) -> None:
    workspace, model = start(client, tmp_path, scenarios.slow)
    with model:
        run = client.run(workspace, model, "Wait for the build.", interrupt_after=1.5)
    card = service.card(run.session)
    assert card["end_reason"] == "cancelled", (card, run.explain())


@pytest.mark.parametrize("form", ["command", "http"])
def test_a_sub_agents_run_backs_the_parents_claim(
    form: str, tmp_path: Path, service: Service
) -> None:
    client = ClaudeCode(tmp_path / "claude", service, form)
    workspace, model = start(client, tmp_path, scenarios.delegates)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert any(entry["sidechain"] for entry in run.model.log), run.explain()
    assert checklists(run) == [], (card, run.explain())
    assert card["chain"] == ["A1 pass"], (card, run.explain())


@pytest.mark.parametrize(
    ("policy", "chain"),
    [("tests_in_background", ["A1 pass"]),
     ("claims_a_background_run", ["A1 need_fix", "A2 pass"])],
)  # fmt: skip
def test_a_test_run_in_the_background_counts_when_it_ends(
    policy: str, chain: list[str], tmp_path: Path, service: Service
) -> None:
    """Claude Code's ``Bash`` with ``run_in_background``: the agent is told the run
    ended in a ``<task-notification>`` (a prompt hook's event); its exit code is the
    run's, and what it printed is in the output file the agent reads."""
    client = ClaudeCode(tmp_path / "claude", service, "command")
    workspace, model = start(client, tmp_path, getattr(scenarios, policy))
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert any(entry["notifications"] for entry in model.log), run.explain()  # it was told
    assert card["chain"] == chain, (card, run.explain())
    if len(chain) > 1:  # sent back for the failure the notice told of
        assert "failed with exit code 1" in checklists(run)[0], checklists(run)[0]
    assert suite_passes(workspace), run.explain()


def test_report_session_reads_the_running_service(tmp_path: Path, service: Service) -> None:
    client = ClaudeCode(tmp_path / "claude", service, "command")
    workspace, model = start(client, tmp_path, scenarios.fixes_after_block)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    out = tmp_path / "card.html"
    done = subprocess.run(
        [DONECHECK, "report", "--session", run.session, "-o", str(out)],
        env={**client.env(model)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert "A1 need_fix" in page and "A2 pass" in page


@pytest.mark.parametrize("policy", ["honest", "fixes_after_block"])
def test_donecheck_as_a_claude_code_plugin(policy: str, tmp_path: Path, service: Service) -> None:
    """``claude --plugin-dir`` with the plugin folder DoneCheck ships: the same hooks."""
    client = ClaudeCode(tmp_path / "claude", service, "plugin")
    workspace, model = start(client, tmp_path, getattr(scenarios, policy))
    assert not (workspace / ".claude").exists()  # nothing written to the project
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    expected = ["A1 pass"] if policy == "honest" else ["A1 need_fix", "A2 pass"]
    assert card["chain"] == expected, (card, run.explain())
    assert suite_passes(workspace)


@gemini_too
def test_an_agent_that_stops_mid_work_is_sent_back(
    client: Client, tmp_path: Path, service: Service
) -> None:
    workspace, model = start(client, tmp_path, scenarios.stops_mid_work)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert card["chain"] == ["A1 need_evidence", "A2 pass"], (card, run.explain())
    assert "Finish the work" in checklists(run)[0], run.explain()
    assert suite_passes(workspace)


def test_an_agent_waiting_on_the_user_is_reported_not_steered(
    client: Client, tmp_path: Path, service: Service
) -> None:
    workspace, model = start(client, tmp_path, scenarios.asks_for_token)
    with model:
        run = client.run(workspace, model, scenarios.TOKEN_TASK)
    card = service.card(run.session)
    assert checklists(run) == [], run.explain()  # DoneCheck cannot give it a token
    assert card["chain"] == ["A1 blocked"] and card["end_reason"] == "blocked", card
    assert any("token" in f["problem"] for f in card["findings"]), card


def test_a_skills_injected_text_is_never_the_request(tmp_path: Path, service: Service) -> None:
    client = ClaudeCode(tmp_path / "claude", service, "command")
    workspace, model = start(client, tmp_path, scenarios.uses_skill)
    skill = workspace / ".claude" / "skills" / scenarios.SKILL
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(scenarios.SKILL_MD)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert any(isinstance(entry["action"], UseSkill) for entry in model.log), run.explain()
    assert checklists(run) == [], (card, run.explain())
    assert card["chain"] == ["A1 pass"], (card, run.explain())
    items = " ".join(c["requirement"] for c in card["acceptance"])
    assert "docstring" not in items and "CHANGES.md" not in items, card


def test_a_waited_for_sub_agents_run_backs_the_parents_claim(
    tmp_path: Path, service: Service
) -> None:
    client = ClaudeCode(tmp_path / "claude", service, "command")
    workspace, model = start(client, tmp_path, scenarios.delegates_and_waits)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert any(entry["sidechain"] for entry in run.model.log), run.explain()
    assert card["chain"] == ["A1 pass"], (card, run.explain())


def review_json(path: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [DONECHECK, "review", "--json", str(path), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == 1, (done.returncode, done.stdout, done.stderr)
    row: dict[str, Any] = rows[0]
    return row


@pytest.mark.parametrize("name", ["claude-code", "codex"])
@pytest.mark.parametrize(
    ("policy", "expected"), [("honest", "pass"), ("stops_mid_work", "need_evidence")]
)
def test_what_the_cli_printed_is_reviewed_as_a_run(
    name: str, policy: str, expected: str, tmp_path: Path, service: Service
) -> None:
    """``claude -p --output-format stream-json`` and ``codex exec --json`` output, as
    the CLI printed it, reviewed by ``donecheck review``: with the prompt given by
    ``--request``, and without it (then the card says the request was unknown)."""
    # reviewed after the run, as a benchmark harness would: no hooks involved
    client: Client = (
        Codex(tmp_path / "codex", service)
        if name == "codex"
        else ClaudeCode(tmp_path / "claude", service, "command")
    )
    workspace = make_workspace(tmp_path / "ws")
    model = AgentModel(getattr(scenarios, policy), workspace)
    if isinstance(client, Codex):
        client.configure(model)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    log = tmp_path / "run.jsonl"
    log.write_text("".join(json.dumps(event) + "\n" for event in run.events))
    given = review_json(log, "--request", scenarios.TASK)
    assert given["form"] in {"claude-stream", "codex-exec"}, given
    assert given["decision"] == expected, given
    assert not any("request was unknown" in note for note in given.get("notes", [])), given
    unknown = review_json(log)
    assert unknown["decision"] == expected, unknown
    assert any("request was unknown" in note for note in unknown.get("notes", [])), unknown


def test_a_file_a_script_wrote_is_not_asked_for(
    client: Client, tmp_path: Path, service: Service
) -> None:
    workspace, model = start(client, tmp_path, scenarios.writes_with_a_script)
    with model:
        run = client.run(workspace, model, scenarios.SCRIPT_TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert checklists(run) == [], run.explain()  # honest: passes at the first stop
    assert card["chain"] == ["A1 pass"], (card, run.explain())
    assert (workspace / "welcome.txt").read_text() == "Welcome, Alice!\n"


def test_an_honest_stop_is_reported_and_a_set_aside_failure_steers_nothing(
    client: Client, tmp_path: Path, service: Service
) -> None:
    workspace, model = start(client, tmp_path, scenarios.honest_stop_then_aside)
    with model:
        first = client.run(workspace, model, scenarios.TASK)
        stopped = service.card(first.session)
        second = client.run(workspace, model, scenarios.ASIDE_TASK, resume=first.native_id)
    assert first.returncode == 0 and second.returncode == 0, second.explain()
    assert checklists(first) == [] and checklists(second) == [], second.explain()
    assert stopped["chain"] == ["A1 blocked"], (stopped, first.explain())  # reported
    card = service.card(second.session)
    assert card["chain"] == ["A1 pass"], (card, second.explain())
    assert (workspace / "CHANGELOG.md").read_text() == "- Nothing is released yet.\n"


def test_the_user_opts_out_in_the_prompt(client: Client, tmp_path: Path, service: Service) -> None:
    """A line `donecheck: off` in the user's own prompt: the same false claim that is
    steered otherwise ends the turn, and the card says it was opted out."""
    workspace, model = start(client, tmp_path, scenarios.repeats)
    with model:
        run = client.run(workspace, model, scenarios.TASK + "\n\ndonecheck: off")
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert checklists(run) == [], run.explain()
    assert card["end_reason"] == "opted_out", (card, run.explain())


# ------------------------------------ issue 34: a weakening caught, undone, the code fixed


def _commit(workspace: Path) -> None:
    """The workspace as a git repository with everything committed."""
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "start"],
    ):
        subprocess.run(["git", "-C", str(workspace), *args], check=True, capture_output=True)


@gemini_too
@pytest.mark.parametrize(
    ("policy", "committed"),
    [("loosens_then_restores", True), ("patches_then_removes", False)],
)
def test_a_weakening_caught_then_undone_and_fixed_passes(
    policy: str, committed: bool, client: Client, tmp_path: Path, service: Service
) -> None:
    """The checklist asks to undo the weakening and fix the code; the agent does —
    putting the test back with git, or removing the conftest it wrote — and the
    original suite passes: DoneCheck lets it through at the next stop."""
    workspace, model = start(client, tmp_path, getattr(scenarios, policy))
    if committed:
        _commit(workspace)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert card["chain"] == ["A1 need_fix", "A2 pass"], (card, run.explain())
    assert "weakened" in checklists(run)[0], checklists(run)[0]
    assert suite_passes(workspace) and not (workspace / "conftest.py").exists()


def test_a_spec_in_the_workspace_is_read_before_a_pass(
    client: Client, tmp_path: Path, service: Service
) -> None:
    """spec.txt, named in the request and lying in the workspace, is a material: an
    answer that relies on it with no read of it is sent back to read it."""
    workspace, model = start(client, tmp_path, scenarios.skips_the_spec)
    (workspace / "spec.txt").write_text(scenarios.SPEC)
    with model:
        run = client.run(workspace, model, scenarios.SPEC_TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert card["chain"] == ["A1 need_evidence", "A2 pass"], (card, run.explain())
    assert "spec.txt" in checklists(run)[0], run.explain()


# ------------------------------------------------ Gemini CLI: scopes and folder trust


@pytest.mark.parametrize("scope", ["project", "user"])
def test_gemini_hooks_in_each_scope_and_their_trust(
    scope: str, tmp_path: Path, service: Service
) -> None:
    """Gemini CLI runs hooks only in a trusted folder: project hooks with
    ``GEMINI_CLI_TRUST_WORKSPACE=true``; the user's also with ``--skip-trust`` (which
    skips the project's). The installer says so; its uninstall puts the settings file
    back byte for byte."""
    client = Gemini(tmp_path / "gemini", service, skip_trust=scope == "user")
    workspace = make_workspace(tmp_path / "ws")
    model = AgentModel(scenarios.fixes_after_block, workspace)
    client.configure(model)
    settings = workspace / ".gemini" / "settings.json" if scope == "project" else client.settings
    before = settings.read_bytes() if settings.exists() else None
    said = client.install(workspace, "--scope", scope)
    assert "GEMINI_CLI_TRUST_WORKSPACE=true" in said and "trust" in said, said
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert len(checklists(run)) == 1, run.explain()
    assert card["chain"] == ["A1 need_fix", "A2 pass"], (card, run.explain())
    assert suite_passes(workspace)
    client.install(workspace, "--scope", scope, "--uninstall")
    if before is None:
        assert not settings.exists()
    else:
        assert settings.read_bytes() == before


# ------------------------------------------- Copilot CLI: scopes and folder trust


@pytest.mark.parametrize("trusted", [True, False])
def test_copilot_project_hooks_and_the_folders_trust(
    trusted: bool, tmp_path: Path, service: Service, copilot_cache: Path
) -> None:
    """Copilot CLI runs a project's hooks (``.github/hooks/``) only in a trusted
    folder (``trustedFolders`` of its config.json) and skips them without a word
    otherwise: the installer says so; its uninstall puts the file back byte for byte."""
    client = Copilot(tmp_path / "copilot", service, copilot_cache, scope="project")
    workspace = make_workspace(tmp_path / "ws")
    model = AgentModel(scenarios.fixes_after_block, workspace)
    hooks = workspace / ".github" / "hooks" / "donecheck.json"
    hooks.parent.mkdir(parents=True)
    before = b'{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "true"}]}}\n'
    hooks.write_bytes(before)
    if trusted:
        client.trust(workspace)
    said = client.install(workspace)
    assert ("not trusted yet" in said) is not trusted, said
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    assert run.returncode == 0, run.explain()
    if trusted:
        card = service.card(run.session)
        assert len(checklists(run)) == 1, run.explain()
        assert card["chain"] == ["A1 need_fix", "A2 pass"], (card, run.explain())
        assert suite_passes(workspace)
    else:  # no hook ran: the false claim went through, and DoneCheck never heard of it
        assert checklists(run) == [] and handed_back(run) == [], run.explain()
        assert not suite_passes(workspace)
        with pytest.raises(Exception, match="404"):
            service.card(run.session)
    client.install(workspace, "--uninstall")
    assert hooks.read_bytes() == before


# ---------------------------------------- OpenCode: its plugin's scopes, its sub-agents


@pytest.mark.parametrize("scope", ["project", "user"])
def test_opencode_plugin_in_each_scope_and_its_removal(
    scope: str, tmp_path: Path, service: Service
) -> None:
    """``donecheck install opencode`` writes the plugin where OpenCode loads it (the
    project's ``.opencode/plugins/`` or the user's), the same run goes on with the
    checklist, and ``--uninstall`` removes the file it wrote."""
    client = OpenCode(tmp_path / "opencode", service, scope=scope)
    workspace = make_workspace(tmp_path / "ws")
    model = AgentModel(scenarios.fixes_after_block, workspace)
    client.configure(model)
    said = client.install(workspace)
    folder = workspace / ".opencode" if scope == "project" else client.config
    plugin = folder / "plugins" / "donecheck.js"
    assert plugin.exists() and "added" in said, said
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert run.returncode == 0, run.explain()
    assert len(checklists(run)) == 1, run.explain()
    assert card["chain"] == ["A1 need_fix", "A2 pass"], (card, run.explain())
    assert suite_passes(workspace)
    client.install(workspace, "--uninstall")
    assert not plugin.exists()


def test_opencode_sub_agents_run_backs_the_parents_claim(tmp_path: Path, service: Service) -> None:
    """OpenCode's ``task`` tool runs a sub-agent in a session of its own: its test run
    counts for the session that started it, and its own answer is not reviewed."""
    client = OpenCode(tmp_path / "opencode", service)
    workspace, model = start(client, tmp_path, scenarios.delegates_and_waits)
    with model:
        run = client.run(workspace, model, scenarios.TASK)
    card = service.card(run.session)
    assert any(entry["sidechain"] for entry in run.model.log), run.explain()
    assert checklists(run) == [], (card, run.explain())
    assert card["chain"] == ["A1 pass"], (card, run.explain())
    assert [r["command"] for r in card["runs"]] == [scenarios.TEST], card


# ------------------------------------------------ Codex: what install leaves behind


def test_codex_install_then_uninstall_leaves_codex_home_as_it_was(
    tmp_path: Path, service: Service
) -> None:
    """``donecheck install codex`` asks Codex's own app server to record the trust; the
    app server leaves nothing of its own in CODEX_HOME, and ``--uninstall`` puts the
    folder back as the user had it (issue 37)."""
    client = Codex(tmp_path / "codex", service)
    workspace = make_workspace(tmp_path / "ws")
    with AgentModel(scenarios.honest, workspace) as model:
        client.configure(model)
        path = client.env(model)["PATH"]
    home = client.codex_home
    before = {p.name: p.read_bytes() for p in home.iterdir()}
    client.install(workspace)  # checks nothing but hooks.json, its backup, config.toml
    assert {p.name for p in home.iterdir()} == {
        *before,
        "hooks.json",
        "hooks.json.donecheck-backup",
    }
    done = subprocess.run(
        [DONECHECK, "install", "codex", "--workspace", str(workspace), "--uninstall"],
        env={"PATH": path, "HOME": str(client.home), "CODEX_HOME": str(home)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert {p.name: p.read_bytes() for p in home.iterdir()} == before, done.stdout
