"""Recorded output of the PHP tools a check script runs (phpunit, pest, phpstan, php-cs-fixer,
phpcs, php -l), and the first failure line each one must yield."""

from __future__ import annotations

from tests.composer.workspace import FIXTURES

RECORDINGS = FIXTURES / "workspace" / "monorepo" / "tools" / "recordings"
PACKAGE_DIR = "/home/dev/acme/packages/http-client"

EXPECTED = {
    "phpunit-failures": (
        "Acme\\Enum\\Tests\\StatusTest::testTryFromNameIsCaseInsensitive: "
        "Failed asserting that null is identical to Acme\\Enum\\Status Enum ("
    ),
    "phpunit-error": (
        'Acme\\ArrayReader\\Tests\\ConfigTest::testLoadsDefaults: RuntimeException: Cannot read config file "app.php"'
    ),
    "pest-failed": (
        "Tests\\Unit\\MoneyTest > it refuses to add different currencies: "
        'Failed asserting that exception of type "Acme\\Money\\CurrencyMismatch" is thrown.'
    ),
    "phpstan-errors": (
        "src/CurlClient.php:21 Parameter #1 $handle of function curl_setopt_array expects CurlHandle, "
        "CurlHandle|false given."
    ),
    "phpstan-summary-only": "[ERROR] Found 1 error",
    "php-cs-fixer": "src/CurlClient.php (no_unused_imports, ordered_imports)",
    "phpcs": "src/Retry.php:3 Header blocks must be separated by a single blank line",
    "php-lint": "Errors parsing src/Value.php",
    "plain-last-line": "ext-sodium is missing from your system",
}
