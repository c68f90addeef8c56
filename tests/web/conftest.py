"""A server with the web transport (Connect, gRPC-Web) beside its gRPC port, both on port 0."""
from __future__ import annotations

import pytest


class WebServer:
    def __init__(self, tmp_path, origins=(), page=None):
        from afteraction.service.server import start

        self.run = start("127.0.0.1:0", f"sqlite:{tmp_path / 'store.sqlite'}", None, str(tmp_path),
                         web_listen="127.0.0.1:0", web_origins=tuple(origins), web_page=page)
        self.target = f"127.0.0.1:{self.run.port}"
        self.web_port = self.run.web_port
        self.base = f"http://127.0.0.1:{self.web_port}"

    def stop(self):
        if self.run is not None:
            self.run.stop(2)
            self.run = None


@pytest.fixture
def web_server(tmp_path):
    s = WebServer(tmp_path)
    try:
        yield s
    finally:
        s.stop()
