"""Print README.md's first (`install`) or second (`test`) command: CI runs them exactly as written."""

import re
import sys
from pathlib import Path

blocks = re.findall(
    r"```bash\n(.*?)```", (Path(__file__).resolve().parents[1] / "README.md").read_text(), re.S
)
which = {"install": 0, "test": 1}[sys.argv[1]]
print(blocks[which].strip())
