"""A hall's own certificate authority and the hall server's certificate (issue #31).

Phones accept a service worker only from a secure context, so a laptop serving the hall's Wi-Fi
needs HTTPS the phones trust. Where the organiser owns a domain name, a certificate for it is
better (docs/operations.md, "The hall server"); otherwise ``manage.py hall_certificates`` makes
a local certificate authority (kept on the laptop, its key never leaves it) and signs the
server's certificate for the hall's names and addresses with it. The phones trust the
authority's certificate once (installed as a CA certificate), and then every server
certificate it signs.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 825  # the longest a CA certificate needs for a season of events
# Apple's rule for a TLS server certificate trusted through a user-installed CA: at most 825
# days; Chrome's limit for public certificates is lower, but a private CA's 397 days are accepted.
SERVER_DAYS = 397


@dataclass(frozen=True)
class HallFiles:
    """Where the files live: the CA's certificate (for the phones) and key (for the laptop
    only), and the server's certificate chain and key (for gunicorn)."""

    folder: Path

    @property
    def ca_certificate(self) -> Path:
        return self.folder / "hall-ca.crt"

    @property
    def ca_key(self) -> Path:
        return self.folder / "hall-ca.key"

    @property
    def server_certificate(self) -> Path:
        return self.folder / "hall-server.crt"

    @property
    def server_key(self) -> Path:
        return self.folder / "hall-server.key"


def split_names(names: list[str]) -> tuple[list[str], list[ipaddress.IPv4Address | ipaddress.IPv6Address]]:
    """DNS names and IP addresses, each once, in the order given."""
    dns: list[str] = []
    ips: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for name in names:
        name = name.strip().strip("[]")
        if not name:
            continue
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            if name.lower() not in dns:
                dns.append(name.lower())
        else:
            if address not in ips:
                ips.append(address)
    return dns, ips


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    path.chmod(0o600)


def _name(common_name: str, organisation: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, organisation),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


def make_authority(files: HallFiles, organisation: str, now: datetime.datetime) -> x509.Certificate:
    """A new CA (key and self-signed certificate), written to ``files``."""
    key = _key()
    name = _name(f"{organisation} hall CA", organisation)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    files.folder.mkdir(parents=True, exist_ok=True)
    _write_key(files.ca_key, key)
    files.ca_certificate.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return certificate


def load_authority(files: HallFiles) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    certificate = x509.load_pem_x509_certificate(files.ca_certificate.read_bytes())
    key = serialization.load_pem_private_key(files.ca_key.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{files.ca_key} is not an EC key made by hall_certificates")
    return certificate, key


def make_server_certificate(files: HallFiles, names: list[str], now: datetime.datetime) -> x509.Certificate:
    """The server's key and certificate for ``names`` (DNS names and IP addresses), signed by
    the CA in ``files``; the certificate file holds the chain (server, then CA)."""
    dns, ips = split_names(names)
    if not dns and not ips:
        raise ValueError("give at least one name or address the phones will use")
    ca_certificate, ca_key = load_authority(files)
    key = _key()
    alternative: list[x509.GeneralName] = [x509.DNSName(name) for name in dns]
    alternative += [x509.IPAddress(address) for address in ips]
    organisation = str(ca_certificate.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)[0].value)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(_name(dns[0] if dns else str(ips[0]), organisation))
        .issuer_name(ca_certificate.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(min(now + datetime.timedelta(days=SERVER_DAYS), ca_certificate.not_valid_after_utc))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    _write_key(files.server_key, key)
    files.server_certificate.write_bytes(
        certificate.public_bytes(serialization.Encoding.PEM) + ca_certificate.public_bytes(serialization.Encoding.PEM)
    )
    return certificate
