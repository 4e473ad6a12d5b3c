#!/usr/bin/env python3
"""A stand-in for Azure Resource Manager on 127.0.0.1, for the Ansible tier's inventory test.

Serves, over HTTPS, one subscription (subscription.py) the way Azure's REST API reference
documents the calls azure_rm makes: the cloud metadata (/metadata/endpoints), a managed-identity
token (MSI_ENDPOINT), Virtual Machines - List, Virtual Machine Scale Sets - List, Virtual Machine
Scale Set VMs - List, the instance views, Network Interfaces - Get, and ARM's /batch (which
azure_rm uses by default). Every ARM call must carry the token. Each request is appended to the
log file as one JSON line ({"method", "path", "api_version", "status"}), so a test can say which
calls were made and which were not.

Usage: fake_arm.py CERT KEY PORT_FILE LOG_FILE [SUBSCRIPTION_MODULE]
Writes the port it listens on to PORT_FILE once it accepts connections; runs until killed.
"""
import http.server
import json
import os
import ssl
import sys
import threading
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import subscription  # noqa: E402  (the resources this endpoint serves)

TOKEN = "ibkit-test-token"
AUDIENCE = "https://management.core.windows.net/"
LOG_LOCK = threading.Lock()


def arm_error(status, code, message):
    return status, {"error": {"code": code, "message": message}}


class Arm:
    """Routes an ARM GET (path without query, lower-cased for matching as ARM does) to a response."""

    def __init__(self, data):
        self.data = data
        self.sub = "/subscriptions/" + data.SUBSCRIPTION_ID.lower()

    def get(self, path):
        p = path.rstrip("/").lower()
        rg_prefix = self.sub + "/resourcegroups/"
        if not p.startswith(self.sub):
            return arm_error(404, "SubscriptionNotFound", "The subscription '%s' could not be found." % path)
        # Listing a whole subscription is possible in Azure; ibkit must never do it.
        if p == self.sub + "/providers/microsoft.compute/virtualmachines":
            return 200, {"value": self.data.virtual_machines(None)}
        if p == self.sub + "/providers/microsoft.compute/virtualmachinescalesets":
            return 200, {"value": self.data.scale_sets(None)}
        if p.startswith(rg_prefix):
            parts = p[len(rg_prefix):].split("/")
            group = parts[0]
            rest = "/".join(parts[1:])
            if rest == "providers/microsoft.compute/virtualmachines":
                return 200, {"value": self.data.virtual_machines(group)}
            if rest == "providers/microsoft.compute/virtualmachinescalesets":
                return 200, {"value": self.data.scale_sets(group)}
        resource = self.data.resource(p)
        if resource is None:
            return arm_error(404, "ResourceNotFound", "The Resource '%s' was not found." % path)
        return resource


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "fake-arm/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def record(self, path, query, status):
        entry = {"method": self.command, "path": path, "api_version": query.get("api-version", [""])[0], "status": status}
        with LOG_LOCK, open(self.server.log_file, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")

    def reply(self, status, body, headers=None):
        payload = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("x-ms-request-id", "00000000-0000-0000-0000-000000000000")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def authorized(self):
        return self.headers.get("Authorization", "") == "Bearer " + TOKEN

    def arm_get(self, path, query):
        if not query.get("api-version"):
            return arm_error(400, "MissingApiVersionParameter", "The api-version query parameter (?api-version=) is required.")
        return self.server.arm.get(path)

    def do_GET(self):  # noqa: N802 (http.server's name)
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/metadata/endpoints":
            status, body = 200, subscription.cloud_metadata(self.server.base_url, AUDIENCE)
        elif not self.authorized():
            status, body = arm_error(401, "AuthenticationFailed", "Authentication failed. The 'Authorization' header is missing.")
        else:
            status, body = self.arm_get(url.path, query)
        self.record(url.path, query, status)
        self.reply(status, body)

    def do_POST(self):  # noqa: N802
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        raw = self.body()
        if url.path == "/msi/token":
            form = urllib.parse.parse_qs(raw.decode())
            if self.headers.get("Metadata") != "true" or form.get("resource", [""])[0] != AUDIENCE:
                status, body = 400, {"error": "invalid_request", "error_description": "Metadata header or resource wrong"}
            else:
                status, body = 200, {"access_token": TOKEN, "token_type": "Bearer", "expires_in": "3599",
                                     "expires_on": "4102444800", "resource": AUDIENCE}
        elif not self.authorized():
            status, body = arm_error(401, "AuthenticationFailed", "Authentication failed.")
        elif url.path == "/batch":
            status, body = 200, {"responses": [self.batch_item(item) for item in json.loads(raw)["requests"]]}
        else:
            status, body = arm_error(404, "NotFound", "No such operation")
        self.record(url.path, query, status)
        self.reply(status, body)

    def batch_item(self, item):
        url = urllib.parse.urlsplit(item["url"])
        query = urllib.parse.parse_qs(url.query)
        if item.get("httpMethod", "GET").upper() != "GET":
            status, content = arm_error(405, "MethodNotAllowed", "only GET in this test")
        else:
            status, content = self.arm_get(url.path, query)
        entry = {"method": "GET", "path": url.path, "api_version": query.get("api-version", [""])[0],
                 "status": status, "batch": True}
        with LOG_LOCK, open(self.server.log_file, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")
        return {"name": item["name"], "httpStatusCode": status, "headers": {}, "content": content,
                "contentLength": len(json.dumps(content))}


def main():
    cert, key, port_file, log_file = sys.argv[1:5]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    server.log_file = log_file
    server.base_url = "https://127.0.0.1:%d" % server.server_address[1]
    server.arm = Arm(subscription)
    with open(port_file + ".tmp", "w", encoding="utf-8") as out:
        out.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
