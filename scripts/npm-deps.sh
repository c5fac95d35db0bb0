#!/bin/sh
# Install the npm packages the browser tests use (tests/browser/package.json:
# puppeteer-core to drive Debian's Chromium, speedscope to view a trace)
# into cache/npm/, exactly as tests/browser/package-lock.json pins them,
# and only if what is there is not already that.  Prints the folder.
# Usage: scripts/npm-deps.sh
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/tests/browser
dir=$top/cache/npm

# The lock file the folder was installed from, kept beside it: the same
# file means the same tree, and nothing is asked of the registry.
if cmp -s "$src/package-lock.json" "$dir/installed-lock.json" &&
   [ -d "$dir/node_modules/puppeteer-core" ] && [ -d "$dir/node_modules/speedscope" ]; then
	echo "$dir"
	exit 0
fi
command -v npm >/dev/null || { echo "npm-deps.sh: no npm (scripts/deps.sh check installs it)" >&2; exit 1; }

echo "npm-deps.sh: installing puppeteer-core and speedscope into $dir" >&2
mkdir -p "$dir"
rm -f "$dir/installed-lock.json"
cp "$src/package.json" "$src/package-lock.json" "$dir/"
# Debian's /usr/bin/chromium is the browser: puppeteer fetches none.
# npm ci installs the lock file's tree exactly, or fails.
(cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
cp "$src/package-lock.json" "$dir/installed-lock.json"
echo "$dir"
