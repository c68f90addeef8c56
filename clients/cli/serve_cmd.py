"""`aar serve`: its flags checked before anything starts (each bad one a one-line error, exit 2),
then where the store and the key are and whether this start created them (docs/service.md)."""
from __future__ import annotations

import os
import re
import sys

from .common import default_data_dir

DEFAULT_PORT = 50051
MAX_WORKERS = 64  # server processes on one port; more than cores only adds contention


class ServeFlagError(ValueError):
    pass


def parse_listen(value: str) -> tuple[str, int]:
    """HOST, HOST:PORT, [IPV6] or [IPV6]:PORT; a HOST alone means port 50051; port 0 picks a free one."""
    v = value.strip()
    m = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?", v) or re.fullmatch(r"([A-Za-z0-9.\-_]+)(?::(\d{1,5}))?", v)
    if not m:
        raise ServeFlagError(f"--listen {value[:80]!r}: expected HOST or HOST:PORT (e.g. 127.0.0.1:50051, "
                             f"0.0.0.0:50051 for every interface, [::1]:50051)")
    port = int(m.group(2)) if m.group(2) is not None else DEFAULT_PORT
    if port > 65535:
        raise ServeFlagError(f"--listen {value[:80]!r}: port {port} is not a TCP port (0-65535)")
    host = m.group(1)
    return (f"[{host}]" if ":" in host else host), port


def redact(spec: str) -> str:
    """A store spec as it may be printed or logged: a PostgreSQL URL's password replaced by ***."""
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:/@]*:)[^@]*@", r"\1***@", spec)


def redact_urls(text: str) -> str:
    """Any URL's password in a message replaced by *** (a database driver's error may quote its DSN)."""
    from afteraction.service.logs import redact_urls as redact

    return redact(text)


def check_store(spec: str | None) -> None:
    if spec is None:
        return
    if not (spec.startswith("sqlite:") and len(spec) > len("sqlite:")) and not spec.startswith(
            ("postgresql://", "postgres://")):
        raise ServeFlagError(f"--store {redact(spec)[:80]!r}: expected sqlite:PATH or postgresql://USER@HOST:PORT/DB")


def check_postgres(spec: str | None) -> None:
    """A PostgreSQL store that cannot be reached (or refuses the login): one line, the password
    never shown, before the data directory or the keys are made."""
    if not spec or not spec.startswith(("postgresql://", "postgres://")):
        return
    try:
        import psycopg
    except ImportError:
        raise ServeFlagError("--store postgresql://...: the PostgreSQL store needs psycopg 3: "
                             "pip install 'afteraction[postgres]'") from None
    from afteraction.service.store_postgres import one_line

    try:
        psycopg.connect(spec, connect_timeout=10).close()
    except psycopg.Error as e:
        raise ServeFlagError(f"--store {redact(spec)[:120]}: cannot connect: {redact_urls(one_line(e))}") from None


def key_state(path: str, name: str) -> str:
    """'existing' or 'new' for the server key file; ServeFlagError when it cannot be the key."""
    from afteraction.engine.crypto.note import parse_skey
    from afteraction.engine.errors import CryptoError
    from afteraction.service.keyring import read_ring
    from afteraction.service.store import StoreError

    from .keys import KeyArgError, read_text

    if not os.path.exists(path):
        return "new"
    try:
        text = read_text(path, "--key")
        for line in text.splitlines() or [""]:  # a key ring: one key a line, oldest first (service/keyring.py)
            signer = parse_skey(line.strip())
        read_ring(path)  # and its key history agrees
    except KeyArgError as e:
        raise ServeFlagError(str(e)) from None
    except CryptoError:
        raise ServeFlagError(f"--key: {path} is not a server key file (PRIVATE+KEY+NAME+ID+BASE64)") from None
    except StoreError as e:
        raise ServeFlagError(f"--key: {e}") from None
    if signer.name != name:
        raise ServeFlagError(f"--key-name {name}: the key in {path} is named {signer.name}; a key's name is part "
                             f"of its verifier key, so it cannot change (use --key-name {signer.name}, or a new key file)")
    return "existing"


