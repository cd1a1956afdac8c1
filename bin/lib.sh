# Shared by bin/site, bin/test and .ci/run (sourced, not run): the venv, system packages, messages.
# shellcheck shell=bash

BILKA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$BILKA_ROOT/.venv"
PY="$VENV/bin/python"

say() { printf '\033[1m%s:\033[0m %s\n' "$(basename "$0")" "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Install Debian packages (as root, or through sudo when it is there).
apt_install() {
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || die "need root (or sudo) to install: $*"
        sudo=(sudo)
    fi
    say "installing with apt-get: $*"
    "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null || die "apt-get install $* failed"
}

# Create .venv/ if missing and install the project with its dev extras. The install is skipped
# when var/install.stamp records the same pyproject.toml and Python, so re-runs are fast.
ensure_venv() {
    command -v python3 >/dev/null || apt_install python3 python3-venv
    if [[ ! -x $PY ]]; then
        rm -f "$BILKA_ROOT/var/install.stamp" # it described the venv that is gone
        say "creating $VENV"
        python3 -m venv "$VENV" 2>/dev/null || { apt_install python3-venv && rm -rf "$VENV" && python3 -m venv "$VENV"; } \
            || die "python3 -m venv failed"
    fi
    mkdir -p "$BILKA_ROOT/var"
    local stamp="$BILKA_ROOT/var/install.stamp" want
    want="$(sha256sum "$BILKA_ROOT/pyproject.toml" | cut -d' ' -f1) $("$PY" -VV | head -1)"
    if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
        say "installing the project and its dev tools into .venv (pip)"
        "$PY" -m pip install -q --disable-pip-version-check -e "$BILKA_ROOT[dev]" || die "pip install failed"
        printf '%s' "$want" >"$stamp"
    fi
    ensure_native
}

# Compile the engine's hot modules and its solver with mypyc, and the solver's search in C
# (gameplay/engine/native.py), when a build is missing or older than an engine source.
# Optional: without a C compiler, or where a build fails, that part runs as plain Python
# (slower, same answers).
ensure_native() {
    local engine="$BILKA_ROOT/gameplay/engine" built c_built
    built=$(find "$engine" -maxdepth 1 -name 'solver.*.so' -print -quit)
    c_built=$(find "$engine" -maxdepth 1 -name '_dds.*.so' -print -quit)
    if [[ -n $built && -z $(find "$engine" -maxdepth 1 -name '*.py' -newer "$built" -print -quit)
          && -n $c_built && -z $(find "$engine" -maxdepth 1 -name '*.c' -newer "$c_built" -print -quit) ]]; then
        return 0
    fi
    if ! command -v cc >/dev/null; then
        say "no C compiler: the engine and its solver run as plain Python"
        return 0
    fi
    say "compiling the engine's hot modules with mypyc and the solver's search in C (python -m gameplay.engine build-native)"
    (cd "$BILKA_ROOT" && "$PY" -m gameplay.engine build-native >/dev/null) \
        || say "a native build failed: what did not build runs as plain Python"
}

# Compile every locale's .po files (needs gettext's msgfmt).
compile_messages() {
    command -v msgfmt >/dev/null || apt_install gettext
    (cd "$BILKA_ROOT" && "$PY" manage.py compilemessages -v0 --ignore=.venv --ignore=var --ignore=node_modules) \
        || die "compilemessages failed"
}
