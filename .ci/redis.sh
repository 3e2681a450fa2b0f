# Sourced by .ci/run before `npm test`: makes a Redis available to the Redis-backed suites by
# exporting REDIS_URL. Order: the server answering on $REDIS_URL, else on 127.0.0.1:6379, else
# Debian's redis-server (installed when missing) started on a free port. It never fails the run:
# without a Redis, REDIS_URL stays unset and the Redis suites report themselves skipped.
# Tests use their own key prefixes and delete their keys; nothing here flushes a shared server.

_ci_redis_ping() {
  # PING with the project's own client (redis-cli may not be installed); 2 s at most.
  node -e '
    const { createClient } = require("redis");
    const c = createClient({ url: process.argv[1], socket: { connectTimeout: 2000, reconnectStrategy: false } });
    c.on("error", () => {});
    const t = setTimeout(() => process.exit(1), 2500);
    c.connect().then(() => c.ping()).then((r) => { clearTimeout(t); c.destroy(); process.exit(r === "PONG" ? 0 : 1); }, () => process.exit(1));
  ' "$1" >/dev/null 2>&1
}

_ci_redis_setup() {
  local candidate
  for candidate in "${REDIS_URL:-}" "redis://127.0.0.1:6379"; do
    if [ -n "$candidate" ] && _ci_redis_ping "$candidate"; then
      export REDIS_URL="$candidate"
      echo "redis: using the server answering on ${candidate%%@*}"
      return 0
    fi
  done
  if ! command -v redis-server >/dev/null 2>&1; then
    local sudo=""
    if [ "$(id -u)" != "0" ]; then
      if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
        echo "redis: no server answers and redis-server cannot be installed (not root): Redis suites will be skipped"
        return 0
      fi
    fi
    echo "redis: installing Debian's redis-server"
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server; } >/dev/null 2>&1; then
      echo "redis: apt-get install redis-server failed: Redis suites will be skipped"
      return 0
    fi
  fi
  local port
  port="$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')" || return 0
  if ! redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes --pidfile "/tmp/ci-redis-$port.pid" >/dev/null 2>&1; then
    echo "redis: redis-server did not start: Redis suites will be skipped"
    return 0
  fi
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do
    if _ci_redis_ping "redis://127.0.0.1:$port"; then
      export REDIS_URL="redis://127.0.0.1:$port"
      CI_REDIS_PIDFILE="/tmp/ci-redis-$port.pid"
      trap 'if [ -n "${CI_REDIS_PIDFILE:-}" ] && [ -f "$CI_REDIS_PIDFILE" ]; then kill "$(cat "$CI_REDIS_PIDFILE")" 2>/dev/null || true; fi' EXIT
      echo "redis: started redis-server on 127.0.0.1:$port"
      return 0
    fi
    sleep 0.5
  done
  echo "redis: redis-server on port $port does not answer: Redis suites will be skipped"
  return 0
}

_ci_redis_setup || true
