DROP TABLE rate_limit_failures;
DROP TABLE sso_pending;
