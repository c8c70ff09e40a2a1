// Which engine bundle runs a command (src/engine-loader.ts): the commands listed here run from
// dist/engine-light.cjs (src/engine-light.ts), every other one from dist/engine.cjs (src/engine.ts). The list
// is made from the specs (`light: true`, scripts/gen-commands.ts).
// Kept free of imports: dist/cli.cjs holds it, for every run.

export const LIGHT_COMMANDS = [
  // BEGIN made from the specs by scripts/gen-commands.ts (npm run build): edit the specs, not this
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
  // END made from the specs
] as const;

export type LightCommand = (typeof LIGHT_COMMANDS)[number];

export function isLightCommand(key: string): key is LightCommand {
  return (LIGHT_COMMANDS as readonly string[]).includes(key);
}
