"""Write ``data/wbf2013_vp20.json``: the WBF 2013 continuous 20-VP scale for 1-64 boards.

Run ``python -m bridge.engine.gen_vp_tables`` after changing the formula or the correction in
``vp.continuous_table``; the tests check the shipped file against both.
"""

import json
import sys
from pathlib import Path
from typing import Any

from .vp import DATA_DIR, SHIPPED_BOARDS, continuous_table


def build() -> dict[str, Any]:
    return {
        "scale": "WBF 2013 continuous 20-VP scale",
        "formula": "min(20, 10 + 10 (1 - tau^(3I/X)) / (1 - tau^3)), tau = (sqrt 5 - 1)/2, "
        "X = 15 sqrt N; rounded to 0.01, halves up; then, as the WBF does, a value is "
        "raised by 0.01 wherever the next increment would be larger than the one "
        "before it, until the table is concave: see vp.continuous_table",
        "generated_by": "bridge/engine/gen_vp_tables.py",
        "tables": {str(n): [str(v) for v in continuous_table(n)] for n in SHIPPED_BOARDS},
    }


def main(path: Path | None = None) -> None:
    path = path or DATA_DIR / "wbf2013_vp20.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = build()
    tables = data.pop("tables")
    # One line per number of boards: small, and a diff shows which table changed.
    lines = [json.dumps(data, indent=1)[:-2] + ',\n "tables": {']
    lines += [f'  "{n}": {json.dumps(values)},' for n, values in tables.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += [" }", "}", ""]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
