"""What every request to ``meeplezoo serve`` must show before any route sees it.

The server has no login: it trusts whoever can reach its address (loopback by default).
A web page on another site can still make the person's browser send requests to that
address, so three checks run first, on every route:

- **Host** must name the address the server is bound to (``127.0.0.1:PORT``,
  ``localhost:PORT``, ``[::1]:PORT`` on loopback, else the ``--host`` given).  A page whose
  own name has been re-pointed at 127.0.0.1 (DNS rebinding) sends its own name: 400.
- **Origin**, on every request that may change something (anything but GET and HEAD),
  must be this server's own, or absent (curl, scripts): a cross-site form or ``fetch``
  (``null`` included) gets 403.
- **Content-Type** of those requests must be ``application/json``: a cross-site page can
  send that only after a CORS preflight, which this server never grants (it sends no CORS
  headers and allows no OPTIONS), so a "simple" request such as ``text/plain`` gets 415
  and is never parsed.

A refused request gets ``{"error": message}`` and reaches no route: nothing is parsed,
imported or started.
"""

from __future__ import annotations

import ipaddress

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SAFE_METHODS = ("GET", "HEAD")           # read only: the routes behind them change nothing


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` serves this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:                   # a name other than localhost: it may resolve anywhere
        return False


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host values a server bound to ``host``:``port`` answers (lower case)."""
    host = host.lower().strip("[]")
    name = f"[{host}]" if ":" in host else host
    names = {name}
    if name in LOOPBACK_NAMES or host in ("0.0.0.0", "::"):
        names |= set(LOOPBACK_NAMES)     # a wildcard bind serves loopback too
    hosts = {f"{n}:{port}" for n in names}
    if port == 80:                       # a Host without a port means the scheme's default
        hosts |= names
    return hosts


class Guard:
    """Pure ASGI middleware applying the module's checks; ``port`` 0 (the OS picks one)
    means the port the request actually came in on."""

    def __init__(self, app, host: str, port: int):
        self.app, self.host, self.port = app, host, port
        self.hosts = allowed_hosts(host, port) if port else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":          # lifespan (the app serves no websockets)
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            from starlette.responses import JSONResponse

            status, message = refusal
            await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def refusal(self, scope) -> tuple[int, str] | None:
        """(status, message) for a request to refuse, else None."""
        headers: dict[bytes, list[bytes]] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.lower(), []).append(value)
        hosts = self.hosts or allowed_hosts(self.host, (scope.get("server") or ("", 0))[1])
        host = headers.get(b"host", [])
        if len(host) != 1 or host[0].decode("latin-1").lower() not in hosts:
            return 400, (f"this server answers requests to {' or '.join(sorted(hosts))} "
                         f"only (a request for another Host is refused)")
        if scope["method"] in SAFE_METHODS:
            return None
        origins = [o.decode("latin-1").lower() for o in headers.get(b"origin", [])]
        if origins and (len(origins) > 1 or origins[0] not in {f"http://{h}" for h in hosts}):
            return 403, "a request from another site's page is refused (its Origin is not " \
                        "this server)"
        kind = b";".join(headers.get(b"content-type", [])).decode("latin-1")
        if kind.partition(";")[0].strip().lower() != "application/json":
            return 415, "send the request as JSON (Content-Type: application/json)"
        return None
