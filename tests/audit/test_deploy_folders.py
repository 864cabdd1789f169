"""check --deploy looks at the folders of the trail's evidence (issue #41): a key's folder or
the public keys' folder others may write in (a key replaced, a key of one's own trusted), a
public key others may write, a witness whose folder is missing."""

import os

from audit.checks import audit_folders_kept_private


def _ids(settings, tmp_path, key_mode=0o700, public_mode=0o755, pub_file_mode=0o644, witness=True):
    key, public = tmp_path / "key", tmp_path / "public"
    key.mkdir(exist_ok=True), public.mkdir(exist_ok=True)
    (public / "abc.pub").write_text("x")
    os.chmod(key, key_mode), os.chmod(public, public_mode), os.chmod(public / "abc.pub", pub_file_mode)
    settings.AUDIT_SIGNING_KEY_FILE = str(key / "audit-signing-key.pem")
    settings.AUDIT_PUBLIC_KEYS_DIR = str(public)
    settings.AUDIT_WITNESS_FILE = str(tmp_path / ("witness" if witness else "nowhere") / "heads.jsonl")
    (tmp_path / "witness").mkdir(exist_ok=True)
    return [(error.id, error.msg) for error in audit_folders_kept_private(None)]


def test_folders_kept_to_their_owner_pass(settings, tmp_path):
    assert _ids(settings, tmp_path) == []


def test_a_key_folder_others_may_write_in_fails(settings, tmp_path):
    ((code, message),) = _ids(settings, tmp_path, key_mode=0o777)
    assert code == "audit.E004"
    assert (
        message
        == f"Others than its owner may write in the signing key's folder {tmp_path / 'key'} (mode 777): they could replace the key."
    )


def test_a_public_keys_folder_or_key_others_may_write_fails(settings, tmp_path):
    ((code, message),) = _ids(settings, tmp_path, public_mode=0o775)
    assert code == "audit.E005" and message.endswith("add a key of their own, which would be trusted.")
    ((code, message),) = _ids(settings, tmp_path, pub_file_mode=0o666)
    assert (code, message) == (
        "audit.E005",
        f"Others than its owner may write the public key {tmp_path / 'public' / 'abc.pub'} (mode 666).",
    )


def test_a_witness_whose_folder_is_missing_fails(settings, tmp_path):
    ((code, message),) = _ids(settings, tmp_path, witness=False)
    assert code == "audit.E006" and str(tmp_path / "nowhere") in message
