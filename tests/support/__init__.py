"""Support code shared by the tests, the benchmarks under tests/bench and docs/screenshots/take.py.

pytest finds it through `pythonpath` in pyproject.toml; a script puts the tests folder on
sys.path first. Fixtures stay in tests/conftest.py: these are plain values and functions.
"""
