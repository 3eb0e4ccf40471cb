#!/usr/bin/env python3
"""A test server that takes bareperf's uploads (record -o http://...).

usage: http_sink.py DIR PORTFILE [MODE]
  Listens on 127.0.0.1 (QEMU's user network reaches it as 10.0.2.2) on a
  free port, written to PORTFILE. MODE: ok (default: a PUT is saved as
  DIR/<last part of its path>, answer 201), fail (answer 500 after
  reading the body), drop (read the headers and close without an answer).
  Each request is logged as a line in DIR/requests.log.
"""
import http.server
import os
import sys

out, portfile = sys.argv[1], sys.argv[2]
mode = sys.argv[3] if len(sys.argv) > 3 else "ok"


class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_PUT(self):
        with open(os.path.join(out, "requests.log"), "a") as log:
            log.write(f"PUT {self.path} {self.headers.get('Content-Length')} {mode}\n")
        if mode == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        length = int(self.headers.get("Content-Length", 0))
        body = b""
        while len(body) < length:
            chunk = self.rfile.read(length - len(body))
            if not chunk:
                break
            body += chunk
        if mode == "fail":
            self.send_response(500)
        else:
            with open(os.path.join(out, os.path.basename(self.path)), "wb") as f:
                f.write(body)
            self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
with open(portfile + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(portfile + ".tmp", portfile)
server.serve_forever()