def _web_flags(args, host: str, port: int) -> str | None:
    """``--web-listen`` and ``--web-origin`` checked (ServeFlagError): the web port's HOST:PORT, or None."""
    if args.web_origin and not args.web_listen:
        raise ServeFlagError("--web-origin needs --web-listen")
    if not args.web_listen:
        return None
    if args.workers > 1:
        raise ServeFlagError("--web-listen runs in one process: not with --workers")
    wh, wp = parse_listen(args.web_listen)
    if not re.search(r"(^|[^:]):\d{1,5}$", args.web_listen.strip()):
        raise ServeFlagError(f"--web-listen {args.web_listen[:80]!r}: give a port too, e.g. "
                             f"{args.web_listen.strip()[:64]}:8080 (a HOST alone would mean port "
                             f"{DEFAULT_PORT}, the gRPC port's default)")
    if wp != 0 and (wh, wp) == (host, port):
        raise ServeFlagError(f"--web-listen {wh}:{wp}: the same address as --listen; the web port "
                             f"needs its own, e.g. {wh}:8080")
    for o in args.web_origin or ():
        if not re.fullmatch(r"https?://[A-Za-z0-9.\-_\[\]:]+", o.rstrip("/")):
            raise ServeFlagError(f"--web-origin {o[:80]!r}: an origin is scheme://host[:port] "
                                 "(e.g. https://ui.example.org), no path")
    return f"{wh}:{wp}"


def cmd_serve(args) -> int:
    from afteraction.service.keyring import DEFAULT_NAME

    if args.key_name is None:
        args.key_name = DEFAULT_NAME
    try:
        host, port, web_listen, metrics_at, data_dir, key, kstate = _checked_flags(args)
    except ServeFlagError as e:
        print(f"aar serve: {e}", file=sys.stderr)
        return 2
    store_path = os.path.join(data_dir, "afteraction.sqlite") if args.store is None else None
    sstate = ("new" if not os.path.exists(store_path) else "existing") if store_path else None
    listen = f"{host}:{port}"
    from afteraction.service.logs import configure

    configure(args.log_format)

    def started(at_port, tls, vkey) -> None:
        _started(host, at_port, tls, vkey, key, kstate, args.store, store_path, sstate, data_dir)

    if args.workers > 1:  # N processes on one port (SO_REUSEPORT); see service/workers.py
        from afteraction.service.workers import serve_workers, wait_workers

        w = serve_workers(args.workers, listen, args.store, key, data_dir, args.tls_cert, args.tls_key,
                          name=args.key_name, metrics=metrics_at is not None, log_format=args.log_format)
        started(w.port, bool(args.tls_cert), w.vkey)
        if metrics_at:
            _metrics(metrics_at, w.metrics_dir)
        return wait_workers(w)
    from afteraction.service.server import serve_forever, start

    page = None
    if web_listen:  # the web client's page and board drawings beside the web RPCs (docs/service.md "Browsers")
        from .webpage import WebPage

        page = WebPage()
    if metrics_at:
        from afteraction.service import metrics

        metrics.enable()
    run = start(listen, args.store, key, data_dir, name=args.key_name, tls_cert=args.tls_cert, tls_key=args.tls_key,
                web_listen=web_listen, web_origins=tuple(o.rstrip("/") for o in args.web_origin or ()), web_page=page)
    if page is not None:
        page.attach(run.service)   # the league pages, /league/... (clients/cli/league/web.py)
    started(run.port, run.tls, run.vkey)
    _web_started(run, web_listen)
    if metrics_at:
        _metrics(metrics_at, None)
    serve_forever(run)
    return 0


def _checked_flags(args) -> tuple:
    """Every flag checked before anything starts (ServeFlagError names the one that is wrong):
    (host, port, web listen or None, metrics (host, port) or None, data dir, key file, its state)."""
    from afteraction.engine.crypto.note import valid_key_name

    host, port = parse_listen(args.listen)
    if not 1 <= args.workers <= MAX_WORKERS:
        raise ServeFlagError(f"--workers {args.workers}: between 1 and {MAX_WORKERS}")
    if not valid_key_name(args.key_name) or len(args.key_name) > 255:
        raise ServeFlagError(f"--key-name {args.key_name[:80]!r}: a key name has no '+' and no spaces "
                             f"(C2SP signed-note; use the server's origin, e.g. games.example.org)")
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ServeFlagError("--tls-cert and --tls-key go together")
    check_store(args.store)
    from afteraction.service.server import check_tls, listen_problem
    from afteraction.service.store import StoreError

    if args.tls_cert:
        try:
            check_tls(args.tls_cert, args.tls_key)
        except StoreError as e:
            raise ServeFlagError(str(e)) from None
    web_listen = _web_flags(args, host, port)
    wh, wp = parse_listen(web_listen) if web_listen else (None, None)
    metrics_at = None
    if args.metrics_listen:
        mh, mp = parse_listen(args.metrics_listen)
        if not re.search(r"(^|[^:]):\d{1,5}$", args.metrics_listen.strip()):
            raise ServeFlagError(f"--metrics-listen {args.metrics_listen[:80]!r}: give a port too, e.g. "
                                 f"{args.metrics_listen.strip()[:64]}:9464")
        metrics_at = (mh, mp)
    for flag, (h, p) in (("--listen", (host, port)),
                         *((("--web-listen", (wh, wp)),) if web_listen else ()),
                         *((("--metrics-listen", metrics_at),) if metrics_at else ())):
        why = listen_problem(h, p, flag)
        if why is not None:
            raise ServeFlagError(why)
    data_dir = args.data_dir or default_data_dir()
    key = args.key or os.path.join(data_dir, "server.key")
    kstate = key_state(key, args.key_name)
    check_postgres(args.store)
    return host, port, web_listen, metrics_at, data_dir, key, kstate


