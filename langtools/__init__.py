"""The translators' tools for the catalogs in lang/ (`python -m langtools`): see tools.py."""
