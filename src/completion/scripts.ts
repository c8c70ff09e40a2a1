// The shell side of completion, printed by `fsapi completion <shell>`. Each script is one small function
// that hands the words typed so far to `fsapi __complete` (src/completion/callback.ts) and turns its answer
// into the shell's completions. The answer is one line `:values` or `:files` (let the shell complete file
// names), then one `value<TAB>description` line per candidate. Values are never eval'ed.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const isShell = (name: string): name is Shell => (SHELLS as readonly string[]).includes(name);

/** A shell script written as-is (backslashes kept); `\${` stands for the shell's own `${`. */
const shellText = (strings: TemplateStringsArray) => strings.raw.join('').replaceAll('\\${', '${');

// Works without the bash-completion package and in bash 3.2 (macOS). The line up to the cursor is sent
// whole and split by fsapi, so quotes and `--opt=value` are understood the way the shell will run them.
const bash = shellText`# bash completion for fsapi
# Load it now:          source <(fsapi completion bash)
# Load it every time:
#   fsapi completion bash > ~/.local/share/bash-completion/completions/fsapi
_fsapi_completion() {
    local cur=\${COMP_WORDS[COMP_CWORD]}
    local line=\${COMP_LINE:0:COMP_POINT}
    local out
    out=$(fsapi __complete --line "$line" 2>/dev/null) || return 0
    COMPREPLY=()
    local mode='' entry value
    local -a entries=()
    while IFS= read -r entry; do
        if [[ -z $mode ]]; then mode=$entry; else entries+=("$entry"); fi
    done <<< "$out"
    if [[ $mode == ':files' ]]; then
        compopt -o filenames 2>/dev/null
        while IFS= read -r entry; do
            COMPREPLY+=("$entry")
        done < <(compgen -f -- "$cur")
        return 0
    fi
    # bash splits words at = and : (COMP_WORDBREAKS), so the word it replaces
    # may be only the tail of the token fsapi completed (--bank=000013,
    # http://...): keep that tail. Right after such a break character, bash's
    # word is the character itself but readline replaces only what follows it.
    [[ $cur == '=' || $cur == ':' ]] && cur=''
    local token=\${line##*[[:space:]]} prefix=''
    [[ $token == *"$cur" ]] && prefix=\${token%"$cur"}
    for entry in "\${entries[@]}"; do
        value=\${entry%%$'\t'*}
        value=\${value#"$prefix"}
        [[ -z $value ]] && continue
        # Values with spaces or shell characters (bank names) are inserted
        # escaped, as one word, unless the user opened a quote: readline then
        # closes it around the value.
        if [[ $cur != [\'\"]* ]] &&
            [[ $value == *[[:space:]\'\"\\\$\`\(\)\;\&\|\<\>\*\?]* ]]; then
            printf -v value '%q' "$value"
        fi
        COMPREPLY+=("$value")
    done
    return 0
}
complete -F _fsapi_completion fsapi
`;

// Needs compinit (as every zsh completion does). Candidates keep their descriptions; matching is
// case-insensitive and may match inside a value, as fsapi already picked what fits the typed word.
const zsh = shellText`#compdef fsapi
# zsh completion for fsapi
# Load it now:          source <(fsapi completion zsh)      (after compinit)
# Load it every time:   fsapi completion zsh > "\${fpath[1]}/_fsapi"
_fsapi() {
    local out mode entry value description
    local -a entries candidates
    out=$(fsapi __complete -- "\${(@Q)words[2,CURRENT]}" 2>/dev/null) || return 1
    entries=("\${(@f)out}")
    mode=\${entries[1]}
    if [[ $mode == ':files' ]]; then
        _files
        return
    fi
    for entry in "\${(@)entries[2,-1]}"; do
        [[ -z $entry ]] && continue
        value=\${entry%%$'\t'*}
        description=''
        [[ $entry == *$'\t'* ]] && description=\${entry#*$'\t'}
        candidates+=("\${value//:/\\:}\${description:+:$description}")
    done
    (( \${#candidates} )) || return 1
    _describe -t fsapi-values 'fsapi' candidates \
        -M 'm:{a-zA-Z}={A-Za-z} l:|=* r:|=*'
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
    _fsapi "$@"
else
    compdef _fsapi fsapi
fi
`;

const fish = shellText`# fish completion for fsapi
# Load it now:          fsapi completion fish | source
# Load it every time:
#   fsapi completion fish > ~/.config/fish/completions/fsapi.fish
function __fsapi_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct | string replace -r '^[\'"]' '')
    set -l out (fsapi __complete -- $words[2..-1] "$current" 2>/dev/null)
    or return
    if test "$out[1]" = ':files'
        __fish_complete_path "$current"
        return
    end
    printf '%s\n' $out[2..-1]
end
complete -c fsapi -f -a '(__fsapi_complete)'
`;

const scripts: Record<Shell, string> = { bash, zsh, fish };

export function completionScript(shell: Shell): string {
  return scripts[shell];
}
