"""Start the PhotoSearch desktop app: `python main.py`."""

import sys

if __name__ == "__main__":
    from photosearch.gui.app import main

    sys.exit(main())
