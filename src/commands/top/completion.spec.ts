import { defineCommand } from '../spec.js';

export const completionSpec = defineCommand({
  path: 'completion',
  summary: 'print a shell completion script',
  description:
    'Print the completion script of a shell. It completes commands, options, profile names after --profile, and ' +
    'bank names and codes after --bank from the bank list that fsapi banks cached: a Tab never calls the API.',
  args: [{ name: '<shell>', description: 'bash, zsh or fish' }],
  options: {},
  exitCodes: [0, 2],
  examples: ['source <(fsapi completion bash)', 'fsapi completion zsh > "${fpath[1]}/_fsapi"', 'fsapi completion fish > ~/.config/fish/completions/fsapi.fish'],
});
