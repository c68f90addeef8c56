"""The `aar` command line. Each subcommand lives in its own function; exit codes:
0 success (verified), 1 verification failed, 2 unreadable input or usage error."""
from __future__ import annotations

import argparse
import json
import sys

from afteraction.engine.errors import AfteractionError, VerificationError

from .common import _jsonable, _one_line, read_checkpoint  # noqa: F401  (main._jsonable: imported from here by tests)
from .keys import pinned_seat_keys


def cmd_verify(args: argparse.Namespace) -> int:
    from .verify_parallel import TerminalProgress

    pins = _pins(args)
    if isinstance(pins, str):
        return _usage(args, pins)
    history, seat_keys, kept = pins
    try:
        f = open(args.file, "rb")
    except OSError as e:
        return _usage(args, f"cannot read {args.file}: {e.strerror}")
    progress = None if args.json else TerminalProgress()
    with f:
        history_note = None
        if history is not None:
            failed, history_note = _through_key_history(args, f, history)
            if failed is not None:
                if progress is not None:
                    progress.close()
                return _not_verified(args, failed)
        report = _verified(args, f, seat_keys, kept, progress)
    if isinstance(report, int):
        return report
    if history_note is not None:
        report.notes.append(history_note)
    try:
        if args.json:
            out = json.dumps(dict(report.as_dict(), unreadable=False), sort_keys=True, default=_jsonable)
        else:
            out = _summary(report)
    except Exception as e:  # noqa: BLE001 - e.g. a value the report cannot show
        return _not_verified(args, VerificationError(
            "1 (bundle)", None, "the report cannot be written (the log is not verified)",
            detail=f"{type(e).__name__}: {e}"))
    print(out)
    return 0


def _pins(args: argparse.Namespace) -> tuple | str:
    """What the command line pins, read before the bundle: (the key history or None, the seats'
    keys, the kept checkpoint or None), or a usage error's message. ``args.server_key`` is
    normalised to the verifier key it names."""
    from afteraction.engine.protocol import VERSIONS

    from .keys import KeyArgError, server_vkey_arg

    if args.server_key is not None:
        try:  # a key that cannot be a server key is a usage error, not a failed log; never echoed
            args.server_key = server_vkey_arg(args.server_key)
        except KeyArgError as e:
            return str(e)
    history = None
    if args.key_history is not None:  # SPEC.md 4.6: the pin is the history's first key
        history = _key_history(args)
        if isinstance(history, str):
            return history
        if args.server_key is not None and args.server_key != history[0]:
            return (f"--server-key is not the first key of --key-history {args.key_history} "
                    f"({history[0]}): the history pins its first key")
    try:
        seat_keys = pinned_seat_keys(args.seat_key)
    except ValueError as e:
        return str(e)
    if args.min_version is not None and args.min_version not in VERSIONS:  # SPEC.md 10.2: a usage error
        return (f"--min-version {args.min_version}: this verifier knows the format versions "
                f"{', '.join(map(str, VERSIONS))}")
    kept = None
    if args.checkpoint is not None:
        kept, why = read_checkpoint(args.checkpoint)
        if why is not None:
            return why
    return history, seat_keys, kept


def _through_key_history(args: argparse.Namespace, f, history: list[str]) -> tuple[VerificationError | None, str | None]:
    """SPEC.md 4.6: the bundle's server key is one of the history's, and becomes the pin (the
    history's first key when the header names none): (the step 4 failure or None, the report's note)."""
    from afteraction.engine.log.steps import _fail

    vkey = _bundle_vkey(f)
    if vkey is not None and vkey not in history:
        return _fail("4", None, "server key is not in the key history (SPEC.md 4.6)",
                     f"one of the {len(history)} keys of {args.key_history}", vkey), None
    args.server_key = vkey if vkey is not None else history[0]
    if vkey is None:
        return None, None
    return None, (f"server key pinned through the key history {args.key_history}: key "
                  f"{history.index(vkey)} of {len(history)}, whose first key is {history[0]}")


