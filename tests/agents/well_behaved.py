"""Prints two lines (one on stderr) and exits 0."""
import sys

print("hello from the agent", flush=True)
print("a warning on stderr", file=sys.stderr, flush=True)
