import sys

from photosearch.cli import main

sys.exit(main())
