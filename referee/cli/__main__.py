"""``python3 -m referee.cli``: the ``bgtable`` command without the installed script."""
import sys

from referee.cli import main

sys.exit(main())
