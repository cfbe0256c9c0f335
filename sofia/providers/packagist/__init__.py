"""Packagist: `packagist_status` (release health per package) and the CLI-only `packagist release`."""
