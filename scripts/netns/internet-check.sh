#!/usr/bin/env bash
# Checks scripts/netns/internet.sh end to end (a ctest, label integration; root): two public hosts, two
# homes and a firewalled host; a real nginx serves on a public host, a home host and the firewalled host,
# curl asks. It must hold that
#   - a home reaches a public host, which sees the home router's address (masquerade), never the home's;
#   - nobody reaches a home from outside: not a public host (by the router's address or the home's), not
#     another home;
#   - public hosts reach each other;
#   - nobody reaches the firewalled host, which reaches the public ones;
#   - each line is shaped as asked (tbf at the given rates), and a download to a home does not beat its
#     downlink (it may be slower: the machine is shared; the rate is printed with its ratio);
#   - without root it refuses with a message, and `down` leaves no namespace behind.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
harness="$here/internet.sh"
prefix=ichk
work=$(mktemp -d)
failures=0
pids=()

cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    "$harness" down "$prefix" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

check() { # description command...
    local what=$1
    shift
    if "$@"; then
        echo "ok: $what"
    else
        echo "FAILED: $what"
        failures=$((failures + 1))
    fi
}
fails() { ! "$@"; }

# Without root: a clear refusal, nothing created.
refusal=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$harness" up "$prefix" public:1/1 2>&1 || true)
check "without root it refuses and says why" grep -q "needs root" <<<"$refusal"

"$harness" up "$prefix" public:1000/1000 public:100/100 home:20/5 home:50/10 firewalled:100/100 >"$work/hosts"
cat "$work/hosts"
address_of() { awk -v n="$1" 'NR == n {print $2}' "$work/hosts"; }
wan_of() { awk -v n="$1" 'NR == n {print $6}' "$work/hosts"; }

# nginx in a namespace, serving $work/www on port 8080 of every address there.
serve() { # namespace name
    mkdir -p "$work/$2"
    cat >"$work/$2/nginx.conf" <<EOF
user root;
worker_processes 1;
daemon off;
pid $work/$2/nginx.pid;
error_log $work/$2/error.log;
events { worker_connections 64; }
http {
    access_log $work/$2/access.log;
    client_body_temp_path $work/$2;
    proxy_temp_path $work/$2;
    fastcgi_temp_path $work/$2;
    uwsgi_temp_path $work/$2;
    scgi_temp_path $work/$2;
    server { listen 8080; root $work/www; }
}
EOF
    ip netns exec "$1" /usr/sbin/nginx -c "$work/$2/nginx.conf" &
    pids+=($!)
}
mkdir -p "$work/www"
head -c 4000000 /dev/urandom >"$work/www/blob"
serve "$prefix-p1" public
serve "$prefix-h3" home
serve "$prefix-p5" firewalled
for _ in $(seq 50); do
    [[ -s $work/public/nginx.pid && -s $work/home/nginx.pid && -s $work/firewalled/nginx.pid ]] && break
    sleep 0.1
done

get() { # namespace url [curl options...]
    local ns=$1 url=$2
    shift 2
    ip netns exec "$ns" curl -sS -o /dev/null --connect-timeout 3 --max-time 20 "$@" "$url"
}

check "a home reaches a public host" get "$prefix-h3" "http://$(address_of 1):8080/blob"
check "the public host sees the home router's address" grep -q "^$(wan_of 3) " "$work/public/access.log"
check "public hosts reach each other" get "$prefix-p2" "http://$(address_of 1):8080/blob"
check "a public host cannot dial a home by its router's address" fails get "$prefix-p1" "http://$(wan_of 3):8080/blob"
check "a public host cannot dial a home by its own address" fails get "$prefix-p1" "http://$(address_of 3):8080/blob"
check "another home cannot dial a home" fails get "$prefix-h4" "http://$(wan_of 3):8080/blob"
# Even packets for the home's own network that reach its router (the Internet routing them there, as a
# careless provider might) are kept out: the router forwards inward only what belongs to a connection the
# home started.
ip -n "$prefix-net" route add 192.168.3.0/24 via "$(wan_of 3)" dev "b${prefix}3"
check "a host routing through the home's router cannot dial the home" fails get "$prefix-p2" "http://$(address_of 3):8080/blob"
check "the home's server was asked nothing" test ! -s "$work/home/access.log"
check "a firewalled host reaches a public host" get "$prefix-p5" "http://$(address_of 1):8080/blob"
check "a public host cannot dial a firewalled host" fails get "$prefix-p1" "http://$(address_of 5):8080/blob"
check "the firewalled host's server was asked nothing" test ! -s "$work/firewalled/access.log"

rate_of() { ip netns exec "$1" tc qdisc show dev "$2" | grep -o 'rate [0-9]*[KMG]bit' | head -1; }
check "home 3's downlink is 20 Mbit/s" test "$(rate_of "$prefix-net" b${prefix}3)" = "rate 20Mbit"
check "home 3's uplink is 5 Mbit/s" test "$(rate_of "$prefix-r3" w${prefix}3)" = "rate 5Mbit"
check "public host 2's links are 100 Mbit/s" test "$(rate_of "$prefix-p2" w${prefix}2)" = "rate 100Mbit"

# The download's rate against the downlink: at most the line's rate (and its burst) in bits per second.
speed=$(get "$prefix-h3" "http://$(address_of 1):8080/blob" -w '%{speed_download}')
awk -v bps="$speed" 'BEGIN { printf "download to home 3: %.1f Mbit/s, %.2f of its 20 Mbit/s downlink\n", bps * 8 / 1e6, bps * 8 / 20e6 }'
check "the download does not beat the downlink" awk -v bps="$speed" 'BEGIN { exit !(bps * 8 <= 1.2 * 20e6) }'

"$harness" down "$prefix"
check "down leaves no namespace" test -z "$(ip netns list | grep -E "^$prefix-" || true)"

if ((failures > 0)); then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
