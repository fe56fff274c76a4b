#!/usr/bin/env bash
# Starts and stops a producer server of adapters/producers/ (the one copy of
# this, for scripts/producers-report.sh and smoke.py).
#
#   adapters/producers/serve.sh start NAME PORT DIR
#       start NAME/server.py on 127.0.0.1:PORT in its own session (log in
#       DIR/NAME.server.log, process id in DIR/NAME.pid), wait until its
#       GET /versions answers (up to 180 s) and save that answer as
#       DIR/NAME.versions.json. Exit 0 when it is up; 1 when it is not
#       installed or did not come up (then it is stopped again).
#   adapters/producers/serve.sh stop NAME DIR
#       end the server's whole process group (TERM, then KILL after 10 s);
#       exit 1 only if it is still there after that.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

stop() { # NAME DIR
  local pidfile="$2/$1.pid" pid
  [ -f "$pidfile" ] || return 0
  pid="$(cat "$pidfile")"
  rm -f "$pidfile"
  kill -TERM -- "-$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 -- "-$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2>/dev/null || return 0
  sleep 0.5
  ! kill -0 -- "-$pid" 2>/dev/null
}

start() { # NAME PORT DIR
  local name="$1" port="$2" dir="$3"
  local python="$here/$name/.venv/bin/python"
  if [ ! -x "$python" ]; then
    echo "not installed (adapters/producers/install.sh $name)" >&2
    return 1
  fi
  mkdir -p "$dir"
  (cd "$root" && exec setsid "$python" "$here/$name/server.py" "$port" >"$dir/$name.server.log" 2>&1 </dev/null) &
  echo $! >"$dir/$name.pid"
  for _ in $(seq 1 360); do
    if ! kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null; then
      echo "the server exited (see $dir/$name.server.log)" >&2
      rm -f "$dir/$name.pid"
      return 1
    fi
    if curl -fsS --max-time 5 "http://127.0.0.1:$port/versions" -o "$dir/$name.versions.json" 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  echo "the server did not come up in 180 s (see $dir/$name.server.log)" >&2
  stop "$name" "$dir"
  return 1
}

case "${1:-}" in
  start) [ $# -eq 4 ] || { echo "usage: serve.sh start NAME PORT DIR" >&2; exit 2; }; start "$2" "$3" "$4" ;;
  stop) [ $# -eq 3 ] || { echo "usage: serve.sh stop NAME DIR" >&2; exit 2; }; stop "$2" "$3" ;;
  *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
