"""How Sentinel starts Debian's Chromium headless with a DevTools port: the program, its
arguments, and the address Chromium announces. Used by the browser agents
(sentinel/agents/chromium.py) and by the browser a session lends its agent
(sentinel/session/browser.py); each starts the process its own way."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_CHROMIUM = "/usr/bin/chromium"  # Debian's chromium
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--no-first-run", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--mute-audio", "--hide-scrollbars",
                 "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0")
VIEWPORT = (1280, 800)
PROFILE_PREFIX = "sentinel-chromium-"
START_TIMEOUT_S = 30.0


def chromium_program() -> str:
    """The Chromium to start: the program SENTINEL_CHROMIUM names, else Debian's."""
    return os.environ.get("SENTINEL_CHROMIUM") or DEFAULT_CHROMIUM


def chromium_argv(profile: Path, executable: str | None = None) -> list[str]:
    """The command line of a headless Chromium with its profile in `profile`, on a free
    DevTools port of the loopback interface, showing about:blank."""
    executable = executable or chromium_program()
    if not Path(executable).exists():
        raise RuntimeError(f"no Chromium at {executable} (install Debian's chromium, or set SENTINEL_CHROMIUM)")
    return [executable, *CHROMIUM_ARGS, f"--user-data-dir={profile}",
            f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "about:blank"]


def devtools_address(profile: Path) -> tuple[int, str] | None:
    """(port, browser websocket path) once Chromium has written them into its profile, else None."""
    port_file = profile / "DevToolsActivePort"
    try:
        lines = port_file.read_text().split()
    except OSError:
        return None
    if len(lines) < 2 or not lines[0].isdigit():
        return None
    return int(lines[0]), lines[1]