def _verified(args: argparse.Namespace, f, seat_keys: dict, kept, progress):
    """The bundle verified under the pins: its Report, or the exit code of a failure (printed)."""
    from afteraction.engine.log.verify import verify_bundle

    from .verify_parallel import driver

    try:
        return verify_bundle(f, pinned_vkey=args.server_key, replay=not args.no_replay,
                             progress=progress, pinned_seat_keys=seat_keys, kept_checkpoint=kept,
                             require_cosigned=args.require_cosigned,
                             drive=driver(args.jobs), min_version=args.min_version)
    except VerificationError as e:
        if e.step.startswith("1 ") and e.seq is None:
            return _unreadable(args, e)
        if _pinned_seat_unknown(e):  # the command line names a seat the game has not: a usage error
            seat = _one_line(str(e.expected)[:40])
            return _usage(args, f"--seat-key {seat}: this game has no seat {seat!r} (its seats: "
                                f"{', '.join(_one_line(str(s)[:40]) for s in e.found or ())}); pin only its seats")
        return _not_verified(args, e)
    except Exception as e:  # noqa: BLE001 - the last resort: one precise line, never a traceback
        return _not_verified(args, VerificationError(
            "1 (bundle)", None, "the verifier failed unexpectedly (the log is not verified)",
            detail=f"{type(e).__name__}: {e}"))
    finally:
        if progress is not None:
            progress.close()


def _pinned_seat_unknown(e: VerificationError) -> bool:
    """The verifier's genesis check of a --seat-key whose seat genesis does not list (SPEC.md 10, A.2)."""
    return e.step.split(" ")[0] == "4" and e.seq == 0 and e.check.startswith("pinned seat ") \
        and e.check.endswith(" is not a seat of genesis")


def _key_history(args) -> list[str] | str:
    """The verifier keys of ``--key-history FILE``, oldest first, or the usage error's message."""
    from afteraction.engine.crypto import key_history
    from afteraction.engine.errors import CryptoError

    try:
        with open(args.key_history, "rb") as hf:
            return key_history.parse(hf.read(key_history.MAX_BYTES + 1))
    except OSError as e:
        return f"--key-history: cannot read {args.key_history}: {e.strerror}"
    except CryptoError as e:
        return f"--key-history {args.key_history}: {e} (the history is not trusted: nothing is pinned by it)"


def _bundle_vkey(f) -> str | None:
    """The server key a bundle's header names (None if unreadable: the verifier then says why);
    the file is rewound."""
    from afteraction.engine.log.bundle import read_bundle

    try:
        header, _ = read_bundle(f)
        vkey = header.get("server_vkey")
    except Exception:  # noqa: BLE001 -- verify_bundle reports an unreadable bundle precisely
        vkey = None
    f.seek(0)
    return vkey if isinstance(vkey, str) else None


def _not_verified(args, e: VerificationError) -> int:
    """Exit 1: one line, or with --json one JSON object (SPEC.md 10.2)."""
    if args.json:
        print(json.dumps(_failure_object(e, unreadable=False), sort_keys=True, default=_jsonable))
    else:
        print(f"NOT VERIFIED: {_one_line(str(e))}")
    return 1


def _failure_object(e: VerificationError, unreadable: bool) -> dict:
    """The --json object of a failure (docs/verify.schema.json): the report's fields as far as
    verification got (a default report when no verifier ran), then the failure's own."""
    from afteraction.engine.log.verify import Report
    report = getattr(e, "report", None) or Report(verified=False)
    d = report.as_dict()
    d.update(e.as_dict())
    d["unreadable"] = unreadable
    return d


def _usage(args, message: str) -> int:
    """Exit 2 (usage error or unreadable input); with --json also a machine-readable object."""
    if args.json:  # the bundle was not read: no step, no record
        e = VerificationError("0 (usage)", None, message)
        print(json.dumps(dict(_failure_object(e, unreadable=True), step=None, message=message),
                         sort_keys=True, default=_jsonable))
    print(f"aar verify: {_one_line(message)}", file=sys.stderr)
    return 2


