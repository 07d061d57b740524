# Sourced by installer/install.sh (and its test): is this Python one the lock is for?
# installer/constraints.txt was resolved and tested on CPython 3.11 (Debian 12's python3); several
# pins (numpy 2.4, scipy 1.17, scikit-image, matplotlib) have no build for 3.10, and no other version
# has been tried, so the installer stops before it changes anything rather than half-install.

LOCK_PYTHON="3.11"

# check_python PYTHON: 0 when PYTHON runs CPython $LOCK_PYTHON; else says what it found, what is
# needed and how to get it, on stderr, and returns 1.
check_python() {
  local python="$1" found
  if ! found="$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null)"; then
    echo "install.sh: cannot run $python; PhotoSearch needs Python $LOCK_PYTHON (Debian 12: apt-get install python3 python3-venv)." >&2
    return 1
  fi
  if [ "${found%.*}" != "$LOCK_PYTHON" ]; then
    echo "install.sh: $python is Python $found, but installer/constraints.txt (the tested lock) is for Python $LOCK_PYTHON only." >&2
    echo "  Use Debian 12 (its python3 is $LOCK_PYTHON), or put a Python $LOCK_PYTHON first on PATH as python3 and run this again." >&2
    return 1
  fi
}
