# bash completion for attention-explorer-cli                     -*- shell-script -*-
#
# Install as  <prefix>/share/bash-completion/completions/attention-explorer-cli
# or source it from ~/.bashrc.  Works with and without the bash-completion package:
# _init_completion is used when it is defined, plain COMP_WORDS / COMP_CWORD otherwise.
#
# The sub-commands and the options of each come from `attention-explorer-cli complete-words`
# (made from the program's table of sub-commands, app/cli/Commands.cpp), preset names from
# `attention-explorer-cli presets` and configuration keys from `attention-explorer-cli keys`,
# asked of the very program being completed (so a build-tree binary completes its own
# sub-commands and presets), falling back to attention-explorer-cli on PATH.

# The program to ask for presets and keys: the word being completed as a command if it is an
# executable, else attention-explorer-cli on PATH. Prints nothing when neither is found.
_attention_explorer_cli__program() {
    local prog=${1-}
    if [[ $prog == "~"* ]]; then
        prog=${HOME-}${prog#\~}
    fi
    if [[ -n $prog && $prog == */* && -x $prog && ! -d $prog ]]; then
        printf '%s\n' "$prog"
        return 0
    fi
    if [[ -n $prog && $prog != */* ]] && type -P -- "$prog" >/dev/null 2>&1; then
        type -P -- "$prog"
        return 0
    fi
    type -P attention-explorer-cli 2>/dev/null
}

# `complete-words [COMMAND...]`: without a command the sub-commands, one a line ("sweep task" is
# the sub-command task of sweep; --help and --version last), with one its options, one a line:
# the option, then the name of its value when it takes one ("..." after it when repeatable).
_attention_explorer_cli__words() {
    local prog
    prog=$(_attention_explorer_cli__program "${1-}") || return 0
    [[ -n $prog ]] || return 0
    shift
    "$prog" complete-words "$@" 2>/dev/null
}

# Preset names (first column of `presets`).
_attention_explorer_cli__presets() {
    local prog
    prog=$(_attention_explorer_cli__program "${1-}") || return 0
    [[ -n $prog ]] || return 0
    "$prog" presets 2>/dev/null | awk 'NF { print $1 }'
}

# Configuration keys (key lines of `keys` start at column 0; detail lines are indented).
_attention_explorer_cli__keys() {
    local prog
    prog=$(_attention_explorer_cli__program "${1-}") || return 0
    [[ -n $prog ]] || return 0
    "$prog" keys 2>/dev/null | awk '/^[^ \t]/ { print $1 }'
}

# Allowed values of one key, when they form a list ("one of a, b, c" or "true or false").
_attention_explorer_cli__values() {
    local prog
    prog=$(_attention_explorer_cli__program "${1-}") || return 0
    [[ -n $prog ]] || return 0
    "$prog" keys 2>/dev/null | awk -v k="${2-}" '
        /^[^ \t]/ && $1 == k {
            if (match($0, /one of .*/)) {
                s = substr($0, RSTART + 7)
                sub(/ \[experiment [^]]*\]$/, "", s)
                gsub(/, /, " ", s)
                print s
            } else if ($0 ~ /true or false/) {
                print "true false"
            }
            exit
        }'
}

# Fills COMPREPLY with the words of $1 that start with $2 (one word per element, no globbing).
_attention_explorer_cli__reply() {
    local IFS=$' \t\n'
    COMPREPLY=()
    local w
    for w in $1; do
        [[ $w == "${2-}"* ]] && COMPREPLY+=("$w")
    done
}

_attention_explorer_cli__nospace() {
    type compopt >/dev/null 2>&1 && compopt -o nospace 2>/dev/null
}

# Files ending in .json, and folders to descend into.
_attention_explorer_cli__json_files() {
    local cur=${1-} IFS=$'\n' f
    COMPREPLY=()
    type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null
    for f in $(compgen -d -- "$cur"); do
        COMPREPLY+=("$f")
    done
    for f in $(compgen -f -X '!*.[jJ][sS][oO][nN]' -- "$cur"); do
        [[ -d $f ]] || COMPREPLY+=("$f")
    done
}

