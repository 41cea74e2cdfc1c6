"""Make the shipped puzzles again: ``python -m spades_tutor.puzzles.build`` rewrites ``puzzles.json``.

Fixed seeds, so the same code makes the same file; the tests re-verify every puzzle in it.
"""

from __future__ import annotations

import json
from pathlib import Path

from spades_tutor.engine import Rules

from .generate import generate
from .model import THEMES, Puzzle

SEED = 2026
PER_RULE_SET = 5
DATA = Path(__file__).parent / "puzzles.json"


def pick(puzzles: list[Puzzle], n: int) -> list[Puzzle]:
    """``n`` puzzles, as many themes and goals as there are: one of each rarer theme first."""
    by_theme: dict[str, list[Puzzle]] = {}
    for p in puzzles:
        by_theme.setdefault(p.theme, []).append(p)
    out: list[Puzzle] = []
    order = [t for t in THEMES if t != "general" and t in by_theme]
    for t in order:
        if len(out) < n:
            out.append(by_theme[t][0])
    goals = {p.goal.kind for p in out}
    for p in by_theme.get("general", []):  # then new goals, then the rest in order
        if len(out) < n and p.goal.kind not in goals:
            out.append(p)
            goals.add(p.goal.kind)
    for p in puzzles:
        if len(out) < n and p not in out:
            out.append(p)
    return out


def build() -> dict[str, object]:
    puzzles: list[Puzzle] = []
    for name in Rules.preset_names():
        puzzles += pick(generate(name, SEED, count=40, rounds=300), PER_RULE_SET)
    return {"seed": SEED, "made_by": "python -m spades_tutor.puzzles.build", "puzzles": [p.to_dict() for p in puzzles]}


if __name__ == "__main__":  # pragma: no cover
    DATA.write_text(json.dumps(build(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
