"""Runs the training tests that need no PyTorch and no data set (test_common.py) for `npm test`.

Usage: python3 training/run_light_tests.py REPORT.json. Writes {passed, failed, skipped} to the
report and exits non-zero when a test failed. The PyTorch tests (test_training.py) need Debian's
python3-torch and are run by hand (training/README.md).
"""

from __future__ import annotations

import json
import sys
import unittest
from pathlib import Path

# No __pycache__ folders in the working tree.
sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

suite = unittest.defaultTestLoader.loadTestsFromName('test_common')
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
skipped = len(result.skipped) + len(result.expectedFailures)
report = {'passed': result.testsRun - failed - skipped, 'failed': failed, 'skipped': skipped}
if len(sys.argv) > 1:
    Path(sys.argv[1]).write_text(json.dumps(report))
sys.exit(0 if result.wasSuccessful() else 1)
