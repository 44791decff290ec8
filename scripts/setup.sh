# Shared set-up for scripts/run and scripts/test: system packages, then a virtual environment in .venv.
# Sourced, not run. Safe to repeat: it installs only what is missing.

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

on_pi() {
    grep -qi "raspberry pi" /proc/device-tree/model 2>/dev/null
}

# apt packages, installed only when one is missing (so a second run needs no network)
ensure_apt() {
    local missing=()
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
        echo "Installing system packages: ${missing[*]}"
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

ensure_system() {
    local pkgs=(python3 python3-venv python3-pip libgl1 libegl1)
    if on_pi; then
        # the camera and the GPIO backend come from Raspberry Pi OS, not PyPI
        pkgs+=(python3-picamera2 python3-lgpio)
    fi
    ensure_apt "${pkgs[@]}"
}

# .venv with the project installed; extras as arguments, e.g. ensure_venv test
ensure_venv() {
    local extras="${1:-}"
    if [ ! -x .venv/bin/python ]; then
        # system site packages: on the Pi, picamera2 and lgpio live there
        python3 -m venv --system-site-packages .venv
    fi
    local spec="."
    [ -n "$extras" ] && spec=".[$extras]"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e "$spec"
}
