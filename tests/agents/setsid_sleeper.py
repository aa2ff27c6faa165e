"""Starts a grandchild that leaves the agent's process group and session (setsid) and sleeps
for ever, with the token given as first argument on its command line; then exits 0."""
import os
import sys
import time

token = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(1000)", token])
time.sleep(0.3)  # let the grandchild get going
print("started a setsid grandchild")
