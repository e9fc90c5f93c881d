"""A bare TCP echo in the Blender process, the baseline for the link's round-trip benchmark.

``bench.echo`` (a link method, so only the authenticated caller can ask) opens a loopback
socket on a free port, accepts exactly one connection on a daemon thread, echoes it until it
closes, and stops listening: nothing is left open for anyone else.
"""

from __future__ import annotations

import socket
import threading


def start_echo(params, call):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(30.0)
    port = listener.getsockname()[1]

    def serve() -> None:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        finally:
            listener.close()
        with connection:
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            while True:
                data = connection.recv(65536)
                if not data:
                    return
                connection.sendall(data)

    threading.Thread(target=serve, name="dcc-bench-echo", daemon=True).start()
    return {"port": port}
