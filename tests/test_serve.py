"""`sentinel serve`: each environment filled with its whole catalog, until Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request

import pytest

pytestmark = pytest.mark.slow

def test_serve_shows_the_whole_catalog_and_stops_cleanly():
    proc = subprocess.Popen([sys.executable, "-m", "sentinel.cli", "serve", "microhood", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/microhood/", line)
        assert match, line + proc.stderr.read()
        base = match.group(1)
        html = urllib.request.urlopen(f"{base}/microhood/search?q=", timeout=10).read().decode()
        assert "Showing 1–50 of 50" in html or html.count("/microhood/stock/") >= 50
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err


def test_serve_reports_a_port_in_use():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "sentinel.cli", "serve", "microhood", "--port", str(port)],
                              capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert f"port {port}" in done.stderr
    assert "Traceback" not in done.stderr
