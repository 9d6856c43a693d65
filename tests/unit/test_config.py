from __future__ import annotations

import pytest

from donecheck.actors.config import Config, load_config
from donecheck.actors.errors import ConfigError


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for key in list(os.environ):
        if key.startswith("DONECHECK_"):
            monkeypatch.delenv(key)


def test_spec_defaults() -> None:
    c = load_config()
    assert c.max_rounds == 2
    assert c.round_window_s == 300
    assert c.aux_call_timeout_s == 150
    assert c.aux_max_output_tokens == 32_768
    assert c.session_aux_token_cap == 200_000
    assert c.trigger_min_chars == 60
    assert c.answer_excerpt_chars == 8_000
    assert c.tool_log_excerpt_chars == 8_000
    assert c.snapshot_max_targets == 24
    assert c.snapshot_hash_max_bytes == 8 * 1024 * 1024
    assert c.judge_temperature == 0.2


def test_environment_overrides_and_code_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DONECHECK_MAX_ROUNDS", "4")
    monkeypatch.setenv("DONECHECK_JUDGE_MODALITIES", '["text", "image"]')
    assert load_config().max_rounds == 4
    assert load_config().judge_modalities == ("text", "image")
    assert load_config(max_rounds=1).max_rounds == 1


@pytest.mark.parametrize(
    ("overrides", "setting", "fragment"),
    [
        ({"max_rounds": -1}, "max_rounds", "greater than or equal to 0"),
        ({"round_window_s": 0}, "round_window_s", "greater than 0"),
        ({"aux_call_timeout_s": -5}, "aux_call_timeout_s", "greater than 0"),
        ({"session_aux_token_cap": 0}, "session_aux_token_cap", "greater than 0"),
        ({"ledger_shards": 0}, "ledger_shards", "greater than or equal to 1"),
        ({"judge_temperature": 3}, "judge_temperature", "less than or equal to 2"),
        ({"judge_modalities": ("text", "video")}, "judge_modalities", "unknown modalities"),
        ({"namespace": "has space"}, "namespace", "pattern"),
        ({"worker_niceness": 20}, "worker_niceness", "less than or equal to 19"),
        ({"max_round": 3}, "max_round", "unknown setting"),
    ],
)
def test_invalid_values_name_the_setting(overrides: dict, setting: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(**overrides)
    assert info.value.setting == setting
    assert fragment in str(info.value)


def test_invalid_environment_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DONECHECK_SNAPSHOT_HASH_MAX_BYTES", "-1")
    with pytest.raises(ConfigError, match=r"^DONECHECK_SNAPSHOT_HASH_MAX_BYTES: .*'-1'"):
        load_config()


def test_secret_is_never_echoed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DONECHECK_JUDGE_API_KEY", "sk-very-secret")
    config = load_config()
    assert "sk-very-secret" not in repr(config) + str(config)
    assert config.judge_api_key is not None
    assert config.judge_api_key.get_secret_value() == "sk-very-secret"


def test_config_is_immutable() -> None:
    with pytest.raises(Exception, match="frozen"):
        Config().max_rounds = 3  # type: ignore[misc]
