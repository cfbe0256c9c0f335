"""The secret redactor shared by the cc and GitHub providers."""

from __future__ import annotations

import pytest

from sofia.output.redact import Redactor

CASES = [
    (
        "export ANTHROPIC_API_KEY=sk-ant-api03-abcDEF0123456789xyz",
        "export ANTHROPIC_API_KEY=[REDACTED:anthropic]",
        "anthropic",
    ),
    ("key sk-proj-Abc0123456789defGHIjkl0 ok", "key [REDACTED:openai] ok", "openai"),
    ("OPENAI=sk-Abcdefghij0123456789KLMNOP", "OPENAI=[REDACTED:openai]", "openai"),
    (
        "git push https://ghp_Abcdefghij0123456789KLMNOPqrstuvwxyz@github.com",
        "git push https://[REDACTED:github]@github.com",
        "github",
    ),
    ("token github_pat_11ABCDEFG0123456789_abcdefgh", "token [REDACTED:github]", "github"),
    ("gho_abcdefghij0123456789ABCD", "[REDACTED:github]", "github"),
    ("glpat-abcdefghij0123456789", "[REDACTED:gitlab]", "gitlab"),
    ("xoxp-1234-5678-abcdefghij", "[REDACTED:slack]", "slack"),
    ("id AKIAIOSFODNN7EXAMPLE done", "id [REDACTED:aws] done", "aws"),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_secret_access_key = [REDACTED:aws]",
        "aws",
    ),
    ("maps AIzaSyA1234567890abcdefghijklmnopqrstuv end", "maps [REDACTED:google] end", "google"),
    ("charge sk_live_0123456789abcdefXYZ", "charge [REDACTED:stripe]", "stripe"),
    ("rk_live_0123456789abcdef", "[REDACTED:stripe]", "stripe"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlX3ZhbHVl", "jwt [REDACTED:jwt]", "jwt"),
    (
        "curl -H 'Authorization: Bearer abc.def-123'",
        "curl -H 'Authorization: Bearer [REDACTED:auth-header]'",
        "auth-header",
    ),
    (
        "Proxy-Authorization: Basic dXNlcjpwYXNz",
        "Proxy-Authorization: Basic [REDACTED:auth-header]",
        "auth-header",
    ),
    ("authorization: opaque-value", "authorization: [REDACTED:auth-header]", "auth-header"),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\ntail",
        "[REDACTED:private-key]\ntail",
        "private-key",
    ),
    ("head\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn", "head\n[REDACTED:private-key]", "private-key"),
    (
        "psql postgres://app:s3cret@db:5432/x",
        "psql postgres://app:[REDACTED:url-credentials]@db:5432/x",
        "url-credentials",
    ),
    ("DB_PASSWORD=hunter2 ./run", "DB_PASSWORD=[REDACTED:assignment] ./run", "assignment"),
    ("MY_SECRET='a b c'", "MY_SECRET='[REDACTED:assignment]'", "assignment"),
    ('{"client_secret": "abc123"}', '{"client_secret": "[REDACTED:assignment]"}', "assignment"),
    ("api_key=abc123", "api_key=[REDACTED:assignment]", "assignment"),
    ("login --password hunter2", "login --password [REDACTED:password-flag]", "password-flag"),
    (
        "cli --token=abc --api-key 'x y'",
        "cli --token=[REDACTED:password-flag] --api-key '[REDACTED:password-flag]'",
        "password-flag",
    ),
    ("sshpass -p hunter2 ssh host", "sshpass -p [REDACTED:password-flag] ssh host", "password-flag"),
    ("mysql -u root -phunter2 app", "mysql -u root -p[REDACTED:password-flag] app", "password-flag"),
    ("mariadb -psecret", "mariadb -p[REDACTED:password-flag]", "password-flag"),
]


@pytest.mark.parametrize(("text", "expected", "kind"), CASES)
def test_each_kind_is_replaced_and_counted(text: str, expected: str, kind: str) -> None:
    redactor = Redactor()
    out, count = redactor.redact(text)
    assert out == expected
    assert count == expected.count("[REDACTED:")
    assert redactor.counts[kind] == count


@pytest.mark.parametrize(
    "text",
    [
        "git status && go test ./...",
        "TOKEN=$GITHUB_TOKEN gh pr list",
        "gh api --token ${GH_TOKEN} user",
        "SECRET=$(cat ~/.secret) ./deploy",
        "mysql -u root -p app",
        "the word task-force and sk-learn stay",
        "https://example.com/path?q=1",
        "",
    ],
)
def test_what_is_not_a_secret_stays(text: str) -> None:
    assert Redactor().redact(text) == (text, 0)


def test_a_token_inside_an_assignment_is_redacted_once_by_its_own_kind() -> None:
    redactor = Redactor()
    out, count = redactor.redact("GITHUB_TOKEN=ghp_Abcdefghij0123456789KLMNOPqrstuvwxyz gh pr list")
    assert out == "GITHUB_TOKEN=[REDACTED:github] gh pr list"
    assert count == 1
    assert dict(redactor.counts) == {"github": 1}


def test_counts_accumulate_by_kind_across_calls() -> None:
    redactor = Redactor()
    redactor("a ghp_Abcdefghij0123456789KLMNOPqrstuvwxyz b")
    redactor("PASSWORD=x and ghp_Zbcdefghij0123456789KLMNOPqrstuvwxyz")
    assert redactor.counts == {"github": 2, "assignment": 1}
    assert redactor.total == 3
