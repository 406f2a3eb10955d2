#!/bin/sh
# Makes docs/report.png, the README's screenshot, from real results: five
# 5-second varmail runs on the file system under $TMPDIR (or /tmp) and five
# on a tmpfs mounted for the purpose (needs root), then `fsgauge report`
# rendered by headless Chromium (Debian package chromium).
#
#   sh tools/report-screenshot.sh [OUT.png]      (from the top of the tree, after make)
set -eu
out=${1:-docs/report.png}
fsg=$(pwd)/fsgauge
w=$(mktemp -d "${TMPDIR:-/tmp}/fsgauge-demo.XXXXXX")
mkdir "$w/ext4" "$w/tmpfs" "$w/res" "$w/chrome"
mount -t tmpfs -o size=1g tmpfs "$w/tmpfs"
trap 'umount "$w/tmpfs" 2>/dev/null; rm -rf "$w"' EXIT
fs=$(df --output=fstype "$w/ext4" | tail -1)
for i in 1 2 3 4 5; do
	"$fsg" run -d "$w/ext4" -t 5 -s nthreads=4 -s nfiles=2000 -q --label "$fs" \
		--json "$w/res/a-$i.json" varmail >/dev/null
	"$fsg" run -d "$w/tmpfs" -t 5 -s nthreads=4 -s nfiles=2000 -q --label tmpfs \
		--json "$w/res/b-$i.json" varmail >/dev/null
done
"$fsg" report "$w"/res/a-?.json "$w"/res/b-?.json -o "$w/report.html" \
	--title "fsgauge report: varmail on $fs vs tmpfs"
/usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$w/chrome" \
	--screenshot="$w/report.png" --window-size=1200,2000 "file://$w/report.html" 2>/dev/null
cp "$w/report.png" "$out"
echo "wrote $out"
