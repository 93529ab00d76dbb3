"""`python -m parse parity DIR`: extractor vs html5lib reference over a directory of pages."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from parse.parity import compare, page_files, read_page


def parity(directory: Path) -> int:
    pages = mismatches = 0
    for path in page_files(directory):
        pages += 1
        differences = compare(read_page(path))
        if differences:
            mismatches += 1
            print(f"--- {path.name}")
            for line in differences:
                print(f"  {line}")
    print(f"pages={pages} mismatches={mismatches}")
    return 1 if mismatches else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parse")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("parity", help="compare extractor and reference on every page")
    run.add_argument("directory", type=Path)
    args = parser.parse_args(argv)
    return parity(args.directory)


if __name__ == "__main__":
    sys.exit(main())
