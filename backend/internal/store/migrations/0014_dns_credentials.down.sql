DROP TABLE dns_credentials;
