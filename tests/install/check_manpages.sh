#!/usr/bin/env bash
# Checks the man pages against the programs they document.
#
# Usage: check_manpages.sh CLI GUI MANDIR
#   CLI     the attention-explorer-cli binary
#   GUI     the attention-explorer binary (run with QT_QPA_PLATFORM=offscreen for --help)
#   MANDIR  the folder with attention-explorer-cli.1 and attention-explorer.1
#
# Checks: both pages format with `groff -man -ww -z` without a single warning (and with
# `man --warnings -l` if man is installed); every long option printed by `CLI help`, every
# sub-command printed by `CLI complete-words` (the program's table of sub-commands) with each of
# its options (`CLI complete-words COMMAND`: in its synopsis and in OPTIONS), every preset
# printed by `CLI presets` and every key printed by `CLI keys` appears in the CLI's page; every
# long option printed by `GUI --help` appears in the GUI's page.
# The pages are searched as rendered text (groff -Tascii), so roff escapes do not matter.
# Prints every check; ends with "N passed, M failed"; exits 1 on any failure, 2 on bad usage.

if [ -z "${BASH_VERSION-}" ]; then
    echo "check_manpages.sh: run me with bash" >&2
    exit 2
fi
if [ $# -ne 3 ]; then
    echo "usage: $0 CLI GUI MANDIR" >&2
    exit 2
fi
cli=$1
gui=$2
mandir=$3
cli_page=$mandir/attention-explorer-cli.1
gui_page=$mandir/attention-explorer.1

passed=0
failed=0
ok() {
    echo "PASS: $1"
    passed=$((passed + 1))
}
bad() {
    echo "FAIL: $1"
    failed=$((failed + 1))
}
summary() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

if ! command -v groff >/dev/null 2>&1; then
    bad "groff is not installed: install the Debian package groff-base (apt-get install groff-base)"
    summary
fi
for f in "$cli" "$gui"; do
    if [ ! -x "$f" ] || [ -d "$f" ]; then
        bad "$f is not an executable program"
    fi
done
for f in "$cli_page" "$gui_page"; do
    if [ ! -r "$f" ]; then
        bad "cannot read the man page $f"
    fi
done
[ "$failed" -eq 0 ] || summary

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# Runs a program with a time limit (when `timeout` exists), stdout to $1, stderr to $1.err.
run_to() {
    local out=$1
    shift
    if command -v timeout >/dev/null 2>&1; then
        timeout 120 "$@" >"$out" 2>"$out.err"
    else
        "$@" >"$out" 2>"$out.err"
    fi
}

# --- formatting -------------------------------------------------------------------------------
for page in "$cli_page" "$gui_page"; do
    name=$(basename "$page")
    warnings=$(groff -man -ww -z "$page" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && [ -z "$warnings" ]; then
        ok "groff -man -ww -z $name: no warnings"
    else
        bad "groff -man -ww -z $name (exit $rc): ${warnings:-no output}"
    fi
    if command -v man >/dev/null 2>&1; then
        warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
        if [ -z "$warnings" ]; then
            ok "man --warnings -l $name (80 columns): no warnings"
        else
            bad "man --warnings -l $name: $warnings"
        fi
    else
        echo "SKIP: man --warnings -l $name (man-db is not installed)"
    fi
    # The rendered text, one very long line per paragraph so that no name is broken.
    groff -man -Tascii -rLL=2000n -P-c -P-b -P-o -P-u "$page" 2>/dev/null >"$tmp/$name.txt"
    if [ -s "$tmp/$name.txt" ]; then
        ok "$name renders to text ($(wc -l <"$tmp/$name.txt") lines)"
    else
        bad "$name renders to nothing with groff -man -Tascii"
    fi
done

# has PAGE_TEXT WORD: WORD appears as a whole word (not inside a longer option or name).
has() {
    local text=$1 word=$2 re="" ch i
    # The word as a literal regular expression: every other character in brackets.
    for ((i = 0; i < ${#word}; i++)); do
        ch=${word:i:1}
        case $ch in
            [A-Za-z0-9_]) re+=$ch ;;
            "^") re+="\\^" ;;
            "]") re+="[]]" ;;
            *) re+="[$ch]" ;;
        esac
    done
    [ -n "$re" ] || return 1
    grep -Eq -- "(^|[^A-Za-z0-9_.=-])$re([^A-Za-z0-9_-]|$)" "$text"
}

# section PAGE_NAME HEADING: the text of one section of the rendered page, to a file; prints
# the file's name.
section() {
    local out
    out="$tmp/$1.$(printf '%s' "$2" | tr -c 'A-Za-z0-9' _)"
    awk -v h="$2" '/^[A-Z][A-Z ]*$/ { on = ($0 == h); next } on' "$tmp/$1.txt" >"$out"
    printf '%s\n' "$out"
}

# tags PAGE_NAME HEADING: the tags of the tagged paragraphs (.TP) of one section, one a line, to
# a file; prints the file's name. In the rendered text a tag starts at column 8; a tag wider
# than the indent has a line of its own (the body follows, further indented), a narrow one
# shares its line with the body: then the tag is the line's first word.
tags() {
    local text out
    text=$(section "$1" "$2")
    out="$text.tags"
    awk '{ line[NR] = $0 }
         END {
             for (i = 1; i <= NR; i++) {
                 if (line[i] !~ /^       [^ ]/) continue
                 if (line[i + 1] ~ /^              [^ ]/) print line[i]
                 else { split(line[i], w, " "); print w[1] }
             }
         }' "$text" >"$out"
    printf '%s\n' "$out"
}

# check_list WHAT PAGE_NAME HEADING WORD...: every WORD must be the tag (or in the tag) of an
# entry of that section of the page.
check_list() {
    local what=$1 name=$2 heading=$3 w missing="" text
    shift 3
    if [ $# -eq 0 ]; then
        bad "no $what found to check against $name"
        return
    fi
    text=$(tags "$name" "$heading")
    if [ ! -s "$text" ]; then
        bad "$name has no $heading section with entries"
        return
    fi
    for w in "$@"; do
        has "$text" "$w" || missing="$missing $w"
    done
    if [ -z "$missing" ]; then
        ok "$name $heading has an entry for all $# $what: $*"
    else
        bad "$name $heading has no entry for these $what:$missing"
    fi
}

# --- the CLI ----------------------------------------------------------------------------------
cli_name=attention-explorer-cli.1
if run_to "$tmp/cli-help" "$cli" help; then
    mapfile -t opts < <(grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/cli-help" | sort -u)
    check_list "long options of '$(basename "$cli") help'" "$cli_name" OPTIONS "${opts[@]}"
else
    bad "'$cli help' failed: $(cat "$tmp/cli-help.err")"
fi
# The sub-commands and the options of each, from the program's table of sub-commands
# (`CLI complete-words`, as the bash completion reads them): every sub-command has an entry in
# COMMANDS, its synopsis in SYNOPSIS names each of its options, and each option has an entry in
# OPTIONS.
if run_to "$tmp/cli-words" "$cli" complete-words && [ -s "$tmp/cli-words" ]; then
    mapfile -t cmds <"$tmp/cli-words"
    check_list "sub-commands of '$(basename "$cli") complete-words'" "$cli_name" COMMANDS \
        "${cmds[@]}"
    synopsis=$(section "$cli_name" SYNOPSIS)
    all_opts=()
    for c in "${cmds[@]}"; do
        case $c in -*) continue ;; esac  # --help, --version: no options
        # shellcheck disable=SC2086  # "sweep task": two words
        if ! run_to "$tmp/cli-opts" "$cli" complete-words $c; then
            bad "'$cli complete-words $c' failed: $(cat "$tmp/cli-opts.err")"
            continue
        fi
        mapfile -t copts < <(awk 'NF { print $1 }' "$tmp/cli-opts")
        all_opts+=("${copts[@]}")
        # Its synopsis: the line "attention-explorer-cli C ...", not that of a sub-command of it
        # ("attention-explorer-cli sweep task DIR" is not sweep's).
        awk -v c="attention-explorer-cli $c" '
            { line = $0; sub(/^ +/, "", line) }
            index(line " ", c " ") == 1 { print line }' "$synopsis" >"$tmp/synopsis-line"
        for sc in "${cmds[@]}"; do
            case $sc in "$c "*)
                grep -v -F -- "attention-explorer-cli $sc" "$tmp/synopsis-line" >"$tmp/synopsis-own"
                mv "$tmp/synopsis-own" "$tmp/synopsis-line" ;;
            esac
        done
        if [ ! -s "$tmp/synopsis-line" ]; then
            bad "$cli_name SYNOPSIS has no line for the sub-command '$c'"
            continue
        fi
        missing=""
        for o in "${copts[@]}"; do
            has "$tmp/synopsis-line" "$o" || missing="$missing $o"
        done
        if [ -z "$missing" ]; then
            ok "$cli_name SYNOPSIS of '$c' names all ${#copts[@]} of its options${copts[*]:+: }${copts[*]}"
        else
            bad "$cli_name SYNOPSIS of '$c' does not name these options of it:$missing"
        fi
    done
    mapfile -t all_opts < <(printf '%s\n' "${all_opts[@]}" | sort -u)
    check_list "options of the sub-commands ('$(basename "$cli") complete-words COMMAND')" \
        "$cli_name" OPTIONS "${all_opts[@]}"
else
    bad "'$cli complete-words' printed no sub-commands: $(cat "$tmp/cli-words.err" 2>/dev/null)"
fi
if run_to "$tmp/cli-presets" "$cli" presets; then
    mapfile -t presets < <(awk 'NF { print $1 }' "$tmp/cli-presets")
    check_list "presets of '$(basename "$cli") presets'" "$cli_name" PRESETS "${presets[@]}"
else
    bad "'$cli presets' failed: $(cat "$tmp/cli-presets.err")"
fi
if run_to "$tmp/cli-keys" "$cli" keys; then
    mapfile -t keys < <(awk '/^[^ \t]/ { print $1 }' "$tmp/cli-keys")
    check_list "configuration keys of '$(basename "$cli") keys'" "$cli_name" \
        "CONFIGURATION KEYS" "${keys[@]}"
else
    bad "'$cli keys' failed: $(cat "$tmp/cli-keys.err")"
fi
# "Exit status: 0 done, 2 invalid input, ..." (over two lines): the number of each item.
mapfile -t codes < <(sed -n '/^Exit status:/,$p' "$tmp/cli-help" | tr '\n' ' ' |
    sed 's/^Exit status://' | tr ',' '\n' | awk '$1 ~ /^[0-9]+$/ { print $1 }')
if [ ${#codes[@]} -eq 0 ]; then
    bad "no 'Exit status:' line in '$(basename "$cli") help'"
else
    text=$(tags "$cli_name" "EXIT STATUS")
    missing=""
    for c in "${codes[@]}"; do
        grep -qx "$c" "$text" || missing="$missing $c"
    done
    if [ -z "$missing" ]; then
        ok "$cli_name EXIT STATUS lists every status of '$(basename "$cli") help': ${codes[*]}"
    else
        bad "$cli_name EXIT STATUS does not list the exit status(es):$missing"
    fi
fi

# --- the GUI ----------------------------------------------------------------------------------
gui_name=attention-explorer.1
if run_to "$tmp/gui-help" env QT_QPA_PLATFORM=offscreen "$gui" --help; then
    mapfile -t opts < <(grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/gui-help" | sort -u)
    check_list "long options of '$(basename "$gui") --help'" "$gui_name" OPTIONS "${opts[@]}"
else
    bad "'QT_QPA_PLATFORM=offscreen $gui --help' failed: $(cat "$tmp/gui-help.err")"
fi
if has "$(section "$gui_name" "SEE ALSO")" "attention-explorer-cli(1)"; then
    ok "$gui_name refers to attention-explorer-cli(1)"
else
    bad "$gui_name has no SEE ALSO reference to attention-explorer-cli(1)"
fi

summary
