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
      "BASH_ENV",
      "ENV",
      "HOME",
      "HOSTNAME",
      "IFS",
      "LOGNAME",
      "OLDPWD",
      "PATH",
      "PS1",
      "PS2",
      "PS4",
      "PWD",
      "SHELL",
      "SHLVL",
      "USER"
    ],
    "reservedPattern": "^(LD_|TRAEFIK_|GATEHOUSE_)"
  }
} as const;
