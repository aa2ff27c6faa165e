"""Screenshots into the session's folder: at the end of a session, the pictures a browser left
in the agent's `shots/` (sentinel/agents/shots.py) and those the session took of the browser it
lent the agent (`camera/`, sentinel/run/camera.py) move to `<session>/shots/`, and `shots.jsonl`
lists them, oldest first, with their sim times (from the wall times they were taken at and the
session's request log).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from sentinel.core.evidence import REQUESTS_LOG, SHOTS_FOLDER, SHOTS_INDEX, read_jsonl, sim_at_wall

AGENT_SHOTS = Path("agent") / SHOTS_FOLDER  # where the agent's working folder is kept, under the session's
CAMERA_SHOTS = Path("camera")  # the session's own pictures of the browser it lent (--agent-browser)
AGENT_INDEX = "index.jsonl"


def collect_shots(out_dir: Path, speed: float, end_sim: float, requests: list[dict] | None = None) -> int:
    """Move the browsers' screenshots into out_dir/shots/ and write shots.jsonl; how many there
    were (blocking: call from a thread)."""
    sources = [out_dir / AGENT_SHOTS, out_dir / CAMERA_SHOTS]
    taken = sorted(((record, source) for source in sources for record in read_jsonl(source / AGENT_INDEX)),
                   key=lambda pair: float(pair[0].get("wall", 0.0)))
    if not taken:
        return 0
    if requests is None:
        requests = read_jsonl(out_dir / REQUESTS_LOG)
    target = out_dir / SHOTS_FOLDER
    target.mkdir(parents=True, exist_ok=True)
    lines = []
    for record, source in taken:
        line = {**record, "sim": sim_at_wall(requests, float(record.get("wall", 0.0)), speed, end_sim)}
        name = record.get("file")
        if name and (source / name).is_file():
            shutil.move(str(source / name), target / name)
        elif name:
            line["missing"] = True  # dropped with the agent's files (agent_files_cap_bytes)
        lines.append(json.dumps(line))
    (out_dir / SHOTS_INDEX).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    for source in sources:
        shutil.rmtree(source, ignore_errors=True)
    return len(taken)
