"""What every FastAPI producer server does beside its framework's endpoint:
a `/versions` route the report records (which package versions produced the
stream), and the `python server.py [PORT]` entry point serve.sh starts."""

import sys
from importlib.metadata import version


def add_versions(app, packages) -> None:
    """`GET /versions`: each of `packages` with its installed version."""

    @app.get("/versions")
    def versions():
        return {p: version(p) for p in packages}


def main(build_app, default_port: int) -> None:
    """Serves `build_app()` on 127.0.0.1 at argv[1], else `default_port`."""
    import uvicorn

    port = int(sys.argv[1]) if len(sys.argv) > 1 else default_port
    uvicorn.run(build_app(), host="127.0.0.1", port=port, log_level="warning")
