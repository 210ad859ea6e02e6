"""A fake Espruino console on a pseudo-terminal, for tests of `cng flash` (EspruinoTools opens the
serial device by path, so it needs a real tty).

Prints the slave path on the first stdout line, then answers like Espruino's REPL: echo (unless a
line starts with DLE 0x10), `>` prompts, and the few commands EspruinoTools sends for an upload
(reset(), print(), process.env, require("Storage").write(...) with a string or atob(...),
downloadFile's Storage.read loop, load()). Anything else is answered with `Uncaught Error` and
recorded. When stdin closes it prints the state as JSON on one line and exits.

Usage: python3 fake_espruino_pty.py [--silent]   (--silent: read everything, never answer)
"""

import base64
import json
import os
import pty
import re
import select
import sys
import tty

silent = "--silent" in sys.argv
# files already on the board: --file NAME=TEXT (repeatable)
master, slave = pty.openpty()
tty.setraw(slave)
tty.setraw(master)
print(os.ttyname(slave), flush=True)

storage = {}
for i, a in enumerate(sys.argv):
    if a == "--file" and i + 1 < len(sys.argv):
        k, _, v = sys.argv[i + 1].partition("=")
        storage[k] = v
state = {"lines": [], "unknown": [], "erased": [], "loads": 0, "resets": 0, "ctrlc": 0, "repl": 0}
ENV = {"VERSION": "2v25", "BOARD": "ESP32", "MODULES": "Flash,Storage,heatshrink,net,dgram,http,NetworkJS,Wifi,ESP32,TelnetServer,crypto,neopixel"}

STR = r'"(?:[^"\\]|\\.)*"'


def js_string(lit):
    """Decode a JS double-quoted string literal (as EspruinoTools writes them) to latin1 text."""
    s, out, i = lit[1:-1], [], 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "v": "\v", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n == "x":
            out.append(chr(int(s[i + 2 : i + 4], 16)))
            i += 4
        elif n == "u":
            out.append(chr(int(s[i + 2 : i + 6], 16)))
            i += 6
        elif n in "01234567":
            j = i + 1
            while j < len(s) and j < i + 4 and s[j] in "01234567":
                j += 1
            out.append(chr(int(s[i + 1 : j], 8)))
            i = j
        else:
            out.append(n)
            i += 2
    return "".join(out)


def value(arg):
    m = re.fullmatch(r"atob\((" + STR + r")\)", arg)
    if m:
        return base64.b64decode(js_string(m.group(1))).decode("latin1")
    return js_string(arg)


def storage_write(name, data, off, size):
    if size is not None:
        storage[name] = "\xff" * size
    if off is None:
        storage[name] = data
        return
    cur = storage.get(name, "")
    storage[name] = cur[:off] + data + cur[off + len(data) :]


STATEMENTS = [
    (r"reset\(\)", lambda m: ("resets", "")),
    (r"print\(\)", lambda m: (None, "\r\n")),
    (r"echo\([01]\)", lambda m: (None, "")),
    (r"load\((?:" + STR + r")?\)", lambda m: ("loads", "")),
    (r'print\("<","<<"\)', lambda m: (None, "< <<\r\n")),
    (r'print\(">>",">"\)', lambda m: (None, ">> >\r\n")),
]


def expr_value(e):
    if e == "process.env":
        return ENV
    if e == "process.env.VERSION":
        return ENV["VERSION"]
    m = re.fullmatch(r'require\("Storage"\)\.read\((' + STR + r")\)", e)
    if m:
        return storage.get(js_string(m.group(1)))
    raise ValueError(e)


def run(code):
    """Run one complete console command; return what the console prints."""
    out, pos = [], 0
    code = code.strip()
    while pos < len(code):
        while pos < len(code) and code[pos] in " ;\n\r":
            pos += 1
        if pos >= len(code):
            break
        rest = code[pos:]
        m = re.match(r'require\("Storage"\)\.write\((' + STR + r"),(" + STR + r"|atob\(" + STR + r"\)),(\d+)(?:,(\d+))?\)", rest)
        if m:
            storage_write(js_string(m.group(1)), value(m.group(2)), int(m.group(3)), int(m.group(4)) if m.group(4) else None)
            pos += m.end()
            continue
        m = re.match(r'require\("Storage"\)\.erase\((' + STR + r")\)", rest)
        if m:
            storage.pop(js_string(m.group(1)), None)
            state["erased"].append(js_string(m.group(1)))
            pos += m.end()
            continue
        m = re.match(r'print\("<","<<",JSON\.stringify\((.*?)\),">>",">"\)', rest, re.S)
        if m:
            out.append("< << " + json.dumps(expr_value(m.group(1)), separators=(",", ":")) + " >> >\r\n")
            pos += m.end()
            continue
        # EspruinoTools' downloadFile: print each 384-byte chunk of a Storage file as base64
        m = re.match(r"\(function\(filename\) \{.*?\}\}\)\((" + STR + r")\)", rest, re.S)
        if m:
            data = storage.get(js_string(m.group(1)), "")
            for i in range(0, len(data), 384):
                out.append(base64.b64encode(data[i : i + 384].encode("latin1")).decode() + "\r\n")
            pos += m.end()
            continue
        if rest.startswith("repl "):  # the serial-link handshake: not JS, as on a real console
            state["repl"] += 1
            out.append("Uncaught SyntaxError: Got '{' expected EOF\r\n")
            break
        for pat, act in STATEMENTS:
            m = re.match(pat, rest)
            if m:
                key, text = act(m)
                if key:
                    state[key] += 1
                out.append(text)
                pos += m.end()
                break
        else:
            state["unknown"].append(rest[:200])
            out.append("Uncaught Error: fake Espruino cannot run " + json.dumps(rest[:40]) + "\r\n")
            break
    return "".join(out)


def balanced(code):
    depth, i, q = 0, 0, None
    while i < len(code):
        c = code[i]
        if q:
            if c == "\\":
                i += 1
            elif c == q:
                q = None
        elif c in "\"'`":
            q = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        i += 1
    return depth <= 0 and q is None


line, echo_line, pending = "", True, ""


def feed(data):
    global line, echo_line, pending
    reply = []
    for c in data:
        if c == "\x03":
            state["ctrlc"] += 1
            line, pending, echo_line = "", "", True
            reply.append("\r\n>")
            continue
        if c == "\x10" and line == "":
            echo_line = False
            continue
        if c in "\r\n":
            if c == "\r":
                continue
            code = pending + line
            if echo_line:
                reply.append("\r\n")
            if not balanced(code):
                pending, line = code + "\n", ""
                continue
            state["lines"].append(code)
            pending, line = "", ""
            result = run(code) if code.strip() else ""
            if echo_line and code.strip() == "":
                result = "=undefined\r\n"
            reply.append(result)
            echo_line = True
            continue
        line += c
        if echo_line:
            reply.append(c)
    if reply and not line and not pending:
        reply.append(">")
    return "".join(reply)


def dump():
    print(json.dumps({"storage": storage, **state}), flush=True)


while True:
    r, _, _ = select.select([master, sys.stdin], [], [], 60)
    if not r:
        continue
    if sys.stdin in r:
        if not sys.stdin.readline():
            dump()
            break
    if master in r:
        try:
            data = os.read(master, 65536).decode("latin1")
        except OSError:
            continue
        if silent:
            continue
        out = feed(data)
        if out:
            os.write(master, out.encode("latin1"))
