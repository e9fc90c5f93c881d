"""The benchmark's host: the link's Python side with one no-op handler.
``noop_host.py blocking|pump``."""

import sys

from dcc_link import Dispatcher, PumpServer, serve_blocking

dispatcher = Dispatcher()
dispatcher.register("noop", lambda params, call: None)

if __name__ == "__main__":
    if sys.argv[1:] == ["pump"]:
        # A host loop with nothing else to do: wake when a call is queued, run it.
        server = PumpServer(dispatcher).start()
        while not server.stopping:
            server.wait(0.5)
            server.pump(0.01)
    else:
        serve_blocking(dispatcher)
