#!/usr/bin/env bash
# The base the container test (scripts/container-test.mjs) builds on, made here from Debian's
# packages: no image registry is reachable on these machines, so the Containerfile's own base
# (node:20-bookworm-slim) cannot be pulled. Debian trixie carries Node.js 20.19. Prints the
# image's name; reuses it when it exists (REMIT_CONTAINER_BASE names another).
set -euo pipefail

NAME="${REMIT_CONTAINER_BASE:-localhost/remit-base:trixie}"
if buildah inspect --type image "$NAME" >/dev/null 2>&1; then
  echo "$NAME"
  exit 0
fi

# the Debian mirror this machine's apt uses (a deb822 URIs: line or a one-line deb entry)
mirror="$(grep -rhoE '^(URIs:[[:space:]]*|deb[[:space:]]+)https?://[^[:space:]]+/debian/?([[:space:]]|$)' \
  /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | grep -oE 'https?://[^[:space:]]+' | head -n 1 || true)"
mirror="${mirror:-http://deb.debian.org/debian}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "== building $NAME from Debian trixie ($mirror)" >&2
# the machine's own certificate authorities go in too: the npm registry's TLS is signed by one here
mmdebstrap --quiet --variant=minbase --include=nodejs,npm,libnode-dev,ca-certificates \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook='mkdir -p "$1/usr/local/share/ca-certificates"' \
  --customize-hook='if [ -d /usr/local/share/ca-certificates ]; then cp -r /usr/local/share/ca-certificates/. "$1/usr/local/share/ca-certificates/"; fi' \
  --customize-hook='chroot "$1" update-ca-certificates >/dev/null' \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
  trixie "$work/rootfs.tar" "$mirror" >&2

ctr="$(buildah from scratch)"
buildah add "$ctr" "$work/rootfs.tar" / >/dev/null
# node-gyp cannot download Node's headers here: libnode-dev has them under /usr
buildah config --env npm_config_nodedir=/usr --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd /bin/bash "$ctr"
buildah commit --quiet --rm "$ctr" "$NAME" >/dev/null
echo "$NAME"
