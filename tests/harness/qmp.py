#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""qmp.py SOCKET COMMAND [JSON_ARGUMENTS] ...

Send QMP commands to a QEMU listening on the unix SOCKET, in order, after the
capabilities handshake.  Each command may be followed by its arguments as a
JSON object.  Exits 1 if any command returns an error."""
import json
import socket
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(sys.argv[1])
    stream = sock.makefile("rw")

    def reply():
        while True:  # skip asynchronous events
            msg = json.loads(stream.readline())
            if "event" not in msg:
                return msg

    reply()  # greeting
    cmds, args = [], sys.argv[2:]
    while args:
        name, args = args[0], args[1:]
        arguments = None
        if args and args[0].startswith("{"):
            arguments, args = json.loads(args[0]), args[1:]
        cmds.append((name, arguments))
    for name, arguments in [("qmp_capabilities", None)] + cmds:
        req = {"execute": name}
        if arguments is not None:
            req["arguments"] = arguments
        stream.write(json.dumps(req) + "\n")
        stream.flush()
        try:
            msg = reply()
        except (ConnectionResetError, ValueError):
            if name == "quit":
                break
            raise
        if "error" in msg:
            print(f"qmp: {name}: {msg['error'].get('desc', msg['error'])}", file=sys.stderr)
            sys.exit(1)
    # After "quit", wait for QEMU to close the socket: leaving earlier can
    # make QEMU drop the command.
    try:
        while stream.readline():
            pass
    except ConnectionResetError:
        pass


if __name__ == "__main__":
    main()