def _web_started(run, web_listen) -> None:
    """The web port's line, when it listens."""
    if run.web is not None:
        web = f"{web_listen.rsplit(':', 1)[0]}:{run.web_port}"
        print(f"web (Connect, gRPC-Web; plain HTTP) on {web}: play at http://{web}/, leagues at http://{web}/league/",
              flush=True)


def _metrics(at, multiproc_dir) -> None:
    """The Prometheus endpoint (docs/operations.md), and its line."""
    from afteraction.service import metrics

    _, port = metrics.serve(at[0], at[1], multiproc_dir)
    print(f"metrics (Prometheus) on http://{at[0]}:{port}/metrics", flush=True)


def _started(host, port, tls, vkey, key, kstate, store, store_path, sstate, data_dir) -> None:
    print(f"afteraction server listening on {host}:{port}{' (TLS)' if tls else ''}", flush=True)
    print(f"server key: {vkey}", flush=True)
    made = "created now: publish this verifier key" if kstate == "new" else "existing"
    print(f"key file: {os.path.abspath(key)} ({made})", flush=True)
    if store_path:
        print(f"store: sqlite:{os.path.abspath(store_path)} ({'created now' if sstate == 'new' else 'existing'})",
              flush=True)
    else:
        print(f"store: {redact(store)}", flush=True)
    print(f"data dir: {os.path.abspath(data_dir)}", flush=True)
    league = os.path.join(os.path.dirname(os.path.abspath(key)), "league.key")   # service/league/manager.py
    if os.path.exists(league):
        from afteraction.engine.crypto.note import parse_skey

        with open(league) as f:
            print(f"league key: {parse_skey(f.read().strip()).verifier.vkey} ({league}; it signs the league ledgers)",
                  flush=True)


def register_serve(p) -> None:
    p.add_argument("--listen", default=f"127.0.0.1:{DEFAULT_PORT}",
                   help=f"HOST or HOST:PORT to listen on (default 127.0.0.1:{DEFAULT_PORT}; HOST alone means "
                        f"port {DEFAULT_PORT}; port 0 picks a free one)")
    p.add_argument("--store", help="sqlite:PATH or postgresql://... (default: SQLite under --data-dir)")
    p.add_argument("--key", help="server signing key file (default DATA_DIR/server.key; made on first start)")
    # the default is service/keyring.py's DEFAULT_NAME, read when `aar serve` runs: registering the
    # subcommand imports nothing from the service (an offline `aar verify` loads none of it)
    p.add_argument("--key-name", default=None,
                   help="the server key's name, best the server's origin (default afteraction.local); "
                        "fixed when the key is made")
    p.add_argument("--data-dir", default=None,
                   help="where the default store and key live (default: $AAR_DATA_DIR, else "
                        "$XDG_DATA_HOME/afteraction, else ~/.local/share/afteraction)")
    p.add_argument("--workers", type=int, default=1,
                   help="server processes sharing the listening port (SO_REUSEPORT) and the store (default 1)")
    p.add_argument("--tls-cert", help="PEM certificate chain: serve TLS (with --tls-key) instead of plaintext")
    p.add_argument("--tls-key", help="PEM private key of --tls-cert")
    p.add_argument("--web-listen", metavar="HOST:PORT",
                   help="also serve browsers there: the RPCs over Connect and gRPC-Web (Play excepted) and the "
                        "web client at / (plain HTTP; docs/service.md 'Browsers')")
    p.add_argument("--metrics-listen", metavar="HOST:PORT",
                   help="serve Prometheus metrics at http://HOST:PORT/metrics (every worker of --workers counted; "
                        "docs/operations.md lists them); off by default")
    p.add_argument("--log-format", choices=("text", "json"), default="text",
                   help="the log lines on standard error: text (default) or json, one object per line with the "
                        "incident id of every internal error (docs/operations.md)")
    p.add_argument("--web-origin", action="append", metavar="ORIGIN",
                   help="an origin (scheme://host[:port]) whose pages may call the web port (CORS); repeat for "
                        "several; none by default")
    p.set_defaults(func=cmd_serve)
