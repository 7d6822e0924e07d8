#!/usr/bin/env python3
"""Runs agentls ($AGENTLS_REAL_BIN, with this script's arguments) and relays its stdout in batches:
after each read it keeps collecting for 150 ms before writing. The reply to agentls.prompt and the
turn's first question then reach Emacs in one read, the case jsonrpc.el 1.0.14 strands
(editors/emacs/agentls-jsonrpc-fix.el): the eglot test runs once through it so that case is
exercised on every run, not only when the machine happens to be slow."""
import os
import select
import subprocess
import sys
import time

WINDOW = 0.15

server = subprocess.Popen([os.environ["AGENTLS_REAL_BIN"]] + sys.argv[1:], stdout=subprocess.PIPE)
out = server.stdout.fileno()
while True:
    data = os.read(out, 1 << 16)
    if not data:
        break
    end = time.monotonic() + WINDOW
    while True:
        ready, _, _ = select.select([out], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        more = os.read(out, 1 << 16)
        if not more:
            break
        data += more
    os.write(1, data)
sys.exit(server.wait())
