"""Composer packages: the `composer_*` providers, and the one public face of the package machinery
they share with the Packagist and GitHub providers (and with `code`'s PSR-4 resolution).

Other providers import only from here, never from the modules below: finding packages
(`discover`, `select`, `resolve_package`, `Discovery.repositories()`), Composer's version rules
(`parse_version`, `compare_versions`, `highest_stable`), the package-name pattern (`valid_name`),
autoload blocks (`autoload_entries`), the parameters every PHP-package tool shares (`TreeRoot`,
`PackageFilter`, `PACKAGE_PATH`) and the note naming manifests that could not be used
(`unusable_manifests_note`).
"""

from sofia.providers.composer.discovery import (
    PROBES_AT_ONCE,
    BrokenManifest,
    Discovery,
    Package,
    discover,
    no_match,
    resolve_package,
    resolve_root,
    select,
    select_errors,
    tags,
    unusable_manifests_note,
)
from sofia.providers.composer.manifest import AutoloadEntry, autoload_entries, valid_name
from sofia.providers.composer.params import PACKAGE_PATH, PackageFilter, TreeRoot
from sofia.providers.composer.versions import Version, highest_stable
from sofia.providers.composer.versions import compare as compare_versions
from sofia.providers.composer.versions import parse as parse_version

__all__ = [
    "PACKAGE_PATH",
    "PROBES_AT_ONCE",
    "AutoloadEntry",
    "BrokenManifest",
    "Discovery",
    "Package",
    "PackageFilter",
    "TreeRoot",
    "Version",
    "autoload_entries",
    "compare_versions",
    "discover",
    "highest_stable",
    "no_match",
    "parse_version",
    "resolve_package",
    "resolve_root",
    "select",
    "select_errors",
    "tags",
    "unusable_manifests_note",
    "valid_name",
]
