"""gang-companion: a table companion for The Gang (KOSMOS).

Layout (the core imports nothing from the rings around it):

- core rules, pure Python: ``cards``, ``evaluator`` (+ ``batch`` numpy path), ``shapes`` (variant hand shapes),
  ``judge`` (showdown verdicts), ``engine`` (commands -> events -> state), ``journal`` (SQLite event log)
- rings: ``vision`` (camera, card reader), ``hardware`` (buttons, LEDs), ``ui`` (Kivy app), ``cli``
"""

__version__ = "0.1.0"
