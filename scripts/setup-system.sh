#!/usr/bin/env bash
# Install from the system what `make` needs, each only where it is missing: uv (from PyPI, with
# Debian's python3-pip first where pip is missing) and, with --test, Debian's chromium (browser
# tests) and postgresql (storage tests). apt-get runs quietly, under sudo when not root. When
# something cannot be installed, one line says what to install by hand and the status is 1.
# GLADIATOR_SKIP_BROWSER=1 / GLADIATOR_SKIP_POSTGRES=1 skip those tests, so nothing is installed.
set -uo pipefail

fail() {
    echo "setup: $1" >&2
    exit 1
}

have_uv() { command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1; }

packages=()
if ! have_uv && ! python3 -m pip --version >/dev/null 2>&1; then packages+=(python3-pip); fi
if [ "${1:-}" = "--test" ]; then
    if [ "${GLADIATOR_SKIP_BROWSER:-}" != "1" ] && ! command -v chromium >/dev/null 2>&1; then
        packages+=(chromium)
    fi
    if [ "${GLADIATOR_SKIP_POSTGRES:-}" != "1" ] && [ -z "${GLADIATOR_POSTGRES_BIN:-}" ] &&
        ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
        packages+=(postgresql)
    fi
fi

if [ ${#packages[@]} -gt 0 ]; then
    by_hand="install Debian's ${packages[*]} by hand, then run make again"
    command -v apt-get >/dev/null 2>&1 || fail "no apt-get here: $by_hand"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || fail "not root and no sudo: $by_hand"
        sudo="sudo"
    fi
    echo "setup: installing ${packages[*]} with apt-get (about a minute)"
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    if ! $sudo apt-get update -qq >"$log" 2>&1 ||
        ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" \
            >>"$log" 2>&1; then
        reason="$(grep '^E:' "$log" | tail -n 1)"
        [ -n "$reason" ] || reason="$(tail -n 1 "$log")"
        fail "apt-get failed (${reason:-no message}): $by_hand"
    fi
fi

if ! have_uv; then
    # A system Python marked externally managed (PEP 668) refuses a plain install: retry in the
    # user's site, where `python3 -m uv` finds it.
    python3 -m pip install --quiet uv >/dev/null 2>&1 ||
        python3 -m pip install --quiet --user --break-system-packages uv >/dev/null 2>&1 ||
        fail "pip could not install uv: install uv by hand (pip install uv), then run make again"
    have_uv || fail "uv was installed but python3 -m uv does not run: install uv by hand"
fi
