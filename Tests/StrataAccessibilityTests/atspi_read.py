"""Reads an application's accessibility tree as a screen reader does.

    /usr/bin/python3 atspi_read.py NAME [ACTION ROLE]... [--focus ROLE] [--text READY_FILE]
                                   [--select ROLE START END]

Finds the application called NAME on the desktop with pyatspi (the library
Orca reads through), performs the actions asked for (ACTION, the action's
name, on the first element of ROLE, e.g. "increment slider" or "click
push button"), then prints the tree as JSON: each element's role, name,
description, states, extents, actions, value and text. Exits with 2 when
the application does not appear within ten seconds. With --focus, it
asks the first element of ROLE to take focus (Component.GrabFocus) and
reports the focus events it then receives, as Orca follows focus. With
--text, it listens for text, caret, description and focus events, writes
READY_FILE when it listens, and reports what it hears. With --select, it selects characters
START to END of the first element of ROLE through the Text interface
before reading. Text elements report their selections and the word and
line at offset 1, as Orca reads them.
"""

import json
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
import pyatspi  # noqa: E402


def find_app(name):
    deadline = time.time() + 10
    while time.time() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for app in desktop:
            if app is not None and app.name == name:
                return app
        time.sleep(0.1)
    return None


def describe(node):
    item = {
        "role": node.getRoleName(),
        "name": node.name,
        "description": node.description,
        "states": sorted(pyatspi.stateToString(s) for s in node.getState().getStates()),
    }
    try:
        e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        item["extents"] = [e.x, e.y, e.width, e.height]
    except NotImplementedError:
        pass
    try:
        action = node.queryAction()
        item["actions"] = [action.getName(i) for i in range(action.nActions)]
    except NotImplementedError:
        pass
    try:
        value = node.queryValue()
        item["value"] = [value.currentValue, value.minimumValue, value.maximumValue, value.minimumIncrement]
    except NotImplementedError:
        pass
    try:
        text = node.queryText()
        item["text"] = text.getText(0, -1)
        item["caret"] = text.caretOffset
        item["selections"] = [list(text.getSelection(i)) for i in range(text.getNSelections())]
        item["word_at_1"] = list(text.getTextAtOffset(1, pyatspi.TEXT_BOUNDARY_WORD_START))
        item["line_at_1"] = list(text.getTextAtOffset(1, pyatspi.TEXT_BOUNDARY_LINE_START))
    except NotImplementedError:
        pass
    attributes = dict(a.split(":", 1) for a in node.getAttributes() if ":" in a)
    attributes.pop("toolkit", None)
    if attributes:
        item["attributes"] = attributes
    item["children"] = [describe(c) for c in node if c is not None]
    return item


def first(node, role):
    if node.getRoleName() == role:
        return node
    for child in node:
        found = first(child, role) if child is not None else None
        if found is not None:
            return found
    return None


def follow_focus(app, role):
    from gi.repository import GLib

    seen = []

    def on_event(event):
        seen.append([event.source.name, event.source.getRoleName(), event.detail1])

    pyatspi.Registry.registerEventListener(on_event, "object:state-changed:focused")
    target = first(app, role)
    grabbed = bool(target.queryComponent().grabFocus()) if target is not None else False
    context = GLib.MainContext.default()
    deadline = time.time() + 5
    while time.time() < deadline and not any(e[2] == 1 for e in seen):
        context.iteration(False)
        time.sleep(0.01)
    return {"grabbed": grabbed, "events": seen}


def follow_text(ready_file):
    """Listens for text, caret, description (a live value's) and focus
    events, says it is ready (the file), and reports what it hears within
    five seconds (until a deletion, a description change or a focus)."""
    from gi.repository import GLib

    seen = []

    def on_event(event):
        data = event.any_data if isinstance(event.any_data, str) else ""
        seen.append([event.type, event.source.getRoleName(), event.detail1, event.detail2, data])

    pyatspi.Registry.registerEventListener(
        on_event,
        "object:text-changed",
        "object:text-caret-moved",
        "object:property-change:accessible-description",
        "object:state-changed:focused",
    )
    context = GLib.MainContext.default()
    for _ in range(20):
        context.iteration(False)
    with open(ready_file, "w") as f:
        f.write("ready")
    deadline = time.time() + 5
    ends = ("object:text-changed:delete", "object:property-change:accessible-description")

    def ended():
        return any(e[0].startswith(ends) or (e[0].startswith("object:state-changed:focused") and e[2] == 1) for e in seen)

    while time.time() < deadline and not ended():
        context.iteration(False)
        time.sleep(0.01)
    end = time.time() + 0.3
    while time.time() < end:
        context.iteration(False)
        time.sleep(0.01)
    return seen


def main():
    text_ready = None
    if "--text" in sys.argv:
        i = sys.argv.index("--text")
        text_ready = sys.argv[i + 1]
        del sys.argv[i : i + 2]
    select = None
    if "--select" in sys.argv:
        i = sys.argv.index("--select")
        select = (sys.argv[i + 1], int(sys.argv[i + 2]), int(sys.argv[i + 3]))
        del sys.argv[i : i + 4]
    if "--focus" in sys.argv:
        i = sys.argv.index("--focus")
        focus_role = sys.argv[i + 1]
        del sys.argv[i : i + 2]
    else:
        focus_role = None
    app = find_app(sys.argv[1])
    if app is None:
        print(json.dumps({"error": "no application called " + sys.argv[1]}))
        sys.exit(2)
    done = []
    args = sys.argv[2:]
    while len(args) >= 2:
        action_name, role = args[0], args[1]
        args = args[2:]
        target = first(app, role)
        ok = False
        if target is not None:
            action = target.queryAction()
            for i in range(action.nActions):
                if action.getName(i) == action_name:
                    ok = action.doAction(i)
        done.append([action_name, role, bool(ok)])
    if select is not None:
        target = first(app, select[0])
        done.append(["select", select[0], bool(target is not None and target.queryText().addSelection(select[1], select[2]))])
    focus = follow_focus(app, focus_role) if focus_role else None
    text = follow_text(text_ready) if text_ready else None
    print(json.dumps({"name": app.name, "toolkit": app.toolkitName, "done": done, "focus": focus, "text": text, "tree": describe(app)}))


main()
