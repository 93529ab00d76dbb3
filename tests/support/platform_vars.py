"""The vars most tests run the local platform with: loopback sites allowed, rate limits off.

Rate limits are a feature with their own tests (tests/api/test_rate_limits.py); elsewhere a test
that starts many audits on one platform must not be refused for it.
"""

TEST_VARS = {
    "ALLOW_PRIVATE_HOSTS": "loopback",
    "RATE_LIMIT_REQUESTS_PER_MINUTE": "0",
    "RATE_LIMIT_AUDITS_PER_HOUR": "0",
    "MAX_RUNNING_AUDITS_PER_OWNER": "0",
}
