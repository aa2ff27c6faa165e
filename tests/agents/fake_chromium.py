"""Stands in for Chromium where none is installed: announces a DevTools port in its profile
(--user-data-dir) as Chromium does, then waits to be ended. Nothing listens on the port."""
import socket
import sys
import time
from pathlib import Path

profile = next(Path(arg.split("=", 1)[1]) for arg in sys.argv[1:] if arg.startswith("--user-data-dir="))
with socket.socket() as probe:  # a port free at this moment
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
(profile / "DevToolsActivePort").write_text(f"{port}\n/devtools/browser/stand-in\n")
while True:
    time.sleep(60)
