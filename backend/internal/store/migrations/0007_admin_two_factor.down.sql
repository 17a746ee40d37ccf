DROP TABLE admin_security;
DROP TABLE admin_challenges;
DROP TABLE admin_passkeys;
DROP TABLE admin_recovery_codes;
DROP TABLE admin_totp;
