"""Scripted example apps that record the bundled example traces (`traces/`).

Only `tools/make_example_traces.py` uses these; the compiler never imports them.
"""
