"""Tournaments: several tables, rounds and one ranking (tournaments.md)."""
