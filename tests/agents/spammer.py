"""Posts to every form it can find as fast as it can, for a few seconds, marking every text it
types with its own session's port ("MARK-<port>-"). Every page it reads is searched for another
session's mark: it prints LEAK <mark> for each found. Arguments: the task URL, the seconds."""
import re
import sys
import time
import urllib.parse
import urllib.request
from html.parser import HTMLParser

task_url, seconds = sys.argv[1], float(sys.argv[2])
base = task_url.rsplit("/", 1)[0]
mark = f"MARK-{urllib.parse.urlsplit(task_url).port}-"


class Forms(HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms, self.links = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "get").lower() == "post":
            self.forms.append([a.get("action") or "", {}])
        elif tag in ("input", "textarea", "select") and self.forms and a.get("name"):
            kind, name = (a.get("type") or "text").lower(), a["name"]
            if kind in ("hidden", "submit"):
                value = a.get("value") or ""
            elif kind == "email" or name in ("to", "cc", "bcc"):
                value = f"{mark.lower()}{name}@example.com"  # an address a form accepts, still marked
            else:
                value = mark + name
            self.forms[-1][1][name] = value
        elif tag == "a" and a.get("href", "").startswith("/"):
            self.links.append(a["href"])


def fetch(path, data=None):
    request = urllib.request.Request(base + path, data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.read().decode("utf-8", "replace")


page = fetch("/start")
pages, posted, reads, leaks = ["/start"], 0, 0, set()
give_up_at = time.monotonic() + seconds
while time.monotonic() < give_up_at:
    parser = Forms()
    parser.feed(page)
    leaks |= {m for m in re.findall(r"MARK-\d+-", page) if m != mark}
    for action, fields in parser.forms[:5]:
        if action.startswith("/") and not action.startswith("/contact"):
            fetch(action, urllib.parse.urlencode(fields).encode())
            posted += 1
    pages += [link for link in parser.links if link not in pages and not link.startswith("/contact")][:20]
    reads += 1
    page = fetch(pages[reads % len(pages)])
for leak in sorted(leaks):
    print("LEAK", leak)
print(f"SPAMMED {posted} posts as {mark}")
