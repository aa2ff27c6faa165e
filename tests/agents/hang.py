"""Says it is ready, then sleeps forever (SIGTERM ends it)."""
import time

print("ready", flush=True)
time.sleep(1000)
