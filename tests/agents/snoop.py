"""A hostile agent: looks for the answers. Tries relative paths up to the root, the absolute
paths given as arguments, and walks the file system (3 s at most) for scenario YAML files.
Prints FOUND <path> for anything it could read, then SNOOPED and exits 0."""
import os
import sys
import time

found = []
for depth in range(1, 8):
    for name in ("scenarios", "catalogs", "results"):
        candidate = os.path.join(*([".."] * depth), name)
        if os.path.isdir(candidate):
            found.append(os.path.abspath(candidate))
for path in sys.argv[1:]:
    if os.path.exists(path):
        found.append(path)
give_up_at = time.monotonic() + 3
for root, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(root, d) not in ("/proc", "/sys", "/dev")]
    found += [os.path.join(root, f) for f in files if f.endswith(".yaml") and "scenarios" in root]
    if time.monotonic() > give_up_at:
        break
for path in found:
    print("FOUND", path)
print("SNOOPED")
