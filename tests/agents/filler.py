"""Fills its working folder: five files of 1 MB each, then exits 0."""
for n in range(5):
    with open(f"fill-{n}.bin", "wb") as handle:
        handle.write(b"\0" * 1_000_000)
print("filled")
