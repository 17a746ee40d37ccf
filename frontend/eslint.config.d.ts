// Types for what the unit tests import from eslint.config.js.
export declare const literalStrings: Record<string, unknown>;
declare const config: unknown;
export default config;
