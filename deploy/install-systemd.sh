#!/bin/sh
# Installs a built checkout as the systemd service of deploy/toolshed.service (docs/deployment.md,
# "systemd"). Run as root from anywhere, after `npm ci && npm run build` in the checkout:
#
#   sudo deploy/install-systemd.sh
#
# It copies the whole build (every folder of dist/, so a new one can never be left behind) and the
# built SDK, both without their tests as in the image, the default configuration and the lockfile
# into /opt/toolshed, installs the production dependencies there, installs the unit and the
# `toolshed` command (deploy/toolshed, into /usr/local/bin), and creates an empty, root-only
# /etc/toolshed/toolshed.yaml if there is none. It starts nothing: edit the configuration, check it
# with `toolshed config check`, then `systemctl enable --now toolshed`. TOOLSHED_PREFIX,
# TOOLSHED_ETC, SYSTEMD_UNIT_DIR and TOOLSHED_BIN change the four folders (an upgrade installs
# into /opt/toolshed-<version>; the unit and the command keep naming /opt/toolshed, the link to the
# version in service). test/systemd-install.test.ts runs this script into a scratch folder and starts the unit.
set -eu

prefix=${TOOLSHED_PREFIX:-/opt/toolshed}
etc=${TOOLSHED_ETC:-/etc/toolshed}
units=${SYSTEMD_UNIT_DIR:-/etc/systemd/system}
bin=${TOOLSHED_BIN:-/usr/local/bin}
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

mkdir -p "$prefix/plugin-sdk" "$etc" "$units" "$bin"
cp -R package.json package-lock.json config dist "$prefix/"
cp -R plugin-sdk/package.json plugin-sdk/dist "$prefix/plugin-sdk/"
# What the image leaves out too (the Dockerfile's build stage): the compiled tests, wherever they
# are (dist/test, and beside the code in every plugin and in the SDK), the SDK's test fixtures and
# tsc's record of the build.
rm -rf "$prefix/dist/test" "$prefix/dist/tsconfig.tsbuildinfo" "$prefix/plugin-sdk/dist/fixtures"
find "$prefix/dist" "$prefix/plugin-sdk/dist" -name '*.test.*' -delete
(cd "$prefix" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund)
chmod -R a+rX "$prefix"

# As written: it runs /opt/toolshed, which may be a symbolic link to the version in service.
cp deploy/toolshed.service "$units/toolshed.service"
chmod 644 "$units/toolshed.service"
# The command line on this host (config check, keys new, ...), on the same tree and configuration.
cp deploy/toolshed "$bin/toolshed"
chmod 755 "$bin/toolshed"
# Root's only: it may hold a Redis password (the unit hands the service a copy as a credential).
if [ ! -e "$etc/toolshed.yaml" ]; then
  (umask 077 && : > "$etc/toolshed.yaml")
fi
echo "Installed in $prefix, and $bin/toolshed. Next: edit $etc/toolshed.yaml, check it with toolshed config check, then systemctl daemon-reload && systemctl enable --now toolshed"
