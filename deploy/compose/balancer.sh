#!/bin/sh
# The balancer's start (docker-compose.prod.yml, service `balancer`): writes nginx's site from
# deploy/nginx/pronet.conf with its upstream's `server` lines replaced by the replicas named in
# PRONET_UPSTREAMS (space-separated host:port), adds the router's site, drops the image's default
# site (it would answer every unknown Host), then runs the given command (the nginx image's own
# entrypoint). pronet.conf stays the one file that says how nginx fronts the service, as
# `npm run test:proxy` runs it; test/deploy/compose.test.ts runs this script on it.
set -eu

site_in=${PRONET_SITE_IN:-/etc/pronet/pronet.conf}
router_in=${PRONET_ROUTER_SITE_IN:-/etc/pronet/router.nginx.conf}
out_dir=${PRONET_SITE_DIR:-/etc/nginx/conf.d}
: "${PRONET_UPSTREAMS:?PRONET_UPSTREAMS must list the replicas (host:port ...)}"

# Inside `upstream pronet { ... }`: the first `server` line becomes one line per replica, the others
# go; everything else is copied as it is.
awk -v upstreams="$PRONET_UPSTREAMS" '
  /^[[:space:]]*upstream[[:space:]]+pronet[[:space:]]*\{/ { inside = 1; print; next }
  inside && /^[[:space:]]*\}/ { inside = 0 }
  inside && /^[[:space:]]*server[[:space:]]/ {
    if (!written) {
      n = split(upstreams, hosts, /[[:space:]]+/)
      for (i = 1; i <= n; i++) if (hosts[i] != "") printf "  server %s;\n", hosts[i]
      written = 1
    }
    next
  }
  { print }
  END { if (!written) { print "no server line in upstream pronet" > "/dev/stderr"; exit 1 } }
' "$site_in" > "$out_dir/pronet.conf"

cp "$router_in" "$out_dir/router.conf"
rm -f "$out_dir/default.conf"

exec "$@"
