#!/usr/bin/env bash
# Build the one-folder desktop bundle: dist/photosearch/photosearch-gui (+ a .desktop entry and icon).
#   bash installer/build_bundle.sh            # build
#   bash installer/build_bundle.sh --install  # also install the desktop entry + icon for this user
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet "pyinstaller>=6" "PySide6-Essentials>=6.6"
python -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller installer/photosearch.spec
bundle="$PWD/dist/photosearch"
install -m 644 installer/photosearch.desktop "$bundle/photosearch.desktop"
install -m 644 installer/photosearch.svg "$bundle/photosearch.svg"
echo "built $bundle/photosearch-gui"
if [[ "${1:-}" == "--install" ]]; then
  apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
  icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
  mkdir -p "$apps" "$icons" "$HOME/.local/bin"
  ln -sf "$bundle/photosearch-gui" "$HOME/.local/bin/photosearch-gui"
  install -m 644 installer/photosearch.svg "$icons/photosearch.svg"
  sed "s|^Exec=.*|Exec=$bundle/photosearch-gui %F|; s|^TryExec=.*|TryExec=$bundle/photosearch-gui|" \
    installer/photosearch.desktop > "$apps/photosearch.desktop"
  command -v update-desktop-database >/dev/null && update-desktop-database "$apps" || true
  echo "installed $apps/photosearch.desktop"
fi
