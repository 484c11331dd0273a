from gmscreen.cli import main

raise SystemExit(main())