def _unreadable(args, e: VerificationError) -> int:
    if args.json:
        print(json.dumps(_failure_object(e, unreadable=True), sort_keys=True, default=_jsonable))
    else:
        print(f"aar verify: unreadable bundle: {_one_line(str(e))}", file=sys.stderr)
    return 2


def _summary(r) -> str:
    from .games_cmd import match_line

    from afteraction.engine.protocol import FORMAT_VERSION

    head = f"game {r.game} ({r.ruleset}), {r.records} records, format v{r.format}"
    # what the verdict does not cover goes on the line people read: nothing ties the log to a
    # server the reader trusts (unpinned), the rules were not re-run (no replay), or the log's
    # format lacks guarantees of the newest (SPEC.md 11)
    caveats = ([] if r.pinned else ["UNPINNED (no --server-key: consistent with itself, not tied to a known server)"]) \
        + ([] if r.replayed else ["NOT REPLAYED (the rules were not re-run: see the note below)"]) \
        + ([] if r.format >= FORMAT_VERSION else
           [f"OLDER FORMAT v{r.format} (the newest is v{FORMAT_VERSION}: the notes say what it does not guarantee; "
            f"--min-version {FORMAT_VERSION} refuses it)"])
    lines = [f"VERIFIED, BUT {' AND '.join(caveats)}: {head}" if caveats else f"VERIFIED: {head}"]
    lines.append(f"  server key: {r.server_vkey}" + (" (pinned)" if r.pinned else " (from the bundle; pin it with --server-key)"))
    if r.match:
        lines.append(f"  match: {match_line(r.match)}")
    for seat, key in sorted(r.seat_keys.items()):
        lines.append(f"  seat {seat}: public key {key.hex()}" + (" (pinned)" if seat in r.pinned_seats
                                                               else " (from the bundle)"))
    lines.append("  seat keys: " + (f"pinned for {', '.join(r.pinned_seats)}" if r.pinned_seats
                                    else "from the bundle (pin them with --seat-key SEAT=HEX or SEAT=KEYFILE)"))
    lines.append("  cosigned the final checkpoint: " + (", ".join(r.cosigned) if r.cosigned else "no seat"))
    if r.kept_checkpoint:
        lines.append(f"  kept checkpoint: the log holds its tree size {r.kept_checkpoint} with the same root")
    if r.ended:
        lines.append(f"  ended: {json.dumps(r.outcome, sort_keys=True, default=_jsonable)}")
        lines.append(f"  cause: {json.dumps(r.cause, sort_keys=True, default=_jsonable)} (SPEC.md 8.3)")
    lines.append(f"  dice rolled: {r.rolls} public; sealed values opened: {r.sealed}; reveals checked: {r.opened}")
    lines.append(f"  replayed by the ruleset: {f'yes, byte for byte, by {r.replayed_with}' if r.replayed else 'no'}")
    for n in r.notes:
        lines.append(f"  note: {n}")
    return "\n".join(_one_line(line) for line in lines)


