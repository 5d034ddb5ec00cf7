"""Misbehaving HTTP servers on 127.0.0.1, one per transport failure, for both SDKs' tests.

Each server accepts a bounded number of connections on a daemon thread, does
its one wrong thing, and stops when the test's ``with`` block ends.
"""

from __future__ import annotations

import datetime
import socket
import ssl
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

Handler = Callable[[socket.socket], None]

MAX_CONNECTIONS = 16
STALL_S = 5.0  # longer than any client deadline of the tests, bounded so the thread ends


def _read_head(conn: socket.socket) -> bytes:
    """The request line and headers (up to the blank line), read with a bounded wait."""
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def _reset(conn: socket.socket) -> None:
    """Close with a TCP RST instead of a FIN (SO_LINGER with a zero timeout)."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def reset_mid_body(conn: socket.socket) -> None:
    """A 200 that promises 100000 bytes, sends 10, then resets the connection."""
    _read_head(conn)
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    )
    conn.sendall(b'{"data": "')
    time.sleep(0.05)
    _reset(conn)


def stall(conn: socket.socket) -> None:
    """Reads the request and never answers (until STALL_S passes)."""
    _read_head(conn)
    time.sleep(STALL_S)
    conn.close()


def close_during_upload(conn: socket.socket) -> None:
    """Reads the request head, then resets while the client is still sending the body."""
    _read_head(conn)
    _reset(conn)


def unavailable_page(conn: socket.socket) -> None:
    """A proxy's 503 page without an error envelope."""
    _read_head(conn)
    body = b"<html><body>503 Service Unavailable</body></html>"
    conn.sendall(
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/html\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    conn.close()


def ok_json(conn: socket.socket) -> None:
    """A whole 200 with a JSON body (used behind TLS: never reached with a bad certificate)."""
    _read_head(conn)
    body = b'{"ok": true}'
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    conn.close()


def _serve(
    listener: socket.socket, handler: Handler, stop: threading.Event, tls: ssl.SSLContext | None
) -> None:
    listener.settimeout(0.1)  # so that the loop sees ``stop`` soon
    accepted = 0
    while accepted < MAX_CONNECTIONS and not stop.is_set():
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        except OSError:
            break
        accepted += 1
        conn.settimeout(None)
        if tls is not None:
            try:
                conn = tls.wrap_socket(conn, server_side=True)
            except (OSError, ssl.SSLError):
                conn.close()  # the client refused our certificate: the failure under test
                continue
        threading.Thread(target=_guarded, args=(handler, conn), daemon=True).start()


def _guarded(handler: Handler, conn: socket.socket) -> None:
    try:
        handler(conn)
    except OSError:
        pass  # the client went away first
    finally:
        with suppress(OSError):
            conn.close()


@contextmanager
def serving(handler: Handler, tls: ssl.SSLContext | None = None) -> Iterator[int]:
    """Run ``handler`` for each connection to a new port on 127.0.0.1; yields the port."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    stop = threading.Event()
    thread = threading.Thread(target=_serve, args=(listener, handler, stop, tls), daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=STALL_S)
        listener.close()


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def self_signed_context(directory: Path) -> ssl.SSLContext:
    """A server TLS context with a fresh self-signed certificate for 127.0.0.1 (no client trusts it)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .sign(key, hashes.SHA256())
    )
    cert_path = directory / "cert.pem"
    key_path = directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_path, key_path)
    return context


def h2_reset_mid_body(conn: socket.socket) -> None:
    """HTTP/2 with prior knowledge (h2c): a 200, part of its body, then RST_STREAM on that stream."""
    import h2.config
    import h2.connection
    import h2.errors
    import h2.events

    h2conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False))
    h2conn.initiate_connection()
    conn.sendall(h2conn.data_to_send())
    conn.settimeout(5)
    for _ in range(64):  # bounded: a request arrives within a few frames
        data = conn.recv(65536)
        if not data:
            return
        for event in h2conn.receive_data(data):
            if isinstance(event, h2.events.RequestReceived):
                stream = event.stream_id
                h2conn.send_headers(stream, [(":status", "200"), ("content-length", "100000")])
                h2conn.send_data(stream, b'{"data": "')
                h2conn.reset_stream(stream, error_code=h2.errors.ErrorCodes.INTERNAL_ERROR)
                conn.sendall(h2conn.data_to_send())
                time.sleep(0.2)
                return
        conn.sendall(h2conn.data_to_send())
