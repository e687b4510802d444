"""The pure rules engine: cards, melds, variants, scoring and match progress.

Standard library only. Nothing here may import Flask, SQLAlchemy or anything above it, so
the engine can be reasoned about, tested and reused on its own (a test enforces this).
"""
