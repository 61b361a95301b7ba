# bash completion for attention-explorer (the GUI)                -*- shell-script -*-
#
# Install as  <prefix>/share/bash-completion/completions/attention-explorer
# or source it from ~/.bashrc.  Works with and without the bash-completion package.
#
# Options, a session file (*.json) to open, --preset names and --set keys, an Optuna storage
# for --optuna-study. Preset names and keys
# are asked of attention-explorer-cli: the one beside the GUI program being completed if there
# is one, else the one on PATH.

# The CLI that belongs to the GUI program $1: beside it, else on PATH.
_attention_explorer__cli() {
    local gui=${1-} dir
    if [[ $gui == "~"* ]]; then
        gui=${HOME-}${gui#\~}
    fi
    if [[ -n $gui && $gui != */* ]]; then
        gui=$(type -P -- "$gui" 2>/dev/null)
    fi
    if [[ -n $gui && $gui == */* ]]; then
        dir=${gui%/*}
        [[ -n $dir ]] || dir=/
        if [[ -x $dir/attention-explorer-cli && ! -d $dir/attention-explorer-cli ]]; then
            printf '%s\n' "$dir/attention-explorer-cli"
            return 0
        fi
    fi
    type -P attention-explorer-cli 2>/dev/null
}

_attention_explorer__reply() {
    local IFS=$' \t\n' w
    COMPREPLY=()
    for w in $1; do
        [[ $w == "${2-}"* ]] && COMPREPLY+=("$w")
    done
}

_attention_explorer__files() {
    local cur=${1-} pattern=$2 IFS=$'\n' f
    COMPREPLY=()
    type compopt >/dev/null 2>&1 && compopt -o filenames 2>/dev/null
    for f in $(compgen -d -- "$cur"); do
        COMPREPLY+=("$f")
    done
    for f in $(compgen -f -X "!$pattern" -- "$cur"); do
        [[ -d $f ]] || COMPREPLY+=("$f")
    done
}

_attention_explorer() {
    local cur prev words cword cli
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -n = || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        # Join KEY = VALUE back together: readline splits words at '=' (COMP_WORDBREAKS).
        local -a joined=()
        local i n=-1 newcword=0
        for ((i = 0; i < ${#words[@]}; i++)); do
            if ((i > 1)) && [[ ${words[i]} == "=" || ${words[i - 1]} == "=" ]]; then
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

    case $prev in
        --preset)
            cli=$(_attention_explorer__cli "${words[0]-}")
            COMPREPLY=()
            [[ -n $cli ]] &&
                _attention_explorer__reply "$("$cli" presets 2>/dev/null | awk 'NF { print $1 }')" "$cur"
            return 0
            ;;
        --set)
            COMPREPLY=()
            [[ $cur == *=* ]] && return 0  # values: see attention-explorer-cli keys
            cli=$(_attention_explorer__cli "${words[0]-}")
            [[ -n $cli ]] || return 0
            local k
            for k in $("$cli" keys 2>/dev/null | awk '/^[^ \t]/ { print $1 }'); do
                [[ $k == "$cur"* ]] && COMPREPLY+=("$k=")
            done
            type compopt >/dev/null 2>&1 && compopt -o nospace 2>/dev/null
            return 0
            ;;
        --screenshot)
            _attention_explorer__files "$cur" '*.[pP][nN][gG]'
            return 0
            ;;
        --stats)
            _attention_explorer__files "$cur" '*.[jJ][sS][oO][nN]'
            return 0
            ;;
        --lesson)
            # The shipped lessons by name (beside the CLI's presets), or a lesson file.
            cli=$(_attention_explorer__cli "${words[0]-}")
            local dir=""
            [[ -n $cli ]] && dir=${cli%/*}/../share/attention-explorer/lessons
            _attention_explorer__files "$cur" '*.[jJ][sS][oO][nN]'
            if [[ -n $dir && -d $dir && $cur != */* ]]; then
                local f
                for f in "$dir"/*.json; do
                    [[ -e $f ]] || continue
                    f=${f##*/}
                    f=${f%.json}
                    [[ $f == "$cur"* ]] && COMPREPLY+=("$f")
                done
            fi
            return 0
            ;;
        --optuna-study)
            # An Optuna storage: SQLite .db/.sqlite/.sqlite3, or a journal .log/.journal.
            _attention_explorer__files "$cur" '*.[dD][bB]'
            local IFS=$'\n' f p
            for p in '*.sqlite' '*.sqlite3' '*.log' '*.journal'; do
                for f in $(compgen -f -X "!$p" -- "$cur"); do
                    [[ -d $f ]] || COMPREPLY+=("$f")
                done
            done
            return 0
            ;;
        --screenshot-at | --seeds | --study)
            COMPREPLY=()
            return 0
            ;;
        -platform)
            _attention_explorer__reply "xcb wayland offscreen minimal vnc eglfs linuxfb" "$cur"
            return 0
            ;;
        -style)
            _attention_explorer__reply "Fusion Windows" "$cur"
            return 0
            ;;
        -stylesheet)
            _attention_explorer__files "$cur" '*.[qQ][sS][sS]'
            return 0
            ;;
        -display | -qwindowgeometry | -geometry | -qwindowtitle | -qwindowicon | -session | \
            -platformpluginpath | -platformtheme | -plugin)
            COMPREPLY=()
            return 0
            ;;
    esac

    # Not an option: the session file to open.
    if [[ $cur != -* ]]; then
        _attention_explorer__files "$cur" '*.[jJ][sS][oO][nN]'
        return 0
    fi
    local opts="--preset --set --seeds --autorun --quit-when-done --screenshot --screenshot-at --stats
        --presentation --lesson --optuna-study --study --no-settings --help --help-all --version"
    if [[ $cur == -* && $cur != --* ]]; then
        opts="$opts -platform -style -stylesheet -display -qwindowgeometry -reverse"
    fi
    _attention_explorer__reply "$opts" "$cur"
    return 0
}

complete -F _attention_explorer attention-explorer

# ex: filetype=sh
