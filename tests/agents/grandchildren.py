"""Leaves grandchildren behind in its process group, holding the output pipe open:
two `sleep 1000` and a Python child that ignores SIGTERM. Writes their pids (one a line)
to the file named by the first argument, then exits 0."""
import os
import subprocess
import sys
import time

pid_file = sys.argv[1]
ready_file = pid_file + ".ready"
stubborn = (
    "import signal, sys, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "open(sys.argv[1], 'w').close()\n"
    "time.sleep(1000)\n"
)
children = [subprocess.Popen(["sleep", "1000"]) for _ in range(2)]
children.append(subprocess.Popen([sys.executable, "-c", stubborn, ready_file]))
while not os.path.exists(ready_file):  # SIGTERM must find it already ignoring SIGTERM
    time.sleep(0.01)
with open(pid_file + ".tmp", "w") as handle:
    handle.write("".join(f"{child.pid}\n" for child in children))
os.replace(pid_file + ".tmp", pid_file)
print("leaving my children behind", flush=True)
