"""A screen reader's load on an application, for `strata-bench feed --accessibility`.

    /usr/bin/python3 atspi_listener.py NAME READY_FILE

Finds the application called NAME with pyatspi (the library Orca reads
through), listens for every object and window event as Orca does, writes
READY_FILE, and then, four times a second until it is stopped (SIGTERM),
reads what Orca reads as a list scrolls: the list's shown rows, each one's
name, role, states and attributes. On SIGTERM it prints one line:
`events N reads N rows N`.
"""

import signal
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
import pyatspi  # noqa: E402
from gi.repository import GLib  # noqa: E402

counts = {"events": 0, "reads": 0, "rows": 0}


def find_app(name):
    deadline = time.time() + 60
    while time.time() < deadline:
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None and app.name == name:
                return app
        time.sleep(0.05)
    return None


def first(node, role):
    if node.getRoleName() == role:
        return node
    for child in node:
        found = first(child, role) if child is not None else None
        if found is not None:
            return found
    return None


def main():
    app = find_app(sys.argv[1])
    if app is None:
        print("no application called " + sys.argv[1], file=sys.stderr)
        sys.exit(2)

    def on_event(event):
        counts["events"] += 1

    pyatspi.Registry.registerEventListener(on_event, "object", "window", "focus")
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    context = GLib.MainContext.default()
    for _ in range(20):
        context.iteration(False)
    with open(sys.argv[2], "w") as f:
        f.write("ready")
    next_read = time.time()
    while not stopping:
        context.iteration(False)
        if time.time() >= next_read:
            next_read += 0.25
            lst = first(app, "list")
            if lst is not None:
                for row in lst:
                    if row is None:
                        continue
                    _ = (row.name, row.getRoleName(), row.getState().getStates(), row.getAttributes())
                    counts["rows"] += 1
                counts["reads"] += 1
        time.sleep(0.01)
    print("events %d reads %d rows %d" % (counts["events"], counts["reads"], counts["rows"]))


main()
