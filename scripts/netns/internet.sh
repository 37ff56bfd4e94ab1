#!/usr/bin/env bash
# An emulated Internet out of Linux network namespaces, for collaborations across hosts: an "Internet"
# namespace routes between hosts; public hosts plug into it with a public address; each home host sits
# behind a home router of its own that masquerades its traffic (nftables) and lets nothing in that the home
# did not start; a firewalled host has a public address but drops every TCP connection others open to it (a
# host firewall). Every host's downlink and uplink are shaped with tc tbf to its own rates: a public host's
# on its line to the Internet, a home's on its router's line (a home line is asymmetric: e.g. 100/20).
# Only addresses inside these namespaces are used: public 10.79.0.0/16 (hosts 10.79.1.N, home routers'
# WAN side 10.79.2.N, the Internet's side of every line 10.79.0.1), homes 192.168.N.0/24 (the host .2, its
# router .1).
#
# Routed, not bridged: each line is a point-to-point link whose far end is the Internet namespace, as a
# real host's is its provider's router. On one bridged segment every host would keep a neighbour (ARP) entry
# for every other, and the kernel's neighbour table is shared by all namespaces (gc_thresh3: 1024 entries):
# past about 32 hosts it overflows, SYNs go unanswered until entries age out, and connections open seconds
# late (seen: all-reduce rounds of 37 and more peers never complete). Routed, each host keeps one entry (its
# line's far end) and the Internet one per host.
#
# Usage (as root):
#   scripts/netns/internet.sh up PREFIX HOST...   HOST is public:DOWN/UP, firewalled:DOWN/UP or
#                                                 home:DOWN/UP, rates in Mbit/s
#                                                 (0: unshaped); at most 200 hosts
#   scripts/netns/internet.sh down PREFIX
#   scripts/netns/internet.sh renumber PREFIX N ADDRESS   host N's public address (a public host's own, a
#                                                 home's router's) becomes ADDRESS (10.79.x.y), as a
#                                                 provider renumbers a line; its connections die
# `up` tears down what PREFIX had first, then prints one line per host:
#   "namespace address kind down_mbit up_mbit public_address"
# (for a home host, its address is private and public_address is its router's). Run a program on a host
# with `ip netns exec NAMESPACE program...`.
# Namespaces: PREFIX-net (the Internet), PREFIX-pN (public or firewalled host N), PREFIX-hN (home host N) and PREFIX-rN
# (its router), N counting hosts from 1 in the order given.
set -euo pipefail

