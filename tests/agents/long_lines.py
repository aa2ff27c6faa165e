"""Prints a 5000-character line, invalid UTF-8, a CRLF line, and a last line without newline."""
import sys

out = sys.stdout.buffer
out.write(b"y" * 5000 + b"\n")
out.write(b"bad \xff byte\n")
out.write(b"windows\r\n")
out.write(b"no newline at the end")
