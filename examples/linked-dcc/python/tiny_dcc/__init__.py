"""A tiny DCC-like program (stdlib only) behind ``@dcc/link``, for the linked-adapter example."""
