"""Configuration: every default in SPEC, overridable from code and from the environment.

>>> Config(max_rounds=3).max_rounds
3

Each field can also be set with a ``DONECHECK_<FIELD>`` environment variable
(``DONECHECK_MAX_ROUNDS=3``). Values passed in code win over the environment.
Use :func:`load_config` (or ``Config.load``) to get a :class:`ConfigError` that
names the bad setting instead of a pydantic ``ValidationError``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from donecheck.actors.errors import ConfigError
from donecheck.actors.redact import redact_url
from donecheck.parsers.base import ParseLimits

__all__ = ["ENV_PREFIX", "Config", "load_config"]

ENV_PREFIX = "DONECHECK_"
MiB = 1024 * 1024


class Config(BaseSettings):
    """All of DoneCheck's knobs. Numbers marked SPEC are the contract's defaults."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        frozen=True,
        extra="forbid",
        validate_default=True,
    )

    # ------------------------------------------------------------ loop (SPEC §7)
    max_rounds: int = Field(
        2, ge=0, le=16, description="Fix/recheck rounds after the first review."
    )
    round_window_s: float = Field(
        300.0, gt=0, description="No round starts later than this after the first review."
    )
    trigger_min_chars: int = Field(
        60, ge=0, description="Answers shorter than this, with no code, are not reviewed."
    )

    # ---------------------------------------------------------- budget (SPEC §8)
    aux_call_timeout_s: float = Field(150.0, gt=0, description="Wall time of one aux call.")
    aux_max_output_tokens: int = Field(32_768, gt=0, description="Output cap of one aux call.")
    session_aux_token_cap: int = Field(
        200_000, gt=0, description="Reported aux tokens per session before aux calls stop."
    )
    unknown_usage_policy: Literal["stop", "continue"] = Field(
        "stop", description="What unreported usage does: stop further aux calls, or not."
    )
    tenant_aux_token_cap: int | None = Field(
        None, gt=0, description="Reported aux tokens per tenant (sessions opened with a tenant)."
    )
    global_aux_token_cap: int | None = Field(
        None, gt=0, description="Reported aux tokens in all, split evenly across budget shards."
    )
    milestone_checks: bool = Field(
        False, description="Let the agent ask for one mid-task check per request (SPEC §9)."
    )
    preanalysis_at_open: bool = Field(
        True,
        description="With a judge, run a request's pre-analysis while the agent works"
        " (at open, or once its attachments are parsed) instead of at the first stop.",
    )

    # -------------------------------------------------------- evidence (SPEC §4)
    answer_excerpt_chars: int = Field(8_000, gt=0)
    tool_log_excerpt_chars: int = Field(8_000, gt=0)
    snapshot_max_targets: int = Field(24, ge=0)
    snapshot_hash_max_bytes: int = Field(8 * MiB, gt=0)
    max_attachment_bytes: int = Field(256 * MiB, gt=0)
    max_tool_output_chars: int = Field(
        65_536, ge=1_024, description="Stored per tool result: head and tail beyond this."
    )

    # ------------------------------------------------------- parsing (SPEC §3)
    parse_timeout_s: float = Field(60.0, gt=0, description="Wall time to parse one file.")
    parse_memory_bytes: int = Field(
        2048 * MiB, ge=256 * MiB, description="Address-space limit of a parse worker process."
    )
    parse_text_chars: int = Field(400_000, gt=0, description="Text kept per material.")
    parse_pages: int = Field(300, gt=0, description="Pages (or chapters) read per document.")
    parse_image_pixels: int = Field(80_000_000, gt=0, description="Decompression-bomb limit.")
    preview_long_side: int = Field(1568, ge=64, le=8192)
    preview_pages: int = Field(2, ge=0, description="Document pages rendered as previews.")
    archive_members: int = Field(1_000, gt=0)
    archive_total_bytes: int = Field(256 * MiB, gt=0)
    archive_ratio: float = Field(200.0, gt=1)
    archive_depth: int = Field(3, ge=0)
    ocr: bool = Field(True, description="Read text in images with Tesseract when installed.")
    material_excerpt_chars: int = Field(
        30_000, gt=0, description="Material text a model is shown per review."
    )
    parse_cache_entries: int = Field(512, ge=0, description="Materials cached per parser.")
    parse_cache_bytes: int = Field(128 * MiB, ge=0, description="Their text and previews.")

    # ---------------------------------------------------------- judge (SPEC §6)
    judge_base_url: str | None = Field(
        None,
        description="OpenAI-compatible endpoint of the judge model, e.g."
        " http://127.0.0.1:8000/v1; unset = rules-only review.",
    )
    judge_model: str | None = Field(None, description="The judge model's name.")
    judge_api_key: SecretStr | None = Field(
        None, description="Sent as a bearer token; never logged or reported."
    )
    judge_temperature: float = Field(0.2, ge=0, le=2)
    judge_modalities: tuple[str, ...] = Field(
        ("text",), description="Inputs the judge model takes: text, and image if it sees images."
    )
    judge_remote: bool = Field(
        False,
        description="Allow judge requests to hosts other than loopback (off: tests and demos"
        " can never reach a real provider).",
    )
    judge_stream: bool = Field(False, description="Ask the judge for a streamed answer.")
    judge_max_tokens: int = Field(
        8_192, gt=0, description="Output tokens asked of one judge call (at most the aux cap)."
    )
    judge_retry_after_cap_s: float = Field(
        20.0, ge=0, description="Longest wait a server's Retry-After can impose."
    )
    judge_max_answer_bytes: int = Field(
        8 << 20,
        ge=4_096,
        description="Largest judge answer read (a streamed one in all); past it the call fails.",
    )
    reviewer_concurrency: int = Field(
        1_024, ge=1, description="Judge reviews one reviewer actor runs at once; others queue."
    )
    verdict_cache_entries: int = Field(
        4_096, ge=0, description="Verdicts a reviewer keeps by evidence fingerprint."
    )

    # ---------------------------------------------------------- store (SPEC §4)
    data_dir: Path = Field(
        default_factory=lambda: _default_data_dir(),
        description="Where the embedded SQLite stores live (one folder per namespace).",
    )
    deployment: str = Field(
        default_factory=lambda: _default_deployment(),
        min_length=1,
        max_length=100,
        pattern=r"^[A-Za-z0-9_.-]+$",
        description="This deployment's own folder under data_dir/namespace, so an embedded"
        " script, each donecheck serve and each tool keep their sessions apart; default: the"
        " running script's name ('python' for an interactive one; donecheck serve uses"
        " 'serve-PORT'). Give two deployments the same name to share their sessions.",
    )
    store_url: str | None = Field(
        None,
        description="sqlite:///folder, postgresql://user@host/db, or memory:// (not durable);"
        " default: SQLite under data_dir.",
    )
    ledger_cached_sessions: int = Field(
        5_000, ge=1, description="Sessions a ledger shard keeps in memory; the rest load."
    )
    state_cached_sessions: int = Field(
        10_000,
        ge=1,
        description="Sessions a controller or budget shard keeps in memory (least recently"
        " used go first, never one in use); the rest reload from the store when touched.",
    )

    # --------------------------------------------------------------- runtime
    namespace: str = Field("donecheck", min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    spread_actors: bool = Field(
        False,
        description="Place the actors across the cluster's nodes (Ray's SPREAD) instead of"
        " packing them: losing one node then loses only its share (needs a shared store).",
    )
    ledger_shards: int = Field(2, ge=1, le=1024)
    controller_shards: int = Field(2, ge=1, le=1024)
    budget_shards: int = Field(1, ge=1, le=1024)
    reviewer_actors: int = Field(1, ge=1, le=1024)
    parser_actors: int | None = Field(
        None, ge=1, le=1024, description="Parser pool size (default: one per CPU)."
    )
    call_timeout_s: float = Field(
        60.0, gt=0, description="How long a driver waits for an actor (reviews get more)."
    )
    num_cpus: int | None = Field(
        None, ge=1, description="CPUs for an embedded Ray instance (default: all)."
    )
    worker_niceness: int = Field(
        0,
        ge=0,
        le=19,
        description="Scheduling niceness of an embedded Ray instance's workers, DoneCheck's"
        " actors among them. At Ray's default, 15, a busy host process gets ~28 times the CPU"
        " share of each actor; on a full 2-core machine DoneCheck then served ~20% fewer"
        " sessions/s (benchmarks/RESULTS.md).",
    )
    ray_runtime_env: dict[str, Any] = Field(
        {},
        description="Ray runtime environment of an embedded Ray instance (env_vars,"
        " worker_process_setup_hook, …), for every process it starts.",
    )

    @field_validator("judge_modalities")
    @classmethod
    def _known_modalities(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(value) - {"text", "image"})
        if unknown:
            raise ValueError(f"unknown modalities {unknown}; use 'text' and/or 'image'")
        return value

    @field_validator("store_url")
    @classmethod
    def _known_store(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(
            ("sqlite://", "postgresql://", "postgres://", "memory://")
        ):
            raise ValueError("use sqlite:///folder, postgresql://… or memory://")
        return value

    @property
    def effective_store_url(self) -> str:
        """The store URL actors open: ``store_url``, else SQLite in this deployment's own
        folder, ``data_dir/namespace/deployment``."""
        folder = self.data_dir / self.namespace / self.deployment
        return self.store_url or f"sqlite://{folder.resolve()}"

    @property
    def review_timeout_s(self) -> float:
        """How long a controller waits for one review: pre-analysis and the review
        call (each bounded by ``aux_call_timeout_s``) plus slack."""
        return 2 * self.aux_call_timeout_s + 10.0

    @property
    def review_call_timeout_s(self) -> float:
        """How long a driver waits for ``turn_stopping``: a whole review plus slack."""
        return self.review_timeout_s + self.call_timeout_s

    def parse_limits(self) -> ParseLimits:
        """The bounds a parse obeys under these settings."""
        return ParseLimits(
            text_chars=self.parse_text_chars,
            pages=self.parse_pages,
            image_pixels=self.parse_image_pixels,
            preview_long_side=self.preview_long_side,
            preview_pages=self.preview_pages,
            archive_members=self.archive_members,
            archive_total_bytes=self.archive_total_bytes,
            archive_ratio=self.archive_ratio,
            archive_depth=self.archive_depth,
            ocr=self.ocr,
            soft_deadline_s=self.parse_timeout_s * 0.75,
        )

    @classmethod
    def load(cls, **overrides: Any) -> Config:
        return load_config(**overrides)


def _default_data_dir() -> Path:
    """``$XDG_DATA_HOME/donecheck``, else ``~/.local/share/donecheck``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "donecheck"


def _default_deployment() -> str:
    """The running script's name, made file-safe (``python`` for an interactive session
    or ``python -c``): each program that embeds DoneCheck keeps its own sessions."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None) or (sys.argv[0] if sys.argv else "")
    stem = Path(path).stem if path and path not in {"-c", "-"} else ""
    if stem == "__main__":  # python -m package: the package's name
        spec = getattr(main, "__spec__", None)
        stem = (getattr(spec, "parent", "") or "").rsplit(".", 1)[-1] or stem
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.")[:100]
    return cleaned or "python"


def load_config(**overrides: Any) -> Config:
    """Build a :class:`Config` from ``overrides`` and ``DONECHECK_*`` variables.

    Raises :class:`ConfigError` naming the first invalid setting: the keyword
    argument when it came from code, the environment variable otherwise.
    """
    try:
        return Config(**overrides)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "config"
        if field in overrides or field not in Config.model_fields:
            setting, value = field, overrides.get(field, first.get("input"))
        else:
            setting = ENV_PREFIX + field.upper()
            value = os.environ.get(setting, first.get("input"))
        problem = str(first["msg"])
        if first["type"] == "extra_forbidden":
            problem = "unknown setting"
        elif field == "store_url" and isinstance(value, str):
            problem += f" (got {redact_url(value)!r})"
        elif field != "judge_api_key":  # never echo a secret
            problem += f" (got {value!r})"
        raise ConfigError(setting, problem) from None
