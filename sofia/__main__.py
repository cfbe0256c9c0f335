"""`python -m sofia` runs the `sf` command line."""

from sofia.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
