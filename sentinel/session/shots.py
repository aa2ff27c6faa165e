"""Screenshots into the session's folder: at the end of a session, the PNGs a browser left in the
agent's `shots/` (sentinel/agents/shots.py) move to `<session>/shots/`, and `shots.jsonl` lists
them with their sim times (from the wall times they were taken at and the session's request log).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from sentinel.core.evidence import REQUESTS_LOG, SHOTS_FOLDER, SHOTS_INDEX, read_jsonl, sim_at_wall

AGENT_SHOTS = Path("agent") / SHOTS_FOLDER  # where the agent's working folder is kept, under the session's
AGENT_INDEX = "index.jsonl"


def collect_shots(out_dir: Path, speed: float, end_sim: float, requests: list[dict] | None = None) -> int:
    """Move the agent's screenshots into out_dir/shots/ and write shots.jsonl; how many there were
    (blocking: call from a thread)."""
    source = out_dir / AGENT_SHOTS
    taken = read_jsonl(source / AGENT_INDEX)
    if not taken:
        return 0
    if requests is None:
        requests = read_jsonl(out_dir / REQUESTS_LOG)
    target = out_dir / SHOTS_FOLDER
    target.mkdir(parents=True, exist_ok=True)
    lines = []
    for record in taken:
        line = {**record, "sim": sim_at_wall(requests, float(record.get("wall", 0.0)), speed, end_sim)}
        name = record.get("file")
        if name and (source / name).is_file():
            shutil.move(str(source / name), target / name)
        elif name:
            line["missing"] = True  # dropped with the agent's files (agent_files_cap_bytes)
        lines.append(json.dumps(line))
    (out_dir / SHOTS_INDEX).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    shutil.rmtree(source, ignore_errors=True)
    return len(taken)
