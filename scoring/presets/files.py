"""The preset files shipped in this folder, and nothing else: the settings (authority_settings,
which checks an authority's ``preset`` against these names) read them without importing the
presets, which are checked against the settings."""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent


def available():
    """The codes of the presets shipped here, "laws" (the Laws' defaults) first."""
    codes = sorted(path.stem for path in DIRECTORY.glob("*.yaml"))
    return sorted(codes, key=lambda code: code != "laws")
