# Robustness (issue 5): the checks that fail today for want of a runtime
# feature.  tests/run.sh runs this file only with RUN_PENDING=1; a check
# that passes moves to the robust_*.sh file of its subject.  None is
# pending at present.
