"""The command line: `demo` runs the sample gallery, `explain` traces one function of a file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tracer", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="run the sample gallery")
    demo.add_argument("--out", default="modetrace-out", help="where traces and logs go")
    demo.add_argument("--only", default=None, help="run only samples whose name contains this")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from samples.gallery import run_gallery

        return run_gallery(args.out, args.only)
    return 2


if __name__ == "__main__":
    sys.exit(main())
