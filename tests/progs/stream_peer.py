#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A peer of fntrace's remote stream, for tests/cases/record/remote*.sh.

  stream_peer.py proxy PORT_FILE TO_PORT NBYTES
      listen on a free port of 127.0.0.1 (written to PORT_FILE), take
      one connection and pass it on to 127.0.0.1:TO_PORT, then cut both
      after NBYTES of the target's bytes have gone through (the
      target's with a reset).
  stream_peer.py slow PORT_FILE TO_PORT SECONDS
      the same, passing everything on, but for the first SECONDS only
      64 KB every 50 ms (1.3 MB/s): a listener slower than the trace.
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


def slow(port_file, to_port, seconds):
    import os
    import threading
    import time
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    with open(port_file + ".new", "w") as f:
        f.write("%d\n" % lsock.getsockname()[1])
    os.rename(port_file + ".new", port_file)
    conn, _ = lsock.accept()
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    out = socket.create_connection(("127.0.0.1", to_port))

    def answer():
        while True:
            data = out.recv(4096)
            if not data:
                break
            conn.sendall(data)
        conn.close()
    back = threading.Thread(target=answer)
    back.start()
    until = time.monotonic() + seconds
    while True:
        data = conn.recv(65536)
        if not data:
            break
        out.sendall(data)
        if time.monotonic() < until:
            time.sleep(0.05)
    out.shutdown(socket.SHUT_WR)
    back.join()


def send(port, hexbytes):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(bytes.fromhex(hexbytes))
    try:
        s.shutdown(socket.SHUT_WR)
    except OSError:
        pass    # the listener hung up first: what it answered is still read
    got = b""
    while True:
        try:
            data = s.recv(4096)
        except OSError:
            break
        if not data:
            break
        got += data
    sys.stdout.write(got.decode("ascii", "replace"))


if __name__ == "__main__":
    if sys.argv[1] == "proxy":
        proxy(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "slow":
        slow(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))
    else:
        send(int(sys.argv[2]), sys.argv[3])
