"""Prints the value of the environment variable named by the first argument."""
import os
import sys

print(f"{sys.argv[1]}={os.environ.get(sys.argv[1], '<unset>')}", flush=True)
