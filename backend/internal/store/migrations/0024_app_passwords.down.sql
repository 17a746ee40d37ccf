DROP TABLE app_passwords;
