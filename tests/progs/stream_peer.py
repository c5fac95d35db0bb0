#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A peer of fntrace's remote stream, for tests/cases/record/remote*.sh.

  stream_peer.py proxy PORT_FILE TO_PORT NBYTES
      listen on a free port of 127.0.0.1 (written to PORT_FILE), take
      one connection and pass it on to 127.0.0.1:TO_PORT, then cut both
      after NBYTES of the target's bytes have gone through (the
      target's with a reset).
  stream_peer.py send PORT HEX
      connect to 127.0.0.1:PORT, send the bytes (given in hex), and
      print what comes back until the listener closes.
"""
import socket
import sys


def proxy(port_file, to_port, nbytes):
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    with open(port_file + ".new", "w") as f:
        f.write("%d\n" % lsock.getsockname()[1])
    import os
    os.rename(port_file + ".new", port_file)
    conn, _ = lsock.accept()
    out = socket.create_connection(("127.0.0.1", to_port))
    passed = 0
    while passed < nbytes:
        data = conn.recv(min(65536, nbytes - passed))
        if not data:
            break
        out.sendall(data)
        passed += len(data)
    # The target gets a reset, as a host gone would give it; the
    # listener an end after every byte passed, so that what it keeps
    # is known (a reset would throw away what it had not read yet).
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
    conn.close()
    out.close()


def send(port, hexbytes):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(bytes.fromhex(hexbytes))
    s.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        data = s.recv(4096)
        if not data:
            break
        got += data
    sys.stdout.write(got.decode("ascii", "replace"))


if __name__ == "__main__":
    if sys.argv[1] == "proxy":
        proxy(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        send(int(sys.argv[2]), sys.argv[3])
