DROP TABLE admin_tokens;
