DROP TABLE password_resets;
DROP TABLE invitations;
