"""Benchmarks: `python -m benchmarks [name-prefix ...]` prints `name value unit` lines."""
