"""The hall server's certificates (issue #31): the server's certificate chains to the hall's
own CA, names the hall's names and addresses, and a TLS client that trusts only that CA
connects to a server using it."""

import ipaddress
import socket
import ssl
import threading

from cryptography import x509
from django.core.management import call_command

from core.hall_tls import HallFiles


def run(tmp_path, *names, new_authority=False):
    args = [*names, "--folder", str(tmp_path), "--organisation", "Spring Congress"]
    call_command("hall_certificates", *args, *(["--new-authority"] if new_authority else []))
    files = HallFiles(tmp_path)
    ca = x509.load_pem_x509_certificate(files.ca_certificate.read_bytes())
    chain = x509.load_pem_x509_certificates(files.server_certificate.read_bytes())
    return files, ca, chain


def test_the_server_certificate_chains_to_the_hall_ca_and_has_the_halls_names(tmp_path):
    files, ca, chain = run(tmp_path, "hall.local", "192.168.8.10", "bridge.example.org")
    server = chain[0]
    server.verify_directly_issued_by(ca)  # raises if the signature or issuer is not the CA's
    assert chain[1] == ca  # the file holds the chain gunicorn sends
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is True
    assert server.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False
    names = server.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == ["hall.local", "bridge.example.org"]
    assert names.get_values_for_type(x509.IPAddress) == [ipaddress.ip_address("192.168.8.10")]
    usage = server.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert x509.oid.ExtendedKeyUsageOID.SERVER_AUTH in usage
    assert (server.not_valid_after_utc - server.not_valid_before_utc).days <= 398  # phones refuse longer
    assert oct(files.ca_key.stat().st_mode & 0o777) == "0o600"
    assert oct(files.server_key.stat().st_mode & 0o777) == "0o600"


def test_the_allowed_hosts_are_the_certificates_names(tmp_path, capsys):
    run(tmp_path, "hall.local", "192.168.8.10")
    capsys.readouterr()
    call_command("hall_certificates", "--hosts", "--folder", str(tmp_path))
    assert capsys.readouterr().out.strip() == "hall.local,192.168.8.10"


def test_a_second_run_keeps_the_authority_the_phones_trust(tmp_path):
    _files, ca, _chain = run(tmp_path, "hall.local")
    _files, ca_again, chain = run(tmp_path, "hall.local", "10.0.0.2")
    assert ca_again == ca
    chain[0].verify_directly_issued_by(ca)
    _files, new_ca, _chain = run(tmp_path, "hall.local", new_authority=True)
    assert new_ca != ca


def test_a_client_trusting_only_the_hall_ca_connects_by_the_halls_address(tmp_path):
    files, _ca, _chain = run(tmp_path, "hall.local", "127.0.0.1")
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(files.server_certificate, files.server_key)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve():
        connection, _address = listener.accept()
        with server_context.wrap_socket(connection, server_side=True) as tls:
            tls.sendall(b"hello")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    client_context = ssl.create_default_context(cafile=str(files.ca_certificate))
    with socket.create_connection(("127.0.0.1", port)) as raw:
        with client_context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            assert tls.recv(5) == b"hello"
    thread.join(5)
    listener.close()


def test_the_hall_server_serves_the_phones_over_https_with_the_halls_certificate(tmp_path, capsys):
    """Procfile.hall's web process: gunicorn with the certificate, allowed hosts from it; a client
    trusting only the hall's CA gets the service worker, with its scope header."""
    import os
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request
    from pathlib import Path

    files, _ca, _chain = run(tmp_path, "localhost", "127.0.0.1")
    capsys.readouterr()
    call_command("hall_certificates", "--hosts", "--folder", str(tmp_path))
    hosts = capsys.readouterr().out.strip()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, DJANGO_ALLOWED_HOSTS=hosts, BRIDGECASES_VAR_DIR=str(tmp_path / "var"))
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
        + ["--certfile", str(files.server_certificate), "--keyfile", str(files.server_key)],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    trusted = ssl.create_default_context(cafile=str(files.ca_certificate))
    try:
        for _attempt in range(300):  # until gunicorn listens (a loaded machine takes a while)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        with urllib.request.urlopen(f"https://localhost:{port}/sw.js", context=trusted, timeout=60) as answer:
            assert answer.status == 200
            assert answer.headers["Service-Worker-Allowed"] == "/"
        # A client that does not trust the hall's CA refuses the server.
        try:
            urllib.request.urlopen(f"https://localhost:{port}/sw.js", context=ssl.create_default_context(), timeout=60)
            raise AssertionError("an untrusted certificate was accepted")
        except urllib.error.URLError as error:
            assert isinstance(error.reason, ssl.SSLCertVerificationError)
    finally:
        server.terminate()
        server.wait(30)
