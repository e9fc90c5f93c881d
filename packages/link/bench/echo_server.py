"""The benchmark's baseline host: a bare ``selectors`` loop that echoes each length-prefixed
frame back unread, on the same kind of socket as the link (no token, no JSON, no dispatch).
Listens where ``DCC_LINK_SOCKET`` or ``DCC_LINK_TCP_PORT`` says, prints ``ECHO_READY {json}``."""

import json
import os
import selectors
import socket
import struct

path = os.environ.get("DCC_LINK_SOCKET")
if path:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    endpoint = {"kind": "unix", "path": path}
else:
    listener = socket.create_server(("127.0.0.1", 0))
    endpoint = {"kind": "tcp", "host": "127.0.0.1", "port": listener.getsockname()[1]}
listener.listen(1)
print("ECHO_READY " + json.dumps(endpoint), flush=True)
conn, _ = listener.accept()
if not path:
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
selector = selectors.DefaultSelector()
selector.register(conn, selectors.EVENT_READ)
buffer = bytearray()
while True:
    selector.select()
    data = conn.recv(65536)
    if not data:
        break
    buffer += data
    while len(buffer) >= 4:
        (length,) = struct.unpack_from(">I", buffer)
        if len(buffer) < 4 + length:
            break
        conn.sendall(bytes(buffer[: 4 + length]))
        del buffer[: 4 + length]
