import { choice, defineCommand, flag, integer, text } from '../spec.js';

export const loginSpec = defineCommand({
  path: 'auth login',
  light: true,
  summary: 'get a token with your consumer key and secret and save it in the profile',
  options: {
    env: choice('--env <env>', 'API environment', ['sandbox', 'production']),
    baseUrl: text('--base-url <url>', "base address of the API for this profile (default: the environment's known address)"),
    validity: integer('--validity <minutes>', 'token lifetime in minutes, at most 2880', { min: 1, max: 2880, defaultValue: 1440, unit: 'minutes' }),
    saveCredentials: flag('--save-credentials', 'keep the key and secret (mode 0600) so expired tokens renew silently'),
  },
  helpText:
    "\nThe key and secret are read from FSAPI_CONSUMER_KEY and FSAPI_CONSUMER_SECRET,\nelse asked (the secret hidden); never from a flag. Without --base-url the\nenvironment's known address is used and named.\n",
  endpoints: [['POST /v1/generate-token', 'a token for the consumer key and secret']],
  exitCodes: [0, 1, 2, 3],
  examples: [
    'fsapi auth login --env sandbox',
    'fsapi auth login --profile live --env production --save-credentials',
    'fsapi auth login --env sandbox --base-url https://sandbox-baas-api.bellmonie.com',
  ],
});
