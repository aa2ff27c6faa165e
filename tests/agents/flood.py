"""Writes the number of megabytes given as the first argument as fast as it can, in lines
of 1000 bytes, then a marker line, then sleeps forever."""
import sys
import time

line = b"x" * 999 + b"\n"
block = line * 1024  # about 1 MB
for _ in range(int(sys.argv[1])):
    sys.stdout.buffer.write(block)
sys.stdout.buffer.write(b"FLOOD-END-MARKER\n")
sys.stdout.buffer.flush()
time.sleep(1000)