_attention_explorer_cli__dirs() {
    local cur=${1-} IFS=$'\n' f
    COMPREPLY=()
    type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null
    for f in $(compgen -d -- "$cur"); do
        COMPREPLY+=("$f")
    done
}

# Completes KEY=VALUE after --set / --vary: keys as "KEY=" (no space after), then the allowed
# values of a choice or boolean key.
_attention_explorer_cli__assignment() {
    local prog=$1 cur=$2 repeat=$3
    COMPREPLY=()
    if [[ $cur != *=* ]]; then
        local keys k
        keys=$(_attention_explorer_cli__keys "$prog")
        for k in $keys; do
            [[ $k == "$cur"* ]] && COMPREPLY+=("$k=")
        done
        _attention_explorer_cli__nospace
        return 0
    fi
    local key=${cur%%=*} value=${cur#*=} prefix=""
    # readline treats '=' as a word break by default: the word it replaces is what follows it.
    [[ ${COMP_WORDBREAKS-} == *=* ]] || prefix="$key="
    local values
    values=$(_attention_explorer_cli__values "$prog" "$key")
    [[ -n $values ]] || return 0
    local head="" last=$value
    if [[ $repeat == list && $value == *,* ]]; then  # --vary KEY=V1,V2,...
        head=${value%,*},
        last=${value##*,}
    fi
    local v
    for v in $values; do
        [[ $v == "$last"* ]] && COMPREPLY+=("$prefix$head$v")
    done
    [[ $repeat == list ]] && _attention_explorer_cli__nospace
    return 0
}

_attention_explorer_cli() {
    local cur prev words cword i
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -n = || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        # Join KEY = VALUE back together: readline splits words at '=' (COMP_WORDBREAKS).
        local -a joined=()
        local n=-1 newcword=0
        for ((i = 0; i < ${#words[@]}; i++)); do
            if ((i > 2)) && [[ ${words[i]} == "=" || ${words[i - 1]} == "=" ]]; then
                joined[n]+=${words[i]}
            else
                joined+=("${words[i]}")
                n=$((n + 1))
            fi
            ((i == cword)) && newcword=$n
        done
        words=("${joined[@]}")
        cword=$newcword
        cur=${words[cword]-}
        prev=""
        ((cword > 0)) && prev=${words[cword - 1]-}
    fi

    local prog=${words[0]-attention-explorer-cli}
    local all  # every sub-command, one a line (a sub-command of a command: "sweep task")

    if ((cword <= 1)); then
        all=$(_attention_explorer_cli__words "$prog")
        if [[ $cur == -* ]]; then
            _attention_explorer_cli__reply "$(awk 'NF == 1 && /^-/' <<<"$all")" "$cur"
        else
            _attention_explorer_cli__reply "$(awk 'NF == 1 && !/^-/' <<<"$all")" "$cur"
        fi
        return 0
    fi

    local command=${words[1]}
    case $prev in
        --preset)
            _attention_explorer_cli__reply "$(_attention_explorer_cli__presets "$prog")" "$cur"
            return 0
            ;;
        --only)
            # A comma-separated list of presets: complete the name after the last comma.
            local head="" last=$cur p
            if [[ $cur == *,* ]]; then
                head=${cur%,*},
                last=${cur##*,}
            fi
            COMPREPLY=()
            for p in $(_attention_explorer_cli__presets "$prog"); do
                [[ $p == "$last"* ]] && COMPREPLY+=("$head$p")
            done
            return 0
            ;;
        --config | --session)
            _attention_explorer_cli__json_files "$cur"
            return 0
            ;;
        --out)
            if [[ $command == animate ]]; then
                # A film (.mp4, .gif) or a folder for the PNG frames.
                local IFS=$'\n'
                COMPREPLY=($(compgen -f -- "$cur"))
                compopt -o filenames 2>/dev/null
            else
                _attention_explorer_cli__dirs "$cur"
            fi
            return 0
            ;;
        --set)
            _attention_explorer_cli__assignment "$prog" "$cur" single
            return 0
            ;;
        --vary)
            _attention_explorer_cli__assignment "$prog" "$cur" list
            return 0
            ;;
        --format)
            local head="" last=$cur
            if [[ $cur == *,* ]]; then
                head=${cur%,*},
                last=${cur##*,}
            fi
            COMPREPLY=()
            local f
            for f in png svg pdf pgf mpl; do
                [[ $f == "$last"* ]] && COMPREPLY+=("$head$f")
            done
            return 0
            ;;
        --style)
            _attention_explorer_cli__reply "screen publication" "$cur"
            return 0
            ;;
        --size)
            _attention_explorer_cli__reply "1200x800 1600x900 1920x1080 800x600" "$cur"
            return 0
            ;;
        --panels)
            _attention_explorer_cli__reply "charts matrices attention factor-plane landscape" "$cur"
            return 0
            ;;
        --columns)
            _attention_explorer_cli__reply "1 2" "$cur"
            return 0
            ;;
        --width-cm)
            _attention_explorer_cli__reply "8.5 17.8" "$cur"
            return 0
            ;;
        --font-pt)
            _attention_explorer_cli__reply "8 9 10" "$cur"
            return 0
            ;;
        --backend)
            _attention_explorer_cli__reply "local slurm" "$cur"
            return 0
            ;;
        --stat)
            _attention_explorer_cli__reply "final best floor" "$cur"
            return 0
            ;;
    esac

    # The command's sub-commands (sweep: task, collect): offered after it, then their folder.
    all=$(_attention_explorer_cli__words "$prog")
    local subs sub=""
    subs=$(awk -v c="$command" 'NF == 2 && $1 == c { print $2 }' <<<"$all")
    if [[ -n $subs && $cword -eq 2 && $cur != -* ]]; then
        _attention_explorer_cli__reply "$subs" "$cur"
        return 0
    fi
    if [[ -n $subs && $cword -gt 2 ]] && grep -qxF -- "${words[2]}" <<<"$subs"; then
        sub=${words[2]}
    fi
    if [[ -n $sub && $cword -eq 3 ]]; then
        _attention_explorer_cli__dirs "$cur"
        return 0
    fi

    # The command's options (only of a command the program lists; not of --help, which would
    # print the usage instead).
    local lines=""
    if [[ $command != -* ]] && grep -qxF -- "$command${sub:+ $sub}" <<<"$all"; then
        # shellcheck disable=SC2086  # "sweep task": two words
        lines=$(_attention_explorer_cli__words "$prog" $command $sub)
    fi
    # After an option that takes a value with no completion of its own (--seeds K): nothing.
    if [[ $prev == -* ]] && awk -v o="$prev" '$1 == o && NF > 1 { found = 1 } END { exit !found }' \
        <<<"$lines"; then
        COMPREPLY=()
        return 0
    fi
    local opts repeatable
    opts=$(awk 'NF { print $1 }' <<<"$lines")
    repeatable=$(awk '$2 ~ /[.][.][.]$/ { print $1 }' <<<"$lines")
    [[ -n $opts ]] && opts="$opts --help"

    # Options already given are not offered again, except the repeatable ones (--set, --vary).
    local o w filtered="" seen
    for o in $opts; do
        seen=""
        if ! grep -qxF -- "$o" <<<"$repeatable"; then
            for ((i = 2; i < cword; i++)); do
                w=${words[i]}
                [[ $w == "$o" ]] && seen=1
                [[ $o == --quiet && $w == -q ]] && seen=1
            done
        fi
        [[ -z $seen ]] && filtered="$filtered $o"
    done
    _attention_explorer_cli__reply "$filtered" "$cur"
    return 0
}

complete -F _attention_explorer_cli attention-explorer-cli

# ex: filetype=sh
