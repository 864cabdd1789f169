"""The hall server's certificates: a local certificate authority (once) and a server
certificate for the hall's names and addresses, signed by it (docs/operations.md, "The hall
server"; issue #31)."""

import socket
from pathlib import Path

from cryptography import x509
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.hall_tls import HallFiles, make_authority, make_server_certificate


def local_addresses() -> list[str]:
    """The laptop's own name and the address it reaches other machines from (the hall's
    Wi-Fi), found without sending anything."""
    names = [socket.gethostname(), f"{socket.gethostname()}.local", "localhost", "127.0.0.1"]
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a UDP connect sends no packet
        names.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    return names


class Command(BaseCommand):
    help = (
        "Make the hall's certificate authority (once) and a server certificate for the hall's names and "
        "addresses, for `make hall` (gunicorn over HTTPS)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "names",
            nargs="*",
            help="host names and IP addresses the phones will use (default: this laptop's name, name.local, "
            "localhost and its addresses)",
        )
        parser.add_argument("--folder", default=str(settings.VAR_DIR / "hall-tls"), help="where the files go")
        parser.add_argument("--organisation", default="Bridge rulings", help="the organiser's name in the certificates")
        parser.add_argument(
            "--hosts",
            action="store_true",
            help="only print the names and addresses of the server certificate, comma-separated (DJANGO_ALLOWED_HOSTS)",
        )
        parser.add_argument(
            "--new-authority",
            action="store_true",
            help="replace the certificate authority (every phone must then trust the new one)",
        )

    def handle(self, *args, names, folder, organisation, hosts, new_authority, **options):
        files = HallFiles(Path(folder))
        if hosts:
            if not files.server_certificate.exists():
                raise CommandError(f"no server certificate at {files.server_certificate}: run hall_certificates first")
            certificate = x509.load_pem_x509_certificate(files.server_certificate.read_bytes())
            self.stdout.write(",".join(certificate_names(certificate)))
            return
        now = timezone.now()
        if new_authority or not files.ca_certificate.exists():
            make_authority(files, organisation, now)
            self.stdout.write(f"New certificate authority: {files.ca_certificate} (install it on the phones)")
        else:
            self.stdout.write(f"Certificate authority kept: {files.ca_certificate}")
        try:
            certificate = make_server_certificate(files, names or local_addresses(), now)
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Server certificate: {files.server_certificate} (key {files.server_key})")
        shown = ", ".join(certificate_names(certificate))
        self.stdout.write(f"  for {shown}; valid until {certificate.not_valid_after_utc:%Y-%m-%d}")


def certificate_names(certificate: x509.Certificate) -> list[str]:
    alternative = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return [str(value) for value in alternative.get_values_for_type(x509.DNSName)] + [
        str(value) for value in alternative.get_values_for_type(x509.IPAddress)
    ]
