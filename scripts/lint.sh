#!/bin/sh
# The house rules (README "npm run lint"): Prettier, ESLint, the folders' import order, nothing unused.
# Side by side rather than one after another: on two cores they take about half the time.
prettier --check . & format=$!
eslint . & code=$!
depcruise core http cli migrations admin/src --config .dependency-cruiser.cjs & order=$!
knip & unused=$!
failed=0
for check in $format $code $order $unused; do wait "$check" || failed=1; done
exit $failed
