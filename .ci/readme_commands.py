"""README.md's commands, for CI: `install` / `test` print the first / second command (CI runs them
exactly as written); `check-first LOG` checks that the first command's output (LOG) ends as README says
it does: every model OK, the example gallery indexed without a failure, the four tabby-cat photos found."""

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
# What README's paragraph under the first command says the user sees at the end.
FIRST_COMMAND_ENDS_WITH = {
    "all 9 models OK": "`photosearch doctor` did not pass every bundled model",
    "failed 0, analysed 21": "`photosearch index` did not analyse all 21 example photos without a failure",
    "4 of 4 matches": '`photosearch search "tabby cat"` did not find the four photos of Chelsea',
}


def command(which: str) -> str:
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(), re.S)
    return blocks[{"install": 0, "test": 1}[which]].strip()


def check_first(log: Path) -> list[str]:
    """The problems with the first command's output: one line per promise README makes that it broke."""
    text = log.read_text(errors="replace")
    return [
        f"{why} (no {want!r} in {log})" for want, why in FIRST_COMMAND_ENDS_WITH.items() if want not in text
    ]


def main(argv: list[str]) -> int:
    if argv[0] == "check-first":
        problems = check_first(Path(argv[1]))
        for problem in problems:
            print(f"::: CI FAILED: README's first command: {problem}", file=sys.stderr)
        return 1 if problems else 0
    print(command(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
