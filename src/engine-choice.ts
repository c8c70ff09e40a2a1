// Which engine bundle runs a command (src/engine-loader.ts): the commands listed here run from
// dist/engine-light.cjs (src/engine-light.ts), every other one from dist/engine.cjs (src/engine.ts).
// Kept free of imports: dist/cli.cjs holds it, for every run.

export const LIGHT_COMMANDS = [
  'overview',
  'auth/login',
  'auth/status',
  'auth/logout',
  'auth/token',
  'profile/list',
  'profile/use',
  'profile/remove',
  'account',
  'banks',
  'enquiry',
  'tsq',
  'clients/list',
  'clients/get',
  'tx/list',
  'tx/get',
] as const;

export type LightCommand = (typeof LIGHT_COMMANDS)[number];

export function isLightCommand(key: string): key is LightCommand {
  return (LIGHT_COMMANDS as readonly string[]).includes(key);
}
