import { defineCommand, flag } from '../spec.js';

export const secretSpec = defineCommand({
  path: 'webhook secret',
  summary: "print the profile's key for checking X-Fsapi-Signature on forwards",
  options: {
    rotate: flag('--rotate', 'make a new key (a running listener keeps the old one until restarted)'),
  },
  exitCodes: [0, 1, 2],
  examples: ['fsapi webhook secret', 'fsapi webhook secret --rotate'],
});
