"""The core is fully typed: mypy --strict over it must stay clean (as python-chess keeps its rules)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STRICT = ["companion/cards.py", "companion/evaluator.py", "companion/batch.py", "companion/shapes.py",
          "companion/judge.py", "companion/engine", "companion/journal.py", "companion/bots.py",
          "companion/practice.py", "companion/cli/__init__.py", "companion/cli/judge_cmd.py",
          "companion/cli/play_cmd.py", "companion/cli/demo_cmd.py",
          "companion/vision/__init__.py", "companion/vision/sources.py", "companion/vision/synthetic.py",
          "companion/vision/table.py", "companion/vision/zones.py", "companion/vision/detect.py",
          "companion/vision/reader.py", "companion/vision/reader_glyph.py", "companion/vision/reader_model.py",
          "companion/vision/reader_layout.py", "companion/vision/enrol.py", "companion/vision/glyphs.py",
          "companion/vision/index_search.py", "companion/vision/reader_corner.py", "companion/vision/pips.py",
          "companion/vision/reader_locator.py",
          "companion/cli/vision_cmd.py"]


def test_core_passes_mypy_strict():
    pytest.importorskip("mypy")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", *STRICT], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
