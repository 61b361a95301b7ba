#!/usr/bin/env bash
# Installs the build tree to a temporary prefix with `cmake --install`, then checks what a
# packager and a desktop need: every file in its place, the desktop entry and the AppStream
# metainfo valid, and the installed programs finding their presets relative to themselves
# (no ADE_RESOURCES, and again after the whole prefix has been moved elsewhere). Also checks
# that the build tree's programs find the staged presets without ADE_RESOURCES.
# Usage: check_install.sh CMAKE BUILD_DIR
set -uo pipefail
cmake="$1"; build="$2"
passed=0; failed=0
ok() { echo "PASS: $*"; passed=$((passed + 1)); }
ko() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() { local what="$1"; shift; if "$@"; then ok "$what"; else ko "$what"; fi; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
unset ADE_RESOURCES
prefix="$work/prefix"
if ! "$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
  cat "$work/install.log"; echo "0 passed, 1 failed"; exit 1
fi
ok "cmake --install --prefix $prefix"

id=org.attentiondynamics.explorer
for f in bin/attention-explorer-cli bin/attention-explorer \
         share/attention-explorer/presets/a-spectral-vs-random.json \
         share/attention-explorer/lessons/spectral-start.json \
         share/applications/$id.desktop share/metainfo/$id.metainfo.xml \
         share/icons/hicolor/scalable/apps/attention-explorer.svg \
         share/man/man1/attention-explorer-cli.1.gz share/man/man1/attention-explorer.1.gz \
         share/bash-completion/completions/attention-explorer-cli \
         share/bash-completion/completions/attention-explorer; do
  check "installed $f" test -s "$prefix/$f"
done
for s in 16 24 32 48 64 128 256 512; do
  png="$prefix/share/icons/hicolor/${s}x${s}/apps/attention-explorer.png"
  dims="$(od -An -tu1 -j16 -N8 "$png" 2>/dev/null | awk '{print ($3*256+$4) "x" ($7*256+$8)}')"
  check "icon ${s}x${s} is a ${s}x${s} PNG (read $dims)" test "$dims" = "${s}x${s}"
done
n_src="$(ls "$prefix/share/attention-explorer/presets"/*.json | wc -l)"

if command -v desktop-file-validate >/dev/null; then
  check "desktop-file-validate $id.desktop" desktop-file-validate "$prefix/share/applications/$id.desktop"
else
  ko "desktop-file-validate is missing (Debian package desktop-file-utils)"
fi
if command -v appstreamcli >/dev/null; then
  check "appstreamcli validate --no-net $id.metainfo.xml" \
    appstreamcli validate --no-net "$prefix/share/metainfo/$id.metainfo.xml"
else
  ko "appstreamcli is missing (Debian package appstream)"
fi
grep -q "^Exec=attention-explorer" "$prefix/share/applications/$id.desktop" \
  && ok "desktop entry runs attention-explorer" || ko "desktop entry Exec"

presets_of() { "$@" presets 2>&1 | awk 'NF {print $1}' | sort | tr '\n' ' '; }
expected="$(cd "$prefix/share/attention-explorer/presets" && ls *.json | sed 's/\.json$//' | sort | tr '\n' ' ')"
got="$(presets_of "$prefix/bin/attention-explorer-cli")"
check "installed CLI lists the $n_src installed presets (got: $got)" test "$got" = "$expected"

version="$("$prefix/bin/attention-explorer-cli" --version | awk 'NR == 1 {print $2}')"
release="$(grep -o '<release version="[^"]*"' "$prefix/share/metainfo/$id.metainfo.xml" | head -n 1 | cut -d'"' -f2)"
check "CLI --version ($version) is the metainfo's newest release ($release)" \
  test -n "$version" -a "$version" = "$release"

# Relocatable: move the whole prefix, nothing else points into it.
mv "$prefix" "$work/moved"
got="$(presets_of "$work/moved/bin/attention-explorer-cli")"
check "CLI of a moved prefix lists its presets" test "$got" = "$expected"
if "$work/moved/bin/attention-explorer-cli" run --preset a-same-start --set iterations=5 \
     --out "$work/run" --quiet >"$work/run.log" 2>&1 && [ -s "$work/run/session.json" ]; then
  ok "CLI of a moved prefix runs a preset"
else
  cat "$work/run.log"; ko "CLI of a moved prefix runs a preset"
fi
if QT_QPA_PLATFORM=offscreen "$work/moved/bin/attention-explorer" --version 2>/dev/null \
     | grep -q "[0-9]\.[0-9]"; then
  ok "installed GUI --version"
else
  ko "installed GUI --version"
fi

# The Python module (a tree built with ADE_BUILD_PYTHON): Debian's python3 imports it from the
# moved prefix and finds the presets installed beside it.
if [ -d "$build/python/attention_explorer" ]; then
  pkg="$work/moved/lib/python3/dist-packages"
  check "installed Python module lists the installed presets" env PYTHONPATH="$pkg" /usr/bin/python3 \
    -B -c "import attention_explorer as ae; assert ' '.join(sorted(p['name'] for p in ae.presets())) + ' ' == '$expected'"
fi

# The build tree's programs: the staged copy beside them, no source path compiled in.
got="$(presets_of "$build/app/attention-explorer-cli")"
check "build-tree CLI lists the presets without ADE_RESOURCES" test "$got" = "$expected"
strings_hit="$(grep -c -a "$(cd "$(dirname "$0")/../.." && pwd)/resources" "$work/moved/bin/attention-explorer-cli")"
check "no source-tree path compiled into the CLI" test "$strings_hit" = 0

# Where nothing is found, the message says where it looked.
mkdir -p "$work/lonely/bin"
cp "$work/moved/bin/attention-explorer-cli" "$work/lonely/bin/"
msg="$("$work/lonely/bin/attention-explorer-cli" run --preset a-same-start --out "$work/x" 2>&1)"
case "$msg" in
  *"none found (looked in"*"ADE_RESOURCES"*) ok "no presets: the message names where it looked" ;;
  *) ko "no presets: message was: $msg" ;;
esac

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
