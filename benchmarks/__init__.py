"""Benchmarks: scripts that print figures (never asserted in tests). Run from the repo root: python -m benchmarks.NAME"""
