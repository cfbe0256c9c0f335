"""The eight-language benchmark's parts: corpora installed at bench time, the Universal Ctags oracle,
and the `sf` calls it scores (see bench/bench_languages.py)."""
