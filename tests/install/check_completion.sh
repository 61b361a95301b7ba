#!/usr/bin/env bash
# Checks the bash completion of attention-explorer-cli by driving its completion function the
# way bash does (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT) and comparing COMPREPLY.
#
# Usage: check_completion.sh CLI COMPLETION_SCRIPT
#   CLI                the attention-explorer-cli binary (its folder is put first on PATH)
#   COMPLETION_SCRIPT  resources/completion/attention-explorer-cli.bash
#
# The cases run once with plain bash (no bash-completion package: COMP_WORDS / COMP_CWORD are
# used directly) and, when the bash-completion package is installed, once more with it loaded
# (then _init_completion is used). A completion script for the GUI next to the CLI's
# (attention-explorer.bash) is checked too.
# Prints every case; ends with "N passed, M failed"; exits 1 on any failure, 2 on bad usage.

if [ -z "${BASH_VERSION-}" ]; then
    echo "check_completion.sh: run me with bash" >&2
    exit 2
fi
if [ $# -ne 2 ]; then
    echo "usage: $0 CLI COMPLETION_SCRIPT" >&2
    exit 2
fi
cli=$1
script=$2
if [ ! -x "$cli" ] || [ -d "$cli" ]; then
    echo "FAIL: $cli is not an executable program" >&2
    exit 2
fi
if [ ! -r "$script" ]; then
    echo "FAIL: cannot read the completion script $script" >&2
    exit 2
fi
cli_dir=$(cd "$(dirname "$cli")" && pwd)
cli_abs=$cli_dir/$(basename "$cli")
script_abs=$(cd "$(dirname "$script")" && pwd)/$(basename "$script")
gui_script=$(dirname "$script_abs")/attention-explorer.bash
if [ "$(basename "$cli")" != attention-explorer-cli ]; then
    echo "FAIL: the CLI must be named attention-explorer-cli (got $(basename "$cli"))" >&2
    exit 2
fi

# Runs every case in the current shell; prints PASS/FAIL lines and a final "COUNTS p f" line.
run_cases() {
    local passed=0 failed=0

    # compopt only works inside a real completion; record what the function asks for instead.
    COMPOPT_CALLS=""
    # shellcheck disable=SC2317  # called by the completion functions
    compopt() {
        COMPOPT_CALLS+=" $*"
        return 0
    }

    # complete_words FUNCTION WORD... : the last WORD is the one being completed. A word "="
    # stands for readline's split at '=' (COMP_WORDBREAKS): it is glued to its neighbours
    # in COMP_LINE.
    complete_words() {
        local fn=$1
        shift
        COMP_WORDS=("$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        local i line=""
        for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
            if ((i > 0)) && [[ ${COMP_WORDS[i]} != "=" && ${COMP_WORDS[i - 1]} != "=" ]]; then
                line+=" "
            fi
            line+=${COMP_WORDS[i]}
        done
        COMP_LINE=$line
        COMP_POINT=${#line}
        COMPREPLY=()
        COMPOPT_CALLS=""
        "$fn" 2>"$ERRFILE"
        local rc=$?
        ERR=$(<"$ERRFILE")
        GOT=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort -u | tr '\n' ' ')
        GOT=${GOT% }
        return $rc
    }

    ok() {
        echo "PASS: $1"
        passed=$((passed + 1))
    }
    bad() {
        echo "FAIL: $1"
        failed=$((failed + 1))
    }
    sorted() { printf '%s\n' "$@" | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//'; }

    # expect_exact DESCRIPTION "EXPECTED WORDS" FUNCTION WORD...
    expect_exact() {
        local what=$1 want
        # shellcheck disable=SC2086  # the expected words, split on purpose
        want=$(sorted $2)
        shift 2
        complete_words "$@"
        if [[ -n $ERR ]]; then
            bad "$what: the completion wrote to stderr: $ERR"
        elif [[ $GOT == "$want" ]]; then
            ok "$what -> $GOT"
        else
            bad "$what: expected [$want], got [$GOT]"
        fi
    }
    # expect_has DESCRIPTION "WORDS THAT MUST BE OFFERED" "WORDS THAT MUST NOT" FUNCTION WORD...
    expect_has() {
        local what=$1 must=$2 mustnot=$3 w missing="" extra=""
        shift 3
        complete_words "$@"
        for w in $must; do
            [[ " $GOT " == *" $w "* ]] || missing+=" $w"
        done
        for w in $mustnot; do
            [[ " $GOT " == *" $w "* ]] && extra+=" $w"
        done
        if [[ -n $ERR ]]; then
            bad "$what: the completion wrote to stderr: $ERR"
        elif [[ -z $missing && -z $extra ]]; then
            ok "$what -> ${GOT:0:100}$([[ ${#GOT} -gt 100 ]] && echo ...)"
        else
            bad "$what: missing [${missing# }], unexpected [${extra# }]; got [$GOT]"
        fi
    }
    expect_nospace() {
        if [[ $COMPOPT_CALLS == *nospace* ]]; then
            ok "$1 asks for no space after the completion"
        else
            bad "$1 does not ask for 'compopt -o nospace'"
        fi
    }

    local c=attention-explorer-cli f=_attention_explorer_cli

    if complete -p attention-explorer-cli 2>/dev/null | grep -q -- "-F $f attention-explorer-cli"; then
        ok "complete -F $f attention-explorer-cli is registered"
    else
        bad "the script does not register: complete -F $f attention-explorer-cli"
    fi

    expect_exact "$c <TAB> gives the sub-commands" "presets keys run sweep figure animate report help" \
        $f $c ""
    expect_exact "$c ru<TAB>" "run" $f $c ru
    expect_exact "$c rep<TAB>" "report" $f $c rep
    expect_exact "$c --<TAB>" "--help --version" $f $c --
    expect_exact "$c run --pre<TAB>" "--preset" $f $c run --pre
    expect_exact "$c run --preset a-s<TAB>" "a-spectral-vs-random a-same-start a-scaling-n a-scaling-P" \
        $f $c run --preset a-s
    # The program in COMP_WORDS[0] is asked, even when it is not on PATH.
    PATH=$ORIG_PATH expect_exact "$cli_abs run --preset a-s<TAB> (CLI not on PATH)" \
        "a-spectral-vs-random a-same-start a-scaling-n a-scaling-P" $f "$cli_abs" run --preset a-s
    if [[ -z $(PATH=$ORIG_PATH type -P attention-explorer-cli) ]]; then
        PATH=$ORIG_PATH expect_exact "no-such-program run --preset a-s<TAB> (no CLI anywhere)" \
            "" $f no-such-program run --preset a-s
    fi
    expect_has "$c run --set data.<TAB>" "data.n= data.d= data.prompts=" "data.n lr=" \
        $f $c run --set data.
    expect_nospace "$c run --set data.<TAB>"
    local w bad_words=""
    complete_words $f $c run --set data.
    for w in $GOT; do
        [[ $w == data.*= && $w != *=?* ]] || bad_words+=" $w"
    done
    if [[ -n $GOT && -z $bad_words ]]; then
        ok "every --set data.<TAB> candidate is a data.* key followed by '='"
    else
        bad "--set data.<TAB> candidates must all be data.KEY=: unexpected [${bad_words# }]"
    fi
    expect_has "$c sweep --vary data.<TAB>" "data.n=" "" $f $c sweep --vary data.
    expect_exact "$c run --set optimizer=<TAB> (split at '=')" "gd sgd adam sde" \
        $f $c run --set optimizer =
    expect_exact "$c run --set optimizer=s<TAB> (split at '=')" "sgd sde" \
        $f $c run --set optimizer = s
    expect_exact "$c run --set data.fresh=<TAB>" "true false" $f $c run --set data.fresh =
    expect_exact "$c figure --style <TAB>" "screen publication" $f $c figure --style ""
    expect_exact "$c figure --format png,s<TAB>" "png,svg" $f $c figure --format png,s
    expect_exact "$c figure --format <TAB>" "png svg pdf pgf mpl" $f $c figure --format ""
    expect_exact "$c figure --format png,p<TAB>" "png,png png,pdf png,pgf" $f $c figure --format png,p
    expect_has "$c report --<TAB>" "--out --quick --only --jobs --no-figures" \
        "--preset --vary --set" $f $c report --
    expect_exact "$c report --only a-spectral-vs-random,b-r<TAB>" \
        "a-spectral-vs-random,b-regularizers" $f $c report --only a-spectral-vs-random,b-r
    expect_has "$c figure --<TAB>" "--session --format --size --style --out --preset --set --width-cm --columns --font-pt" \
        "--vary --seeds --save-data" $f $c figure --
    expect_exact "$c figure --columns <TAB>" "1 2" $f $c figure --columns ""
    expect_has "$c animate --<TAB>" "--session --out --fps --size --run" \
        "--preset --config --vary --format --style" $f $c animate --
    expect_has "$c sweep --<TAB>" "--vary --seeds --jobs --out --set --save-data --quiet" \
        "--session --format --style" $f $c sweep --
    expect_has "$c sweep --<TAB> (tuning and Slurm options)" \
        "--samples --halving --eta --metric --stat --higher-better --backend --dry-run --time --mem --partition --account --setup-cmd" \
        "--session --index --resubmit" $f $c sweep --
    expect_exact "$c sweep <TAB> (sub-commands)" "task collect" $f $c sweep ""
    expect_exact "$c sweep --backend <TAB>" "local slurm" $f $c sweep --backend ""
    expect_exact "$c sweep --stat f<TAB>" "final floor" $f $c sweep --stat f
    expect_exact "$c sweep collect DIR --<TAB>" \
        "--metric --stat --higher-better --resubmit --array-throttle --dry-run --help" \
        $f $c sweep collect DIR --
    expect_exact "$c sweep task DIR --<TAB>" "--index --help" $f $c sweep task DIR --
    expect_exact "$c sweep --time <TAB>" "" $f $c sweep --time ""
    expect_has "$c run --quiet --out x --<TAB> (given options not offered again)" \
        "--preset --config --set --save-data" "--quiet --out --vary" \
        $f $c run --quiet --out x --
    expect_exact "$c presets --<TAB>" "" $f $c presets --
    expect_exact "$c run --jobs <TAB>" "" $f $c run --jobs ""

    # The sub-commands and their options come from the program (complete-words, made from its
    # table of sub-commands): every sub-command it lists is offered, and each completes to
    # exactly the options it lists for it (--help added when there are any).
    local names name want
    local -a listed cmdwords
    names=$("$cli_abs" complete-words 2>/dev/null)
    mapfile -t listed <<<"$names"
    if [[ ${#listed[@]} -lt 8 ]]; then
        bad "'$c complete-words' lists too few sub-commands: [${listed[*]}]"
    fi
    want=$(awk 'NF == 1 && !/^-/' <<<"$names" | tr '\n' ' ')
    expect_exact "$c <TAB> offers every sub-command of '$c complete-words'" "$want" $f $c ""
    want=$(awk 'NF == 1 && /^-/' <<<"$names" | tr '\n' ' ')
    expect_exact "$c --<TAB> offers the options of '$c complete-words'" "$want" $f $c --
    for name in "${listed[@]}"; do
        [[ -n $name && $name != -* ]] || continue
        # shellcheck disable=SC2086  # "sweep task": two words
        want=$("$cli_abs" complete-words $name 2>/dev/null | awk 'NF { print $1 }' | tr '\n' ' ')
        [[ -n $want ]] && want="$want --help"
        read -r -a cmdwords <<<"$name"
        ((${#cmdwords[@]} > 1)) && cmdwords+=(DIR)  # sweep task DIR
        expect_exact "$c $name --<TAB> (what '$c complete-words $name' lists)" "$want" \
            $f $c "${cmdwords[@]}" --
    done

    # --out completes folders, --config files ending in .json (and folders).
    local tmp
    tmp=$(mktemp -d) || return 1
    mkdir "$tmp/outdir" "$tmp/other"
    : >"$tmp/plan.json"
    : >"$tmp/notes.txt"
    local res
    res=$(cd "$tmp" && complete_words $f $c run --out "" && echo "$GOT")
    if [[ $res == "other outdir" ]]; then
        ok "$c run --out <TAB> offers folders only -> $res"
    else
        bad "$c run --out <TAB>: expected [other outdir], got [$res]"
    fi
    res=$(cd "$tmp" && complete_words $f $c run --config "" && echo "$GOT")
    if [[ $res == "other outdir plan.json" ]]; then
        ok "$c run --config <TAB> offers .json files and folders -> $res"
    else
        bad "$c run --config <TAB>: expected [other outdir plan.json], got [$res]"
    fi
    res=$(cd "$tmp" && complete_words $f $c figure --session p && echo "$GOT")
    if [[ $res == "plan.json" ]]; then
        ok "$c figure --session p<TAB> -> $res"
    else
        bad "$c figure --session p<TAB>: expected [plan.json], got [$res]"
    fi
    if [[ -r $gui_script ]]; then
        # shellcheck source=/dev/null
        source "$gui_script"
        res=$(cd "$tmp" && complete_words _attention_explorer attention-explorer --autorun p &&
            echo "$GOT")
        if [[ $res == "plan.json" ]]; then
            ok "attention-explorer --autorun p<TAB> (a session file) -> $res"
        else
            bad "attention-explorer --autorun p<TAB>: expected [plan.json], got [$res]"
        fi
        : >"$tmp/study.db"
        : >"$tmp/study.journal"
        : >"$tmp/study.txt"
        res=$(cd "$tmp" && complete_words _attention_explorer attention-explorer --optuna-study s &&
            echo "$GOT")
        if [[ $res == "study.db study.journal" ]]; then
            ok "attention-explorer --optuna-study s<TAB> (Optuna storages) -> $res"
        else
            bad "attention-explorer --optuna-study s<TAB>: expected [study.db study.journal], got [$res]"
        fi
    fi
    rm -rf "$tmp"

    # The GUI's completion, if it is shipped beside the CLI's.
    if [[ -r $gui_script ]]; then
        # shellcheck source=/dev/null
        source "$gui_script"
        local gc=attention-explorer gf=_attention_explorer
        expect_has "$gc --<TAB>" "--preset --set --autorun --quit-when-done --screenshot \
--screenshot-at --stats --presentation --optuna-study --study --no-settings --help --version" "" \
            $gf $gc --
        expect_exact "$gc --preset a-s<TAB>" "a-spectral-vs-random a-same-start a-scaling-n a-scaling-P" \
            $gf $gc --preset a-s
        PATH=$ORIG_PATH expect_exact \
            "$cli_dir/attention-explorer --preset a-s<TAB> (CLI beside the GUI, not on PATH)" \
            "a-spectral-vs-random a-same-start a-scaling-n a-scaling-P" \
            $gf "$cli_dir/attention-explorer" --preset a-s
        expect_has "$gc --set data.<TAB>" "data.n=" "" $gf $gc --set data.
    fi

    echo "COUNTS $passed $failed"
}

total_passed=0
total_failed=0
run_mode() {
    local mode=$1 out line
    echo "== $mode"
    out=$(
        if [[ $mode == plain ]]; then
            unset -f _init_completion 2>/dev/null
        else
            # shellcheck source=/dev/null
            source "$bash_completion" >/dev/null 2>&1
            if ! declare -F _init_completion >/dev/null; then
                echo "FAIL: $bash_completion did not define _init_completion"
                echo "COUNTS 0 1"
                exit 0
            fi
        fi
        # shellcheck source=/dev/null
        source "$script_abs"
        run_cases 2>&1
    )
    while IFS= read -r line; do
        if [[ $line == "COUNTS "* ]]; then
            read -r _ p f <<<"$line"
            total_passed=$((total_passed + p))
            total_failed=$((total_failed + f))
        else
            echo "  $line"
        fi
    done <<<"$out"
    if [[ $out != *"COUNTS "* ]]; then
        echo "  FAIL: the $mode cases did not complete"
        total_failed=$((total_failed + 1))
    fi
}

ORIG_PATH=$PATH
export PATH="$cli_dir:$PATH"
ERRFILE=$(mktemp) || exit 2
trap 'rm -f "$ERRFILE"' EXIT
echo "completion script: $script"
echo "CLI: $cli (its folder first on PATH)"
run_mode plain
bash_completion=""
for candidate in /usr/share/bash-completion/bash_completion /etc/bash_completion; do
    if [[ -r $candidate ]]; then
        bash_completion=$candidate
        break
    fi
done
if [[ -n $bash_completion ]]; then
    run_mode "with bash-completion ($bash_completion)"
else
    echo "== with bash-completion: skipped (package bash-completion not installed)"
fi

echo "$total_passed passed, $total_failed failed"
[[ $total_failed -eq 0 ]]
