#!/usr/bin/env bash
# A throw-away PostgreSQL server for the tests (Debian's postgresql): `start DIR` makes a cluster in DIR, starts it
# on a free loopback port and prints its URL; `stop DIR` stops it. The cluster runs as the `postgres` user (initdb
# refuses root), trusts loopback connections and is deleted by `stop`.
#
#   url=$(scripts/test-postgres.sh start /tmp/ptcoach-pg) ... scripts/test-postgres.sh stop /tmp/ptcoach-pg
set -euo pipefail
action=${1:?usage: test-postgres.sh start|stop DIR}
dir=${2:?usage: test-postgres.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -x $bin/initdb ]] || { echo "test-postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 2; }
as_postgres() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case $action in
start)
    rm -rf "$dir" && mkdir -p "$dir"
    [[ $(id -u) == 0 ]] && chown postgres "$dir"
    as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres ptcoach_test
    echo "postgres://postgres@127.0.0.1:$port/ptcoach_test?sslmode=disable"
    ;;
stop)
    [[ -d $dir/data ]] && as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
esac
