"""`python -m tests.pyodide.serve_vitals`: the badseo vitals site and its PSI double on 127.0.0.1
until killed; prints `serving <site origin> <PSI endpoint>` once both listen."""

from __future__ import annotations

import threading

from tests.badseo.vitals_site import serve_vitals


def main() -> None:
    with serve_vitals() as (site, psi):
        print(f"serving {site.origin} {psi.endpoint}", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
