"""Ignores SIGTERM, says so, and sleeps forever: only SIGKILL ends it."""
import signal
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("ready", flush=True)
time.sleep(1000)
