"""Writes what it was started with to the file its first argument names, then exits: its
SENTINEL_* and OPENAI_BASE_URL variables and the rest of its arguments (placeholders filled in)."""
import json
import os
import sys

told = {name: value for name, value in os.environ.items() if name.startswith("SENTINEL_") or name == "OPENAI_BASE_URL"}
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"environ": told, "argv": sys.argv[2:]}, out)
