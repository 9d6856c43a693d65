#!/bin/bash
# the task's tests over the agent's workspace; reward 1 when all pass
cp /tests/test_*.py /app/ && cd /app && python -m pytest -q -p no:cacheprovider
if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
