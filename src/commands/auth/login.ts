// fsapi auth login [--env sandbox|production] [--base-url URL] [--validity MINUTES] [--save-credentials]
//
// Profile name: --profile, else the environment's name, else `local`. The base address: --base-url, else
// the one the profile remembers for the same environment, else the environment's known address
// (src/auth/known-addresses.ts), said on stderr. Key and secret
// come from FSAPI_CONSUMER_KEY / FSAPI_CONSUMER_SECRET or are asked at a terminal (the secret hidden);
// never from a flag. Everything is checked before the one generate-token request is sent.
import type { Context } from '../../context.js';
import { run } from '../run.js';
import { loginSpec } from './login.spec.js';
import { UsageError } from '../../errors.js';
import { zonedClockText } from '../../common/time-zone.js';
import { profileClock } from '../../controls/business-clock.js';
import { envCredentialParts, simulatorCredentials } from '../../auth/credentials.js';
import type { Credentials } from '../../api/token.js';
import { knownBaseUrl } from '../../auth/known-addresses.js';
import { logIn } from '../../auth/login.js';
import { PROFILE_NAME_PATTERN } from '../../auth/profile-store.js';
import { LOCAL_PROFILE } from '../../auth/resolve.js';
import type { Environment } from '../../auth/types.js';
import { printJson } from '../../ui/output.js';

export default run(loginSpec, async (ctx, opts, _args) => {
  const validityMinutes = opts.validity;
  const saveCredentials = opts.saveCredentials;
  const store = await ctx.profiles();

  let name = ctx.globals.profile;
  if (name !== undefined && !PROFILE_NAME_PATTERN.test(name)) {
    throw new UsageError(`profile name ${JSON.stringify(name)} is not allowed`, 'use letters, digits, dot, dash and underscore, e.g. sandbox or live-2');
  }
  let env = opts.env as Environment | undefined;
  let baseUrl = ctx.globals.baseUrl; // login's --base-url or the global one / FSAPI_BASE_URL, already checked

  // A person at a terminal who named nothing chooses the environment (and so the profile) from a list.
  const isNew = name === undefined || store.get(name) === undefined;
  if (env === undefined && baseUrl === undefined && isNew && ctx.prompt.interactive && name !== LOCAL_PROFILE) {
    env = await askEnvironment(ctx);
  }
  name ??= env ?? LOCAL_PROFILE;
  const existing = store.get(name);
  if (name === LOCAL_PROFILE && env !== undefined && env !== 'local') {
    throw new UsageError(`the profile name "local" is kept for the simulator`, `choose another name: fsapi auth login --profile NAME --env ${env} ...`);
  }
  env ??= existing?.env ?? defaultEnvironmentFor(name);
  // A new profile with a base URL but no --env: a person at a terminal is asked, not refused.
  if (env === undefined && ctx.prompt.interactive) env = await askEnvironment(ctx, { remote: true });
  if (env === undefined) {
    throw new UsageError(`which environment is profile "${name}" for?`, `add --env sandbox or --env production`);
  }

  // The base address: given, else remembered for the same environment, else the environment's known one.
  if (baseUrl === undefined && existing?.env === env) baseUrl = existing.baseUrl;
  if (baseUrl === undefined && env !== 'local') {
    baseUrl = knownBaseUrl(env);
    ctx.io.note(`using the ${env} address ${baseUrl} (known from public integrations of the API; --base-url overrides it)`);
  }

  const credentials = env === 'local' ? await simulatorCredentials() : await askCredentials(ctx);

  const { profile, becameDefault } = await logIn(ctx, store, { name, env, baseUrl, credentials, validityMinutes, saveCredentials });

  const where = profile.baseUrl === undefined ? 'the local simulator' : `${profile.env} (${profile.baseUrl})`;
  const until = profile.tokenExpiresAt === undefined ? '' : zonedClockText(profile.tokenExpiresAt, await profileClock(ctx, profile), { zone: true });
  ctx.io.note(`Logged in to ${where} as profile "${profile.name}"; token valid until ${until}`);
  if (saveCredentials) ctx.io.note(`Credentials saved in ${store.path} (mode 0600) for silent renewal`);
  if (becameDefault) ctx.io.note(`Profile "${profile.name}" is now the default (change it with fsapi profile use <name>)`);
  if (ctx.globals.json) {
    printJson(ctx, {
      profile: profile.name,
      env: profile.env,
      baseUrl: profile.baseUrl ?? null,
      expiresAt: new Date(profile.tokenExpiresAt ?? 0).toISOString(),
    });
  }
});

function defaultEnvironmentFor(name: string): Environment | undefined {
  if (name === 'local' || name === 'sandbox' || name === 'production') return name;
  return undefined;
}

async function askEnvironment(ctx: Context, options: { remote?: boolean } = {}): Promise<Environment> {
  return ctx.prompt.select<Environment>('Which environment do you want to log in to?', [
    { name: 'sandbox', value: 'sandbox', description: 'test environment of the API' },
    { name: 'production', value: 'production', description: 'real money' },
    // With a base URL given, the built-in simulator is not what is meant.
    ...(options.remote ? [] : [{ name: 'local simulator', value: 'local' as Environment, description: 'built into fsapi; no real money moves' }]),
  ]);
}

/** From the environment, else asked at a terminal (the secret hidden); else exit 2 naming the variables. */
async function askCredentials(ctx: Context): Promise<Credentials> {
  const fromEnv = envCredentialParts(ctx.env);
  if (fromEnv.consumerKey && fromEnv.consumerSecret) return { consumerKey: fromEnv.consumerKey, consumerSecret: fromEnv.consumerSecret };
  if (!ctx.prompt.interactive) {
    const missing = [fromEnv.consumerKey ? undefined : 'FSAPI_CONSUMER_KEY', fromEnv.consumerSecret ? undefined : 'FSAPI_CONSUMER_SECRET'].filter(Boolean);
    throw new UsageError(
      `no consumer ${fromEnv.consumerKey ? 'secret' : fromEnv.consumerSecret ? 'key' : 'key and secret'} to log in with`,
      `set ${missing.join(' and ')} in the environment, or run at a terminal to be asked`,
    );
  }
  const consumerKey =
    fromEnv.consumerKey ?? (await ctx.prompt.input('Consumer key', { validate: (value) => (value.trim() ? true : 'the key is empty') })).trim();
  const consumerSecret = fromEnv.consumerSecret ?? (await ctx.prompt.password('Consumer secret'));
  if (consumerSecret.trim() === '') throw new UsageError('the consumer secret is empty');
  return { consumerKey, consumerSecret };
}
