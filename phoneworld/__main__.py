import sys

from phoneworld.cli import main

sys.exit(main())
