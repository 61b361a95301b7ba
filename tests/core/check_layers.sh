#!/usr/bin/env bash
# core/'s layers: every file sits in a layer folder, and every #include of a core header names
# its folder from core/ ("config/Config.h") and goes to the same layer or a lower one, never up.
# Usage: check_layers.sh [--ui] [CORE_DIR]   (default: the core/ folder of this checkout)
#        check_layers.sh [--ui] --self-test [CORE_DIR]
# --ui checks ui/'s rooms instead (tests/ui/CMakeLists.txt: UI_DIR as the folder): the same rule,
# with ui/'s rooms as the layers; an include of a file that is not under ui/ (core, Qt) is
# outside the rule, unless it names a ui/ file without its room.
# Prints each layer with what its files include, every violation, and "N passed, M failed"
# (one check per file's place and per include); exit status 1 when something failed.
# --self-test checks the check: on a copy of CORE_DIR with three violations planted (an include
# going up, an include without its folder, a file outside the layer folders) it must report
# exactly those three.
set -uo pipefail

# Lowest first: a file may include headers of its own layer and of the layers before it.
layers=(util io config data models training experiments claims output plan sweep)
# Files allowed directly in core/: the build file and the templates of the generated Version.h
# and KernelLevels.h (included from the generated folder; they include nothing).
root_files=(CMakeLists.txt Version.h.in KernelLevels.h.in)
tree=core external=false

ui=false
[ "${1:-}" = --ui ] && { ui=true; shift; }
if $ui; then
  # ui/'s rooms, lowest first (docs/architecture.md, "The rooms of ui/").
  layers=(base runs workspace charts form runlist about inspect sweep export sessions lessons window)
  root_files=(CMakeLists.txt)
  tree=ui external=true
fi
self_test=false
[ "${1:-}" = --self-test ] && { self_test=true; shift; }
core="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../$tree" && pwd)}"
[ -d "$core" ] || { echo "check_layers: no folder $core" >&2; exit 2; }
# With --ui: the names of ui/'s files (an include by a bare name is one of them without its room).
tree_names=" $( (cd "$core" && find . -type f -printf '%f ') ) "

if $self_test; then
  copy="$(mktemp -d)"; trap 'rm -rf "$copy"' EXIT
  cp -r "$core/." "$copy/"
  low="$(cd "$copy" && find "${layers[0]}" -name '*.h' | sort | head -n 1)"
  high="$(cd "$copy" && find "${layers[${#layers[@]} - 1]}" -name '*.h' | sort | head -n 1)"
  [ -n "$low" ] && [ -n "$high" ] || { echo "self-test: no header in ${layers[0]}/ or ${layers[-1]}/"; exit 1; }
  printf '#include "%s"\n#include "%s"\n' "$high" "$(basename "$low")" >>"$copy/$low"
  touch "$copy/Stray.h"
  echo "self-test: planted in a copy: $low includes \"$high\" and \"$(basename "$low")\"; Stray.h"
  out="$(bash "${BASH_SOURCE[0]}" $($ui && echo --ui) "$copy")"; status=$?
  echo "$out" | grep -E '^FAIL|passed, .* failed$'
  if [ "$status" -ne 0 ] && [ "$(echo "$out" | grep -c '^FAIL')" -eq 3 ] &&
     echo "$out" | grep -q "^FAIL $low includes $high: " &&
     echo "$out" | grep -q "^FAIL $low includes \"$(basename "$low")\": not a path" &&
     echo "$out" | grep -q '^FAIL Stray.h: '; then
    echo "self-test: the three violations were found: 1 passed, 0 failed"; exit 0
  fi
  echo "self-test: the check missed or misreported a planted violation: 0 passed, 1 failed"; exit 1
fi

declare -A rank=()
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

passed=0 failed=0
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
declare -A files_in=() includes_in=() reaches=()

echo "layers, lowest first: ${layers[*]}"
while IFS= read -r -d '' path; do
  rel="${path#"$core"/}"
  if [[ "$rel" != */* ]]; then
    if [[ " ${root_files[*]} " == *" $rel "* ]]; then passed=$((passed + 1)); else
      fail "$rel: directly in $tree/, not in a layer folder"; fi
    continue
  fi
  layer="${rel%%/*}"
  if [ -z "${rank[$layer]+x}" ]; then
    fail "$rel: folder '$layer' is not a layer (${layers[*]})"
    continue
  fi
  passed=$((passed + 1))
  files_in[$layer]=$(( ${files_in[$layer]:-0} + 1 ))
  failed_before=$failed checked=""
  # Quoted includes, and angle-bracket ones that name a layer folder.
  while IFS= read -r inc; do
    [ -n "$inc" ] || continue
    if [[ "$inc" == "<"* ]]; then  # <...>: only when it names a layer folder
      inc="${inc#<}"
      [ -n "${rank[${inc%%/*}]+x}" ] && [[ "$inc" == */* ]] || continue
    fi
    includes_in[$layer]=$(( ${includes_in[$layer]:-0} + 1 ))
    if [ "$inc" = Version.h ] || [ "$inc" = KernelLevels.h ]; then passed=$((passed + 1)); continue; fi
    if $external && [ ! -f "$core/$inc" ]; then
      if [[ "$tree_names" == *" ${inc##*/} "* ]]; then
        fail "$rel includes \"$inc\": not a path from $tree/ to a room (name its folder)"
      else
        passed=$((passed + 1))  # not ui/'s: core or Qt, outside this rule
      fi
      continue
    fi
    target="${inc%%/*}"
    if [[ "$inc" != */* ]] || [ -z "${rank[$target]+x}" ]; then
      fail "$rel includes \"$inc\": not a path from core/ to a layer folder"
      continue
    fi
    if [ ! -f "$core/$inc" ]; then
      fail "$rel includes \"$inc\": no such file under $tree/"
      continue
    fi
    if [ "${rank[$target]}" -gt "${rank[$layer]}" ]; then
      fail "$rel includes $inc: $layer (layer $((rank[$layer] + 1))) must not include $target (layer $((rank[$target] + 1)))"
      continue
    fi
    passed=$((passed + 1))
    checked+=" $inc"
    [[ " ${reaches[$layer]:-} " == *" $target "* ]] || reaches[$layer]="${reaches[$layer]:-} $target"
  done < <(sed -n -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
                  -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/<\1/p' "$path")
  [ "$failed" -eq "$failed_before" ] && echo "ok   $rel:${checked:- (no $tree includes)}"
done < <(find "$core" -type f -print0 | sort -z)

echo "layer         files  includes  -> layers reached"
for i in "${!layers[@]}"; do
  l=${layers[$i]}
  # The layers this one's includes reach, in layer order.
  seen=""
  for m in "${layers[@]}"; do [[ " ${reaches[$l]:-} " == *" $m "* ]] && seen+=" $m"; done
  printf '%d %-12s %5d  %8d  ->%s\n' $((i + 1)) "$l" \
    "${files_in[$l]:-0}" "${includes_in[$l]:-0}" "${seen:- (none)}"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
