#!/usr/bin/env bash
# Runs an MPI command that must fail on every rank, not hang: expects a non-zero exit status
# within TIMEOUT seconds and MESSAGE at least COUNT times in its output (tests/mpi.cmake).
#   expect_rank_failure.sh TIMEOUT COUNT MESSAGE COMMAND...
set -u
limit=$1 count=$2 message=$3
shift 3
output=$(timeout --kill-after=5 "$limit" "$@" 2>&1)
status=$?
echo "$output"
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "expect_rank_failure: FAIL: still running after ${limit} s (a hang)"
  exit 1
fi
if [ "$status" -eq 0 ]; then
  echo "expect_rank_failure: FAIL: exit status 0, expected a failure"
  exit 1
fi
found=$(grep -cF -- "$message" <<<"$output")
if [ "$found" -lt "$count" ]; then
  echo "expect_rank_failure: FAIL: '$message' appears $found times, expected at least $count"
  exit 1
fi
echo "expect_rank_failure: ok: exit status $status with '$message' ($found times)"
