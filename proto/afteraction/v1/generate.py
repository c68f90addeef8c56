"""Regenerate the Python stubs beside the .proto files: ``make proto``.

``python -m afteraction.v1.generate --check DIR`` writes them into DIR instead
(the staleness test compares that with the committed files).
"""
from __future__ import annotations

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
PROTO_ROOT = HERE.parent.parent  # proto/


def protos() -> list[str]:
    return sorted(str(p.relative_to(PROTO_ROOT)) for p in HERE.glob("*.proto"))


def generate(out_dir: pathlib.Path) -> None:
    import grpc_tools
    from grpc_tools import protoc

    include = str(pathlib.Path(grpc_tools.__file__).parent / "_proto")
    args = ["protoc", f"-I{PROTO_ROOT}", f"-I{include}", f"--python_out={out_dir}",
            f"--pyi_out={out_dir}", f"--grpc_python_out={out_dir}", *protos()]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")


def main(argv: list[str]) -> None:
    if argv[:1] == ["--out"]:
        generate(pathlib.Path(argv[1]))
    else:
        generate(PROTO_ROOT)


if __name__ == "__main__":
    main(sys.argv[1:])
