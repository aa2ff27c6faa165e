"""An agent written for the original SentinelBench, as its browser agent behaves.

Arguments: the task URL, the prompt, and how many seconds to wait before reporting. It opens
the task, finds the contact URL in the prompt, reports with a message, and leaves its model
usage the way the original's browser agent does: usage.jsonl (one OpenAI usage object per
call) and all_messages.json in a run folder named by a UUID. It writes no costs.json.
The last usage line is cut short, as when an agent is killed while writing.
"""

import json
import re
import sys
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

url, prompt = sys.argv[1], sys.argv[2]
wait = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
urllib.request.urlopen(url, timeout=30).read()
time.sleep(wait)
contact = re.search(r"https?://[^\s\"']+/contact", prompt).group()
urllib.request.urlopen(contact, timeout=30).read()
form = urllib.parse.urlencode({"message": "condition met"}).encode()
urllib.request.urlopen(contact, data=form, timeout=30).read()

run = Path(str(uuid.uuid4()))
run.mkdir()
calls = [
    {"model": "gpt-test", "usage": {"prompt_tokens": 1200, "completion_tokens": 80, "total_tokens": 1280,
                                    "completion_tokens_details": {"reasoning_tokens": 30}}},
    {"model": "gpt-test", "usage": {"prompt_tokens": 1500, "completion_tokens": 120, "total_tokens": 1620,
                                    "completion_tokens_details": {"reasoning_tokens": 50}}},
    {"prompt_tokens": 300, "completion_tokens": 20},  # a bare usage object, no total
]
with open(run / "usage.jsonl", "w") as log:
    for call in calls:
        log.write(json.dumps(call) + "\n")
    log.write('{"usage": {"prompt_tok')


def tool_call(n):
    return {"id": f"call_{n}", "type": "function", "function": {"name": "visit_url", "arguments": "{}"}}


messages = [
    {"role": "system", "content": "You are a browser agent."},
    {"role": "user", "content": prompt},
    {"role": "assistant", "content": None, "tool_calls": [tool_call(1), tool_call(2)]},
    {"role": "tool", "tool_call_id": "call_1", "content": "page"},
    {"role": "tool", "tool_call_id": "call_2", "content": "page"},
    {"role": "assistant", "content": None, "tool_calls": [tool_call(3)]},
    {"role": "tool", "tool_call_id": "call_3", "content": "contact form"},
    {"role": "assistant", "content": "Reported."},
]
(run / "all_messages.json").write_text(json.dumps(messages))
print(f"logged {len(calls)} model calls in {run}", flush=True)
