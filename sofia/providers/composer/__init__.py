"""Composer packages: discovery shared by every PHP-package tool, and the `composer_*` providers.

Other providers find packages through `discovery` (see its docstring): `discover(root, ctx)`,
`select(found, selector)`, `resolve_package(selector, root, ctx)` and `Discovery.repositories()`.
"""

from sofia.providers.composer.discovery import (
    Discovery,
    Package,
    discover,
    resolve_package,
    resolve_root,
    select,
)

__all__ = ["Discovery", "Package", "discover", "resolve_package", "resolve_root", "select"]
