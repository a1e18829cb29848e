#!/bin/sh
# Installs a built checkout as the systemd service of deploy/toolshed.service (docs/deployment.md,
# "systemd"). Run as root from anywhere, after `npm ci && npm run build` in the checkout:
#
#   sudo deploy/install-systemd.sh
#
# It copies the whole build (every folder of dist/, so a new one can never be left behind), the
# built SDK, the default configuration and the lockfile into /opt/toolshed, installs the production
# dependencies there, installs the unit, and creates an empty, root-only /etc/toolshed/toolshed.yaml
# if there is none. It starts nothing: edit the configuration, then `systemctl enable --now toolshed`.
# TOOLSHED_PREFIX, TOOLSHED_ETC and SYSTEMD_UNIT_DIR change the three folders (an upgrade installs
# into /opt/toolshed-<version>; the unit keeps naming /opt/toolshed, the link to the version in
# service). test/deployment.test.ts runs this script into a scratch folder and starts the unit.
set -eu

prefix=${TOOLSHED_PREFIX:-/opt/toolshed}
etc=${TOOLSHED_ETC:-/etc/toolshed}
units=${SYSTEMD_UNIT_DIR:-/etc/systemd/system}
checkout=$(cd "$(dirname "$0")/.." && pwd)
cd "$checkout"

if [ ! -f dist/plugins/base64/index.bundle.js ] || [ ! -f plugin-sdk/dist/index.js ]; then
  echo "install-systemd.sh: no build in $checkout; run npm ci && npm run build first" >&2
  exit 1
fi
# An upgrade goes into a new folder and a symbolic link switches (docs/deployment.md, "Upgrading"):
# copying over an old tree would keep files the new version no longer has.
if [ -e "$prefix/dist" ]; then
  echo "install-systemd.sh: $prefix/dist exists; install into a new folder (TOOLSHED_PREFIX=/opt/toolshed-<version>) and switch the link" >&2
  exit 1
fi

mkdir -p "$prefix/plugin-sdk" "$etc" "$units"
cp -R package.json package-lock.json config dist "$prefix/"
# The compiled tests are not part of the service.
rm -rf "$prefix/dist/test"
cp -R plugin-sdk/package.json plugin-sdk/dist "$prefix/plugin-sdk/"
(cd "$prefix" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund)
chmod -R a+rX "$prefix"

# As written: it runs /opt/toolshed, which may be a symbolic link to the version in service.
cp deploy/toolshed.service "$units/toolshed.service"
chmod 644 "$units/toolshed.service"
# Root's only: it may hold a Redis password (the unit hands the service a copy as a credential).
if [ ! -e "$etc/toolshed.yaml" ]; then
  (umask 077 && : > "$etc/toolshed.yaml")
fi
echo "Installed in $prefix. Next: edit $etc/toolshed.yaml, then systemctl daemon-reload && systemctl enable --now toolshed"
