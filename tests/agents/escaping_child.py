"""Starts a child in a session of its own (out of reach of the group's signals) that keeps the
output pipe open, writes its pid to the file named by the first argument, and exits 0."""
import os
import subprocess
import sys

child = subprocess.Popen(["sleep", "1000"], start_new_session=True)
with open(sys.argv[1] + ".tmp", "w") as handle:
    handle.write(f"{child.pid}\n")
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
