"""One concurrent writer process: records N distinct decisions through a server.

    python _writer.py REPO SERVER_URL NAMESPACE N PREFIX [TOKEN]

Prints the ids it recorded, one per line, and logs to stderr each time a
vector query met the server's index being built and was asked again.
"""

from __future__ import annotations

import logging
import random
import sys

import memvet


def main(repo: str, url: str, namespace: str, n: int, prefix: str, token: str | None = None) -> None:
    ledger = memvet.Ledger.open(repo, server=url, token=token, namespace=namespace,
                                embedding=memvet.HashingEmbedder(), disk_cache=False)
    rnd = random.Random(prefix)
    for i in range(n):
        words = " ".join(f"{rnd.getrandbits(40):x}" for _ in range(8))
        result = ledger.record(f"{prefix} decision {i}: {words}")
        if result.outcome != "recorded":
            raise SystemExit(f"{prefix} {i}: {result.outcome}")
        print(result.id, flush=True)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    logging.getLogger("memvet._store").setLevel(logging.INFO)
    args = sys.argv[1:]
    main(args[0], args[1], args[2], int(args[3]), args[4], args[5] if len(args) > 5 else None)