class Parser(argparse.ArgumentParser):
    """A usage error is one line (what is wrong, and where the help is), exit 2; every
    subcommand's parser is of this class too (argparse makes subparsers of the parent's class)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {_one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="aar", description="afteraction: audited wargames")
    sub = p.add_subparsers(dest="command", required=True)
    from .verify_parallel import PARALLEL_MIN_RECORDS

    v = sub.add_parser("verify", help="verify an exported .aar log offline")
    v.add_argument("file")
    v.add_argument("--server-key", metavar="KEY|FILE",
                   help="the server's verifier key (NAME+ID+KEY) to pin, or a file holding it (or server.key)")
    v.add_argument("--key-history", metavar="FILE",
                   help="a server key history (KEYFILE.history, written by aar key rotate; SPEC.md 4.6): the log's "
                        "server key must be one of its keys, pinned through it to its first key (with "
                        "--server-key, that first key)")
    v.add_argument("--seat-key", action="append", metavar="SEAT=HEX|SEAT=FILE",
                   help="pin a seat's Ed25519 public key (64 hex digits, or a seat key file); repeatable; "
                        "genesis must list the seat with exactly this key")
    v.add_argument("--checkpoint", metavar="FILE",
                   help="a checkpoint a seat kept (aar play/bot write KEYFILE.GAME_ID.checkpoint): the log must "
                        "hold its tree size with the same root")
    v.add_argument("--json", action="store_true", help="machine-readable report")
    v.add_argument("--require-cosigned", action="store_true",
                   help="fail unless every seat cosigned the final checkpoint (SPEC.md 4.5)")
    v.add_argument("--no-replay", action="store_true", help="skip re-executing the rules")
    v.add_argument("--min-version", type=int, metavar="N",
                   help="fail (exit 1, step 2 at record 0) a log whose format version is below N; the newest "
                        "format guarantees most (SPEC.md 11)")
    v.add_argument("--jobs", choices=("auto", "1", "2"), default="auto",
                   help="processes: 2 computes the signature checks ahead in a second process and runs the "
                        "rules replay in a third, beside the other checks (same result); 1 stays in one; auto "
                        f"(default) uses 2 for a log of at least {PARALLEL_MIN_RECORDS} records on a machine "
                        "with two cores")
    v.set_defaults(func=cmd_verify)
    from .backup_cmd import register as register_backup
    from .commands import register as register_client_and_service
    from .evidence import register as register_evidence
    from .explain import register as register_explain
    from .keys import register as register_keys
    from .league.verify import register as register_league
    from .league.commands import register as register_league_cmds
    from .league.demo import register as register_league_demo
    from .league.view import register as register_league_view
    from .render_cmd import register as register_render
    from .view import register as register_view

    for register in (register_client_and_service, register_keys, register_render, register_evidence, register_explain,
                     register_view, _league_group(register_league, register_league_view, register_league_demo,
                                                    register_league_cmds), register_backup, *_EXTRA):
        register(sub)
    return p


def _league_group(register_league, *members):
    def register(sub) -> None:
        lsub = register_league(sub)
        for m in members:
            m(lsub)
    return register


# Other modules add subcommands here (service, client): functions taking the subparsers object.
_EXTRA: list = []


def main(argv: list[str] | None = None) -> int:
    p = build_parser()
    try:
        args, extra = p.parse_known_args(argv)
        if extra:  # named by the subcommand, not by the top-level parser
            prog = f"aar {' '.join(x for x in (getattr(args, 'command', None), getattr(args, 'key_command', None)) if x)}"
            print(f"{prog}: unrecognized arguments: {_one_line(' '.join(extra))[:200]} (see {prog} --help)",
                  file=sys.stderr)
            return 2
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        return args.func(args)
    except SystemExit as e:  # a subcommand's own exit (its message already printed)
        return e.code if isinstance(e.code, int) else 2
    except KeyboardInterrupt:
        return 130
    except BaseException as e:  # noqa: BLE001 - never a traceback: one line, exit 2
        from .serve_cmd import redact_urls

        print(f"aar {args.command}: {_one_line(redact_urls(error_line(e)))}", file=sys.stderr)
        return 2


def error_line(e: BaseException) -> str:
    """What went wrong, in one line for the user: the server's refusal (its code, reason and
    message), a file that cannot be read, a bad key, or (last) the exception's type and text."""
    import grpc

    from .keys import KeyArgError

    if isinstance(e, (AfteractionError, KeyArgError)):
        return str(e)
    if isinstance(e, grpc.RpcError) and hasattr(e, "code"):
        code = e.code()
        if code == grpc.StatusCode.UNAVAILABLE:
            return f"the server is unreachable ({e.details()})"
        return f"the server refused: {code.name}: {e.details()}"
    if isinstance(e, OSError):
        where = f"{e.filename}: " if e.filename else ""
        return f"{where}{e.strerror or e}"
    if isinstance(e, (ValueError, TypeError, KeyError)):
        return f"bad input: {e}"
    return f"unexpected error ({type(e).__name__}: {e})"


if __name__ == "__main__":
    sys.exit(main())
