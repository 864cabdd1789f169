"""``python -m scoring.engine``: the same command as ``python -m bridge.engine``."""

from bridge.engine.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main())