usage() {
    echo "usage: $0 up PREFIX public:DOWN/UP|firewalled:DOWN/UP|home:DOWN/UP...  |  $0 down PREFIX  |" \
        "$0 renumber PREFIX N ADDRESS" >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
action=$1
prefix=$2
shift 2
if [[ $(id -u) -ne 0 ]]; then
    echo "$0: needs root (it creates network namespaces, NAT rules and traffic shaping): run it with sudo" >&2
    exit 1
fi
if [[ ! $prefix =~ ^[a-z][a-z0-9]{0,5}$ ]]; then
    echo "$0: PREFIX must be 1-6 lowercase letters or digits, starting with a letter" >&2
    exit 2
fi

down() {
    for ns in $(ip netns list | awk '{print $1}' | grep -E "^$prefix-(net|[phr][0-9]+)$" || true); do
        ip netns delete "$ns"
    done
    # A setup interrupted between creating a veth pair and moving its ends leaves them here.
    for link in $(ip -o link show | awk -F': ' '{print $2}' | cut -d@ -f1 | grep -E "^[a-z]$prefix[0-9]+[a-z]?$" || true); do
        ip link delete "$link" 2>/dev/null || true
    done
}

# The Internet's side of every line: each host's gateway.
gateway=10.79.0.1

# A host's public end of its line (namespace device) and its Internet end: `route` gives that host the
# address, `unroute` takes it away.
route() { # namespace device internet_device address
    ip -n "$1" addr add "$4/32" dev "$2"
    ip -n "$1" route replace "$gateway/32" dev "$2"
    ip -n "$1" route replace default via "$gateway" dev "$2"
    ip -n "$prefix-net" route replace "$4/32" dev "$3"
}
unroute() { # namespace device internet_device address
    ip -n "$1" addr del "$4/32" dev "$2"
    ip -n "$prefix-net" route del "$4/32" dev "$3"
}

case $action in
down)
    [[ $# -eq 0 ]] || usage
    down
    exit 0
    ;;
renumber)
    [[ $# -eq 2 && $1 =~ ^[0-9]+$ && $2 =~ ^10\.79\.[0-9]+\.[0-9]+$ ]] || usage
    if ip netns list | grep -q "^$prefix-p$1\b"; then
        ns="$prefix-p$1"
    elif ip netns list | grep -q "^$prefix-r$1\b"; then
        ns="$prefix-r$1"
    else
        echo "$0: no host $1 under $prefix" >&2
        exit 1
    fi
    old=$(ip -n "$ns" -4 -o addr show dev "w$prefix$1" | awk '{print $4}' | cut -d/ -f1)
    unroute "$ns" "w$prefix$1" "b$prefix$1" "$old"
    route "$ns" "w$prefix$1" "b$prefix$1" "$2"
    exit 0
    ;;
up) [[ $# -ge 1 ]] || usage ;;
*) usage ;;
esac
if [[ $# -gt 200 ]]; then
    echo "$0: at most 200 hosts" >&2
    exit 2
fi
for tool in ip tc nft; do
    if ! command -v "$tool" >/dev/null; then
        echo "$0: '$tool' is missing: run scripts/setup.sh (it installs iproute2 and nftables)" >&2
        exit 1
    fi
done
for host in "$@"; do
    if [[ ! $host =~ ^(public|firewalled|home):[0-9]+/[0-9]+$ ]]; then
        echo "$0: host '$host' is not public:DOWN/UP, firewalled:DOWN/UP or home:DOWN/UP (whole Mbit/s)" >&2
        exit 2
    fi
done

down
trap 'down' ERR

# tbf needs a bucket of at least one timer tick of traffic: 64 KiB or 10 ms of the rate, the larger.
shape() { # namespace device rate_mbit
    (($3 > 0)) || return 0
    local burst=$(($3 * 1000000 / 8 / 100))
    ((burst < 65536)) && burst=65536
    ip netns exec "$1" tc qdisc replace dev "$2" root tbf rate "${3}mbit" burst "$burst" latency 100ms
}

# A veth pair with one end in each namespace, both up.
link() { # namespace_a device_a namespace_b device_b
    ip link add "$2" type veth peer name "$4"
    ip link set "$2" netns "$1"
    ip link set "$4" netns "$3"
    ip -n "$1" link set "$2" up
    ip -n "$3" link set "$4" up
}

net="$prefix-net"
ip netns add "$net"
ip -n "$net" link set lo up
ip netns exec "$net" sysctl -q -w net.ipv4.ip_forward=1
# The Internet's end of a host's line: the gateway's address, and the route to the host's.
line() { # host_namespace host_device internet_device address
    ip -n "$net" addr add "$gateway/32" dev "$3"
    route "$@"
}

index=0
for host in "$@"; do
    index=$((index + 1))
    kind=${host%%:*}
    rates=${host#*:}
    downlink=${rates%/*}
    uplink=${rates#*/}
    if [[ $kind != home ]]; then
        ns="$prefix-p$index"
        address="10.79.1.$index"
        ip netns add "$ns"
        ip -n "$ns" link set lo up
        link "$ns" "w$prefix$index" "$net" "b$prefix$index"
        line "$ns" "w$prefix$index" "b$prefix$index" "$address"
        shape "$ns" "w$prefix$index" "$uplink"
        shape "$net" "b$prefix$index" "$downlink"
        if [[ $kind == firewalled ]]; then
            # New TCP connections from outside are dropped, not refused: a dial meets silence. UDP (the DHT)
            # and what the host started pass.
            ip netns exec "$ns" nft -f - <<EOF
table inet firewall {
    chain input {
        type filter hook input priority filter; policy accept;
        iifname "w$prefix$index" meta l4proto tcp ct state new drop
    }
}
EOF
        fi
        echo "$ns $address $kind $downlink $uplink $address"
        continue
    fi
    ns="$prefix-h$index"
    router="$prefix-r$index"
    address="192.168.$index.2"
    wan="10.79.2.$index"
    ip netns add "$ns"
    ip netns add "$router"
    ip -n "$ns" link set lo up
    ip -n "$router" link set lo up
    # The home: its only route is its router.
    link "$ns" "l$prefix${index}h" "$router" "l$prefix${index}r"
    ip -n "$ns" addr add "$address/24" dev "l$prefix${index}h"
    ip -n "$ns" route add default via "192.168.$index.1"
    ip -n "$router" addr add "192.168.$index.1/24" dev "l$prefix${index}r"
    # The router's line to the Internet.
    link "$router" "w$prefix$index" "$net" "b$prefix$index"
    line "$router" "w$prefix$index" "b$prefix$index" "$wan"
    ip netns exec "$router" sysctl -q -w net.ipv4.ip_forward=1
    # Masquerade out; forward in only what belongs to a connection the home started.
    ip netns exec "$router" nft -f - <<EOF
table ip home {
    chain forward {
        type filter hook forward priority filter; policy drop;
        iifname "l$prefix${index}r" oifname "w$prefix$index" accept
        iifname "w$prefix$index" oifname "l$prefix${index}r" ct state established,related accept
    }
    chain postrouting {
        type nat hook postrouting priority srcnat; policy accept;
        oifname "w$prefix$index" masquerade
    }
}
EOF
    shape "$router" "w$prefix$index" "$uplink"
    shape "$net" "b$prefix$index" "$downlink"
    echo "$ns $address home $downlink $uplink $wan"
done
trap - ERR
