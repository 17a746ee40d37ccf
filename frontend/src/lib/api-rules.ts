// Generated from openapi.json (the API description, /api/openapi.json) by
// scripts/gen-api.mjs. Do not edit: change the openapi*.yaml fragments next to the
// Go handlers, then run `npm run gen:api`.

/** Server-side input rules, from openapi.json. */
export const apiRules = {
  "credentialName": {
    "maxLength": 128,
    "pattern": "^[A-Z_][A-Z0-9_]*$",
    "reservedNames": [
      "_",
      "ALL_PROXY",
      "AWS_CA_BUNDLE",
      "BASH_ENV",
      "ENV",
      "FTP_PROXY",
      "HOME",
      "HOSTALIASES",
      "HOSTNAME",
      "HTTPS_PROXY",
      "HTTP_PROXY",
      "IFS",
      "LOCALDOMAIN",
      "LOGNAME",
      "NO_PROXY",
      "OLDPWD",
      "PATH",
      "PS1",
      "PS2",
      "PS4",
      "PWD",
      "REQUEST_METHOD",
      "RES_OPTIONS",
      "SHELL",
      "SHLVL",
      "SSLKEYLOGFILE",
      "SSL_CERT_DIR",
      "SSL_CERT_FILE",
      "USER"
    ],
    "reservedPattern": "^(LD_|TRAEFIK_|GATEHOUSE_|SSL_|LEGO_|GO[A-Z0-9]*$)"
  },
  "hsts": {
    "maxAge": 63072000,
    "preloadMinAge": 31536000
  }
} as const;
