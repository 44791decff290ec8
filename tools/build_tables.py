"""Rebuild the evaluator's shipped rank table: python tools/build_tables.py"""

from companion.evaluator import TABLE_FILE, write_rank_table

if __name__ == "__main__":
    n = write_rank_table()
    print(f"wrote {n} entries to {TABLE_FILE}")
